"""The database pool under a real server: connections the database closed (a restart, a
failover, pg_terminate_backend) are replaced at checkout, not handed to the next requests
(the outage review measured 5–7 of 40 answered 503 after the backends were killed)."""

from __future__ import annotations

import http.client
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.db import connection

from accounts.services import api_token_create
from tests.live_server import daphne, server_env

pytestmark = pytest.mark.django_db(transaction=True)


def _statuses(base: str, token: str, count: int) -> list[int]:
    """``count`` GETs of the player's games, one connection each (each request may draw
    another pooled database connection)."""
    url = urlsplit(base)
    statuses = []
    for _ in range(count):
        conn = http.client.HTTPConnection(url.hostname, url.port, timeout=20)
        conn.request("GET", "/api/games", headers={"Authorization": f"Bearer {token}"})
        response = conn.getresponse()
        response.read()
        statuses.append(response.status)
        conn.close()
    return statuses


def _kill_the_servers_connections() -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def test_every_request_is_answered_after_the_database_closed_the_pools_connections(
    alice, tmp_path: Path
):
    _row, token = api_token_create(alice, "pool")
    env = server_env(DB_POOL="true", DB_POOL_CHECK="true", SOCKET_IDLE_SECONDS="0")
    with daphne(env, tmp_path / "daphne.log") as base:
        assert _statuses(base, token, 10) == [200] * 10  # the pool holds connections now
        assert _kill_the_servers_connections() >= 1
        assert _statuses(base, token, 40) == [200] * 40
