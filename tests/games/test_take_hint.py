"""Imperador: when the emperor takes a card from a caught liar, the move's line names the liar
("Take a card from Bob, caught lying.") instead of "the caught liar", which left the emperor to
work out from the history whose hand the choices were."""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game
from tests.games.helpers import engine_state_where, seat_users

pytestmark = pytest.mark.django_db


def _emperor_taking() -> dict:
    """About 1 three-player game in 30 gets there (see tests/games/test_fox_note.py)."""
    return engine_state_where("imperador", 3, lambda state: state["phase"] == "take")


def _page(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


def test_the_emperor_taking_a_card_reads_whose_hand_it_is(started):
    game = started("imperador")
    state = _emperor_taking()
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    users = seat_users(game)
    emperor, liar = state["emperor"], state["turn"]["taking_from"]
    page = _page(users[emperor], game)
    assert f"Take a card from {users[liar].name}, caught lying." in page
    assert "Take a card from the caught liar." not in page
    assert "caught lying." not in _page(users[liar], game)  # the move is the emperor's alone

    type(users[emperor]).objects.filter(pk=users[emperor].pk).update(language="cs")
    cs = _page(type(users[emperor]).objects.get(pk=users[emperor].pk), game)
    assert f"Vezměte kartu hráči {users[liar].name} – byl(a) přistižen(a) při lži." in cs
