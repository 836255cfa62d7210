"""What a row of My games says on its right: who won a finished game, and who is to start a
full table."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from games.models import Game
from games.services import moderation
from tests.games.helpers import play_to_the_end, seat_users

pytestmark = pytest.mark.django_db


def _row(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    page = client.get("/games/").content.decode()
    rows = re.findall(r'<li class="game-row">.*?</li>', page, re.S)
    found = [r for r in rows if f'href="/games/{game.pk}/"' in r]
    assert len(found) == 1, rows
    return found[0]


def _status(row: str) -> str:
    return re.findall(r'<span class="muted">(.*?)</span></li>', row, re.S)[-1].strip()


def test_a_finished_game_says_who_won(started):
    game = play_to_the_end(started("mogel-motte"))
    assert game.status == Game.Status.FINISHED
    winners = game.result["winners"]
    users = seat_users(game)
    names = [users[i].name for i in sorted(winners)]
    assert winners and len(winners) < len(users)
    for seat, user in users.items():
        said = _status(_row(user, game))
        if seat in winners:
            assert said == "You won"
        else:
            assert said == f"{' and '.join(names)} won", said


def test_an_aborted_game_says_so(started, make_user):
    game = started("imperador")
    moderator = make_user("mod", is_staff=True)
    moderation.game_abort(moderator, game.pk, "test")
    assert _status(_row(seat_users(game)[1], game)) == "aborted"


def test_a_full_table_says_who_starts_it(trio):
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)
    assert "waiting for players" in _status(_row(alice, game))
    services.game_join(carol, game.pk)
    assert _status(_row(alice, game)) == "Full: start it when you are ready"
    assert _status(_row(bob, game)) == "Full: waiting for the start"
    services.game_start(alice, game.pk)
    assert "left" in _status(_row(bob, game))  # in play: the time left of the wait


def test_a_full_live_table_asks_an_unready_player_for_ready(trio):
    alice, bob, carol = trio
    game = services.game_create(
        alice, engine="imperador", seats=3, pace="live", invite=["bob", "carol"]
    )
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    assert _status(_row(bob, game)) == "Full: press “I’m ready”"
    services.seat_ready(bob, game.pk)
    assert _status(_row(bob, game)) == "Full: waiting for the start"
    assert _status(_row(carol, game)) == "Full: press “I’m ready”"
