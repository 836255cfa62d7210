"""Mogel Motte: an accusation's buttons say whom they accuse first ("Accuse Bob, hand over
[3]"): "[3] → Bob" read as giving Bob a 3 (live review), the usual shape of a gift."""

from __future__ import annotations

import pytest
from django.test import Client

from games import services
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


def test_the_last_accusation_names_the_players_not_the_bot_sitting_there_now(started, make_user):
    """ "Carol caught Alice (bot) cheating": the bot took Alice's seat after the accusation
    (live review). The board names the players, as the history does. The cheat, the
    accusation and the bot's taking the seat all go through the services."""
    game = started("mogel-motte")
    users = seat_users(game)

    def play(kind: str, target: int | None = None) -> int:
        current = Game.objects.get(pk=game.pk)
        seat, action = next(
            (seat, a)
            for seat in range(3)
            for a in ENGINE.legal_actions(current.state, seat)
            if a["type"] == kind and (target is None or a["target"] == target)
        )
        services.act(users[seat], game.pk, current.version_for(seat), action)
        return seat

    cheater = play("cheat")
    play("accuse", target=cheater)
    assert Game.objects.get(pk=game.pk).state["last_accusation"]["right"]
    accused = Game.objects.get(pk=game.pk).state["last_accusation"]["target"]
    services.seat_to_bot(make_user("mod", is_staff=True), game.pk, accused, "test: away for good")
    assert Game.objects.get(pk=game.pk).state["last_accusation"]["target"] == accused
    watcher = next(s for s in users if s != accused)
    client = Client()
    client.force_login(users[watcher])

    page = client.get(f"/games/{game.pk}/").content.decode()

    line = page.split("Last accusation: ")[1].split("</p>")[0]
    assert f"{users[accused].name} (bot)" in page, "the players' list says who plays the seat"
    assert users[accused].name in line and "(bot)" not in line, line
