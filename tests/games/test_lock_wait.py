"""A change that waited for the game's lock reads what the change before it committed: the
seats, and whether its idempotency key already made the move."""

from __future__ import annotations

import random
import threading
import time

import pytest
from django.db import connection, transaction

from games import services
from games.errors import StaleVersion
from games.models import Event, Game
from tests.games.helpers import next_human_move, seat_users
from tests.lock_waits import waiting_for_a_lock


@pytest.mark.django_db(transaction=True)
def test_the_same_move_twice_behind_a_held_lock_moves_once_and_replays_once(started):
    """Both submissions (same key) queue behind a lock held elsewhere; the first moves, the
    second — which waited — must see that move's event and answer as a replay, not as stale
    and not as a second move."""
    game = started("cockroach-poker-royal")
    seat, action = next_human_move(game, random.Random(5))
    user = seat_users(game)[seat]
    version = game.version_for(seat)
    moves_before = Event.objects.filter(game=game, reason="move").count()
    held, release = threading.Event(), threading.Event()
    outcomes: list[str] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                Game.objects.select_for_update(no_key=True).get(pk=game.pk)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    def submit() -> None:
        try:
            result = services.act(user, game.pk, version, action, "same-key")
            outcomes.append("replayed" if result.replayed else "moved")
        except StaleVersion:
            outcomes.append("stale")
        finally:
            connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)
    submitters = [threading.Thread(target=submit) for _ in range(2)]
    for thread in submitters:
        thread.start()
    deadline = time.monotonic() + 10
    while waiting_for_a_lock() < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert waiting_for_a_lock() == 2  # both submissions are queued behind the lock
    release.set()
    for thread in [holder, *submitters]:
        thread.join(10)

    assert sorted(outcomes) == ["moved", "replayed"]
    assert Event.objects.filter(game=game, reason="move").count() == moves_before + 1
