"""150 parallel requests from one signed-in client against a real Daphne with the psycopg pool
(the production shape): throttled answers (429) and busy answers (503) are fine, 500s are not."""

from __future__ import annotations

import http.client
import json
import os
import threading
from collections import Counter
from urllib.parse import urlsplit

import pytest
from django.test import Client

from accounts.services import api_token_create
from tests.live_server import daphne, server_env

PARALLEL = int(os.environ.get("FLOOD_PARALLEL", "150"))
ROUNDS = int(os.environ.get("FLOOD_ROUNDS", "3"))  # each thread's requests, one after another

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def flood_env() -> dict[str, str]:
    return server_env(
        DB_POOL="true",  # production: psycopg's pool, whose timeout used to become a 500
        # A small pool with a short wait: the flood must meet an exhausted pool on any machine.
        DB_POOL_MAX_SIZE=os.environ.get("FLOOD_POOL_SIZE", "4"),
        DB_POOL_TIMEOUT=os.environ.get("FLOOD_POOL_TIMEOUT", "0.5"),
        LOG_LEVEL="ERROR",
    )


def flood(
    port: int, requests: list[tuple[str, str, dict | None]], token: str, cookie: str, rounds: int
) -> Counter:
    statuses: Counter = Counter()
    lock = threading.Lock()
    barrier = threading.Barrier(len(requests))

    def one(method: str, path: str, body: dict | None) -> None:
        headers = {"Content-Type": "application/json"}
        if path.startswith("/api/"):
            headers["Authorization"] = f"Bearer {token}"
        else:
            headers["Cookie"] = cookie
        payload = json.dumps(body).encode() if body is not None else None
        barrier.wait()
        for _ in range(rounds):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=90)
            try:
                conn.request(method, path, body=payload, headers=headers)
                response = conn.getresponse()
                response.read()
                status = response.status
                if status in (429, 503):
                    assert response.getheader("Retry-After"), f"{status} without Retry-After"
            except (OSError, http.client.HTTPException):
                status = 0
            finally:
                conn.close()
            with lock:
                statuses[status] += 1

    threads = [threading.Thread(target=one, args=request) for request in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    return statuses


def test_150_parallel_requests_from_one_player_give_no_server_error(started, tmp_path):
    game = started("cockroach-poker-royal")
    alice = game.seats.get(index=0).user
    _, token = api_token_create(alice, "flood")
    browser = Client()
    browser.force_login(alice)
    cookie = f"sessionid={browser.cookies['sessionid'].value}"
    requests: list[tuple[str, str, dict | None]] = []
    for i in range(PARALLEL):
        if i % 4 == 3:
            requests.append(("GET", f"/games/{game.pk}/", None))  # the table page, by session
        elif i % 3 == 0:
            # A stale move: a write path that takes the game's row lock.
            body = {"version": game.version - 1, "action": {"type": "x"}, "key": f"k{i}"}
            requests.append(("POST", f"/api/games/{game.pk}/actions", body))
        elif i % 3 == 1:
            requests.append(("GET", f"/api/games/{game.pk}", None))
        else:
            requests.append(("GET", f"/api/games/{game.pk}/events", None))
    with daphne(flood_env(), tmp_path / "daphne.log") as base:
        statuses = flood(urlsplit(base).port, requests, token, cookie, ROUNDS)
        # and the server is still there for the next request, with the flood over
        after = http.client.HTTPConnection("127.0.0.1", urlsplit(base).port, timeout=30)
        after.request("GET", f"/api/games/{game.pk}", headers={"Authorization": f"Bearer {token}"})
        assert after.getresponse().status == 200
        after.close()
    print(f"\nflood of {PARALLEL} x {ROUNDS}: {dict(sorted(statuses.items()))}")
    assert sum(statuses.values()) == PARALLEL * ROUNDS
    # Status 0 (a refused or reset connection: the server's listen backlog) is reported above
    # but is no answer of the application's; what the application answers must not be a 500.
    assert not [s for s in statuses if s >= 500 and s != 503], dict(statuses)
    # A server that died under the flood would leave only 0s: the application answered nearly
    # all (1 of 450 was a 0 in the runs seen here).
    assert statuses[0] <= PARALLEL * ROUNDS // 10, dict(statuses)
