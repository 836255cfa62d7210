"""Naming two cards in Cockroach Poker Royal is picked card by card, in order (phone review,
2026-12-01): the ordered pairs of a hand, up to ~60, were one long select."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import services
from games.engines import registry
from games.models import Event, Game
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db

ENGINE = registry.get("cockroach-poker-royal")


def _a_naming_with_a_picker(started) -> tuple[Game, int, Client, str]:
    """Plays tables until a seat must name cards and its page offers the picker."""
    rng = random.Random(8)
    for _table in range(60):
        game = started("cockroach-poker-royal")
        users = seat_users(game)
        for _move in range(200):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            (seat,) = ENGINE.waiting_for(game.state).seats
            if game.state["phase"] == "name":
                page = Client()
                page.force_login(users[seat])
                html = page.get(reverse("games:table", args=[game.pk])).content.decode()
                firsts, seconds = _picked(html, 1), _picked(html, 2)[:-1]
                if firsts != seconds and len(firsts) >= 2:  # a kind held twice, two kinds
                    return game, seat, page, html
            seat, action = next_human_move(game, rng)
            services.act(users[seat], game.pk, game.version_for(seat), action)
    raise AssertionError("no naming with the picker in 60 tables")


def _picked(html: str, place: int) -> list[str]:
    return re.findall(rf'name="f_cards__{place}" value="(\d*)"', html)


def _name(page: Client, game: Game, seat: int, first: str, second: str):
    return page.post(
        reverse("games:act", args=[game.pk]),
        {
            "version": game.version_for(seat),
            "type": "name",
            "f_cards__1": first,
            "f_cards__2": second,
            "key": f"name-{first}-{second}",
        },
    )


def test_one_chip_a_kind_and_the_cards_named_in_the_order_picked(started):
    game, seat, page, html = _a_naming_with_a_picker(started)
    assert '<select id="f-name-cards"' not in html
    plain = {c for a in ENGINE.legal_actions(game.state, seat) for c in a["cards"]}
    firsts, seconds = _picked(html, 1), _picked(html, 2)
    assert seconds[-1] == ""  # "none", last
    assert len(firsts) == len({game.state["kinds"][c] for c in plain})  # one chip a kind
    version = game.version

    answer = _name(page, game, seat, firsts[-1], seconds[0])  # the last kind, then the first

    assert answer.status_code == 302
    row = Event.objects.get(game=game, seq__gt=version, reason=Event.Reason.MOVE)
    assert row.action == {"type": "name", "cards": [int(firsts[-1]), int(seconds[0])]}


def test_a_kind_picked_for_both_places_names_two_cards_of_it(started):
    game, seat, page, html = _a_naming_with_a_picker(started)
    firsts, seconds = _picked(html, 1), _picked(html, 2)[:-1]
    twice = next(i for i, (a, b) in enumerate(zip(firsts, seconds, strict=True)) if a != b)
    kinds = game.state["kinds"]
    assert kinds[int(firsts[twice])] == kinds[int(seconds[twice])]
    version = game.version

    _name(page, game, seat, firsts[twice], seconds[twice])

    row = Event.objects.get(game=game, seq__gt=version, reason=Event.Reason.MOVE)
    assert row.action == {"type": "name", "cards": [int(firsts[twice]), int(seconds[twice])]}


def test_one_card_that_does_not_match_the_claim_is_refused_and_nothing_changes(started):
    game, seat, page, _html = _a_naming_with_a_picker(started)
    singles = {
        a["cards"][0] for a in ENGINE.legal_actions(game.state, seat) if len(a["cards"]) == 1
    }
    plain = {c for a in ENGINE.legal_actions(game.state, seat) for c in a["cards"]}
    # one card that does not match the claim; with none in hand, the same card twice
    wrong, then = (min(plain - singles), "") if plain - singles else (min(plain), str(min(plain)))
    version = game.version

    answer = page.post(
        reverse("games:act", args=[game.pk]),
        {
            "version": game.version_for(seat),
            "type": "name",
            "f_cards__1": str(wrong),
            "f_cards__2": then,
        },
        follow=True,
    )

    game.refresh_from_db()
    assert game.version == version
    # the rules say why (before, only "That move is not possible now.")
    assert "truly matches the claim" in answer.content.decode()


def test_picks_posted_after_the_session_ended_are_shown_again_after_signing_in(started):
    game, seat, page, _html = _a_naming_with_a_picker(started)
    first, second = next(
        a["cards"] for a in ENGINE.legal_actions(game.state, seat) if len(a["cards"]) == 2
    )
    user = seat_users(game)[seat]
    page.logout()
    kept = page.post(
        reverse("games:act", args=[game.pk]),
        {
            "version": game.version_for(seat),
            "seat": seat,
            "type": "name",
            "f_cards__1": str(first),
            "f_cards__2": str(second),
        },
    )
    assert kept.status_code == 302 and "login" in kept.url
    page.force_login(user)

    html = page.get(reverse("games:table", args=[game.pk])).content.decode()

    checked = dict(re.findall(r'name="f_cards__(\d)" value="(\d*)" (?:required )?checked', html))
    kinds = game.state["kinds"]  # one chip a kind: the kept cards' kinds are the ones chosen
    assert {place: kinds[int(card)] for place, card in checked.items()} == {
        "1": kinds[first],
        "2": kinds[second],
    }, checked
