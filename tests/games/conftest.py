from __future__ import annotations

import pytest

from accounts.services import friendship_create
from games import services
from tests.games.worker import Worker, flush_broker
from tests.push_endpoint import PushEndpoint


@pytest.fixture
def trio(alice, bob, carol):
    friendship_create(alice, bob)
    friendship_create(alice, carol)
    friendship_create(bob, carol)
    return alice, bob, carol


@pytest.fixture
def started(trio):
    """A started 3-seat table of any engine, alice/bob/carol in seats 0/1/2."""

    def start(engine: str = "cockroach-poker-royal", **options):
        alice, bob, carol = trio
        game = services.game_create(
            alice, engine=engine, seats=3, invite=["bob", "carol"], **options
        )
        services.game_join(bob, game.pk)
        services.game_join(carol, game.pk)
        services.game_start(alice, game.pk)
        game.refresh_from_db()
        return game

    return start


@pytest.fixture
def worker(tmp_path):
    """A real Celery worker with beat (sweeping every second) on the test Redis and database."""
    flush_broker()
    proc = Worker(tmp_path)
    proc.start()
    yield proc
    proc.stop()


@pytest.fixture
def endpoint():
    """A real push endpoint on 127.0.0.1 recording what the worker delivers."""
    server = PushEndpoint().start()
    yield server
    server.stop()
