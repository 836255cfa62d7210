"""Mogel Motte: an accusation's buttons say whom they accuse first ("Accuse Bob, hand over
[3]"): "[3] → Bob" read as giving Bob a 3 (live review), the usual shape of a gift."""

from __future__ import annotations

import pytest
from django.test import Client

from games.engines import registry
from games.models import Game
from games.presenters import BUTTONS_UP_TO
from tests.games.helpers import engine_state_where, seat_users

pytestmark = pytest.mark.django_db

ENGINE = registry.get("mogel-motte")


def _accusations(state: dict) -> list[tuple[int, list[dict]]]:
    return [
        (seat, accuse)
        for seat in range(3)  # the three-seat tables made here
        if (accuse := [a for a in ENGINE.legal_actions(state, seat) if a["type"] == "accuse"])
    ]


def test_the_guards_accuse_buttons_name_the_accused_first(started):
    """A guard with few cards (few enough for one button each) after someone cheated."""
    game = started("mogel-motte")
    state = engine_state_where(
        "mogel-motte",
        3,
        lambda s: any(len(a) <= BUTTONS_UP_TO for _seat, a in _accusations(s)),
    )
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    users = seat_users(game)
    guard, accusations = next((s, a) for s, a in _accusations(state) if len(a) <= BUTTONS_UP_TO)
    client = Client()
    client.force_login(users[guard])

    page = client.get(f"/games/{game.pk}/").content.decode()

    for target in {a["target"] for a in accusations}:
        assert f'<span class="lead">Accuse {users[target].name}, hand over</span>' in page
    accuse_part = page.split('data-live="g-accuse"')[1].split('data-live="')[0]
    assert 'class="arrow"' not in accuse_part  # no "card → player" left in it


def test_the_last_accusation_names_the_players_not_the_bot_sitting_there_now(started):
    """ "Carol caught Alice (bot) cheating": the bot took Alice's seat after the accusation
    (live review). The board names the players, as the history does."""
    game = started("mogel-motte")
    state = ENGINE.setup(3, {}, 7)
    cheater, cheat = next(
        (seat, a)
        for seat in range(3)
        for a in ENGINE.legal_actions(state, seat)
        if a["type"] == "cheat"
    )
    state, _events = ENGINE.apply(state, cheater, cheat)
    guard, accuse = next(
        (seat, a)
        for seat in range(3)
        for a in ENGINE.legal_actions(state, seat)
        if a["type"] == "accuse" and a["target"] == cheater
    )
    state, _events = ENGINE.apply(state, guard, accuse)
    assert state["last_accusation"]["right"]
    Game.objects.filter(pk=game.pk).update(state=state)
    users = seat_users(game)
    accused = state["last_accusation"]["target"]
    game.seats.filter(index=accused).update(is_bot=True, bot_reason="timeouts")
    watcher = next(s for s in users if s != accused)
    client = Client()
    client.force_login(users[watcher])

    page = client.get(f"/games/{game.pk}/").content.decode()

    line = page.split("Last accusation: ")[1].split("</p>")[0]
    assert users[accused].name in line and "(bot)" not in line, line
