"""With Redis down (the cache, the request guard's counters) a player still opens their table
and moves (an outage review): presence writes failed the table page with a 500, and a move
sent from an open page was recorded while the player saw no "Move played." The guard asked
the dead Redis again once per counter after its own try had failed. A Redis that is down:
the settings point at a loopback port where nothing listens."""

from __future__ import annotations

import time

import pytest
from django.test import Client, override_settings

from config import guard
from games.engines import registry
from games.models import Event, Game
from tests.games.helpers import form_fields, seat_users
from tests.live_server import closed_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_down(monkeypatch):
    url = f"redis://127.0.0.1:{closed_port()}/0"
    caches = {"default": {"BACKEND": "config.cache.SharedClientRedisCache", "LOCATION": url}}
    monkeypatch.setattr(guard, "_redis", None)  # the guard's client, made anew for the URL
    with override_settings(REDIS_URL=url, CACHES=caches):
        yield
    monkeypatch.setattr(guard, "_redis", None)


def test_a_player_opens_the_table_and_moves_with_redis_down(started, redis_down):
    game = started("cockroach-poker-royal")
    engine = registry.get(game.engine)
    (seat,) = engine.waiting_for(game.state).seats
    client = Client()
    client.force_login(seat_users(game)[seat])

    started_at = time.monotonic()
    page = client.get(f"/games/{game.pk}/")
    assert page.status_code == 200
    action = engine.legal_actions(game.state, seat)[0]
    moved = client.post(
        f"/games/{game.pk}/act/", form_fields(action, game.version_for(seat), "k1"), follow=True
    )

    assert moved.status_code == 200
    assert "Move played." in moved.content.decode()
    assert Event.objects.filter(game=game, key="k1").count() == 1
    assert Game.objects.get(pk=game.pk).version > game.version
    assert time.monotonic() - started_at < 10, "no wait on the dead Redis per counter"


def test_signing_in_with_redis_down_says_try_again_shortly(alice, redis_down):
    """allauth's sign-in limit needs the cache: a 500 "Something went wrong" before."""
    client = Client(raise_request_exception=False)

    answer = client.post("/accounts/login/", {"login": "alice", "password": "a-long-test-password"})

    assert answer.status_code == 503
    assert answer["Retry-After"]
    assert "Try again in a moment" in answer.content.decode()


def test_redis_down_logs_a_line_a_request_and_its_traceback_once_a_minute(
    started, redis_down, caplog, monkeypatch
):
    """Every request logged three tracebacks during an outage (outage review)."""
    monkeypatch.setattr(guard, "_last_trace", {})
    client = Client()
    client.force_login(seat_users(started("imperador"))[0])

    with caplog.at_level("WARNING", logger="config.guard"):
        for _request in range(3):
            assert client.get("/games/").status_code == 200

    said = [r for r in caplog.records if r.name == "config.guard"]
    assert len(said) == 3, [r.getMessage() for r in said]
    assert [bool(r.exc_info) for r in said] == [True, False, False]
