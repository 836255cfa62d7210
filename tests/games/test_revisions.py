"""A seat's revision only grows, through the end of the game: a page ignores any state whose
revision is not above the one it holds, so a number that fell at the end left a page on the
last turn for good (a reviewer's Imperador table, stop 33)."""

from __future__ import annotations

import random

import pytest

from games import services
from games.models import Game
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("engine", ["imperador", "mogel-motte"])
def test_every_seats_revision_grows_up_to_the_end(started, engine):
    for attempt in range(5):
        game = started(engine)
        users = seat_users(game)
        rng = random.Random(attempt)
        seen = {s: game.revision_for(s) for s in users}
        ahead = False  # did a seat ever count past the game's own revision (a secret change)?
        for _ in range(3000):
            if game.status != Game.Status.ACTIVE:
                break
            move = next_human_move(game, rng)
            assert move is not None
            seat, action = move
            services.act(users[seat], game.pk, game.version_for(seat), action)
            game.refresh_from_db()
            ahead = ahead or any(game.revision_for(s) > game.revision for s in users)
            for s in users:
                now = game.revision_for(s)
                assert now >= seen[s], (s, seen[s], now)
                if game.is_over:
                    assert now > seen[s], "the end must reach every seat's page"
                seen[s] = now
        assert game.status == Game.Status.FINISHED
        if ahead:
            return
    pytest.fail("no game had a secret change: the test proves nothing")
