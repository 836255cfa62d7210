"""Imperador: a fox holder is not asked in the show of hands (their hand counts as down); the
table page tells them so, rather than leaving them to wonder why nobody asks."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.services import friendship_create
from games import services
from games.models import Game
from tests.games.helpers import engine_state_where, seat_users

pytestmark = pytest.mark.django_db

NOTE = "You hold foxes: your hand counts as down, and you are not asked."


def _fox_at_a_show_of_hands() -> dict:
    """Four players, at a show of hands where someone other than the emperor holds foxes
    (rare with three)."""
    return engine_state_where(
        "imperador",
        4,
        lambda state: (
            state["phase"] == "hands"
            and any(state["foxes"][s] and s != state["emperor"] for s in range(4))
        ),
    )


def _page(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


def test_a_fox_holder_is_told_why_the_show_of_hands_passes_them_by(trio, make_user):
    alice, bob, carol = trio
    dana = make_user("dana")
    for friend in (bob, carol):
        friendship_create(dana, friend)
    friendship_create(alice, dana)
    game = services.game_create(alice, engine="imperador", seats=4, invite=["bob", "carol", "dana"])
    for player in (bob, carol, dana):
        services.game_join(player, game.pk)
    services.game_start(alice, game.pk)
    state = _fox_at_a_show_of_hands()
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    users = seat_users(game)
    foxed = next(s for s in range(4) if state["foxes"][s] and s != state["emperor"])
    asked = state["turn"]["asked"][0]
    assert NOTE in _page(users[foxed], game)
    assert NOTE not in _page(users[asked], game)
    assert NOTE not in _page(users[state["emperor"]], game)
