"""What the API's move and read cost in the process that serves them: ``POST
/api/games/{id}/actions`` and ``GET /api/games/{id}`` through Django's test client, so every
middleware, the token, ninja and the JSON answer are in (no HTTP server, no network).

Plays three-seat Cockroach Poker Royal tables (all seats human) in the bench database with
random legal moves, reading the game as each seat in turn until one may move, as the
``api_moves`` clients do. Prints one JSON line: CPU per POST of the request's own thread
(``time.thread_time``) and of the whole process (``time.process_time``, taken 10 ms after the
answer: work the request left to other threads), CPU per GET, and CPU per POST of the bench's
floor endpoint (games/bench.py: lock, update, insert), one after each move, p50 and p95; then
``post_over_floor``, the move POST's process CPU p50 over the floor's. Figures only; see
bench/README.md.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_moves import (
    ENGINE,
    SEATS,
    UNTHROTTLED,
    cpu_seconds,
    delete_players,
    ensure_database,
    floor_game,
    in_process_arguments,
    new_friends,
    p50_p95,
    setup_django,
    started_table,
)

SETTLE_SECONDS = 0.01


def main(argv: list[str] | None = None) -> int:
    args = in_process_arguments(__doc__, argv)
    os.environ.update(UNTHROTTLED, BENCH_ENDPOINTS="true")
    ensure_database(args.database_url)
    setup_django(args)
    from django.test import Client

    from accounts.services import api_token_create
    from games.models import Game

    users = new_friends("cpu", SEATS)
    tokens = {user.pk: api_token_create(user, "bench")[1] for user in users}
    client = Client(REMOTE_ADDR="127.0.0.1", HTTP_HOST="127.0.0.1")

    def call(user: Any, path: str, body: dict | None = None) -> dict:
        auth = {"HTTP_AUTHORIZATION": f"Bearer {tokens[user.pk]}"}
        if body is None:
            response = client.get(path, **auth)
        else:
            response = client.post(path, json.dumps(body), "application/json", **auth)
        if response.status_code != 200:
            raise RuntimeError(f"{path}: HTTP {response.status_code} {response.content[:200]!r}")
        return json.loads(response.content)

    rng = random.Random(args.seed)
    game_id = started_table(users, ENGINE)
    floor_path = f"/bench/floor/{floor_game(ENGINE, users[0])}/"
    post_thread: list[float] = []
    post_process: list[float] = []
    get_thread: list[float] = []
    floor_process: list[float] = []
    server_side = {"post": [0.0, 0.0], "floor": [0.0, 0.0]}  # PostgreSQL, Redis seconds

    def servers() -> tuple[float, float]:
        used = cpu_seconds(None)
        return used["postgres"], used["redis"]

    def count(series: str, before: tuple[float, float], measured: bool) -> None:
        if measured:
            after = servers()
            for i in (0, 1):
                server_side[series][i] += after[i] - before[i]

    try:
        while len(post_thread) < args.warmup + args.moves:
            body: dict = {}
            for user in users:
                began = time.thread_time()
                body = call(user, f"/api/games/{game_id}")
                get_thread.append(time.thread_time() - began)
                if body["status"] != Game.Status.ACTIVE or body["legal_actions"]:
                    break
            if body["status"] != Game.Status.ACTIVE or not body["legal_actions"]:
                game_id = started_table(users, ENGINE)
                continue
            move = {
                "version": body["version"],
                "action": rng.choice(body["legal_actions"]),
                "key": uuid.uuid4().hex,
            }
            measured = len(post_thread) >= args.warmup
            before = servers()
            thread, process = time.thread_time(), time.process_time()
            call(user, f"/api/games/{game_id}/actions", move)
            post_thread.append(time.thread_time() - thread)
            time.sleep(SETTLE_SECONDS)
            post_process.append(time.process_time() - process)
            count("post", before, measured)
            before = servers()
            process = time.process_time()
            response = client.post(floor_path)
            if response.status_code != 200:
                raise RuntimeError(f"floor: HTTP {response.status_code}")
            time.sleep(SETTLE_SECONDS)
            floor_process.append(time.process_time() - process)
            count("floor", before, measured)
    finally:
        delete_players([u.pk for u in users])
    post_thread, post_process = post_thread[args.warmup :], post_process[args.warmup :]
    get_thread, floor_process = get_thread[args.warmup :], floor_process[args.warmup :]
    series = p50_p95(
        post_cpu=post_thread,
        post_process_cpu=post_process,
        get_cpu=get_thread,
        floor_process_cpu=floor_process,
    )
    ratio = series["post_process_cpu_p50_ms"] / series["floor_process_cpu_p50_ms"]
    measured = len(post_thread)
    # mean CPU of every PostgreSQL process and of Redis per request (/proc's ticks are too
    # coarse for one request's percentiles); the total adds the process CPU's mean
    servers_ms = {
        f"{series}_{name}_cpu_mean_ms": round(used[i] * 1000 / measured, 2)
        for series, used in server_side.items()
        for i, name in enumerate(("postgres", "redis"))
    }
    totals = {
        series: sum(server_side[series]) + sum(values)
        for series, values in (("post", post_process), ("floor", floor_process))
    }
    print(
        json.dumps(
            {
                "moves": measured,
                **series,
                **servers_ms,
                "post_over_floor": round(ratio, 2),
                "post_over_floor_with_servers": round(totals["post"] / totals["floor"], 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
