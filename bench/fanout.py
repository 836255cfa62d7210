"""Fan-out: from a move's commit to every socket of its table holding its new view, next to a
bare Channels ping fan-out, in one run, with every socket held concurrently.

Creates N six-seat Cockroach Poker Royal tables (all seats human) in a dedicated PostgreSQL
database, starts Daphne (one process, Redis channel layer, BENCH_ENDPOINTS=1 for the bare echo
route), opens 6 table sockets per table and 6 echo sockets per table (all held for the whole
run), then:

* moves: one move at a time, round robin over the tables, made through ``services.act`` in a
  process of its own (as the server's would be); the clock starts when the move's after-commit ping is sent (the commit is
  done) and stops when a socket receives its ``state`` frame at the seat's new revision.
* bare: one ``group_send`` at a time to a table's echo group; the clock starts before the
  send and stops when a socket receives the echo.

Prints one JSON line per phase (p50/p95 per socket, and p50/p95 of the last socket of each
move: the time until the whole table holds it) and a last line with the ratios. Figures only:
nothing here asserts a timing. See bench/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_moves import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    befriend,
    ensure_database,
    redis_reachable,
    setup_django,
    started_table,
)

ROOT = Path(__file__).resolve().parents[1]
SEATS = 6


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=8, help="tables (6 sockets each)")
    parser.add_argument("--moves", type=int, default=120, help="measured moves (and pings)")
    parser.add_argument("--warmup", type=int, default=10, help="unmeasured moves/pings first")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    parser.add_argument(
        "--churn",
        type=int,
        default=0,
        help="during the moves phase, this many loops each open a further table socket (a "
        "second tab of a random seat), hold it 0-200 ms and close it, again and again: do the "
        "held sockets still get every ping while others close beside them?",
    )
    parser.add_argument("--keep", action="store_true")
    return parser.parse_args(argv)


def make_tables(tag: str, games: int) -> tuple[list[int], list[dict[str, Any]]]:
    from django.test import Client

    from accounts.models import User

    user_ids, tables = [], []
    for g in range(games):
        players = [
            User.objects.create_user(
                username=f"fan{tag}g{g}s{s}", email=f"fan{tag}g{g}s{s}@b.invalid"
            )
            for s in range(SEATS)
        ]
        user_ids += [u.pk for u in players]
        befriend(players)
        game_id = started_table(players, "cockroach-poker-royal")
        cookies = []
        for user in players:
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies["sessionid"].value)
        tables.append({"id": game_id, "users": players, "cookies": cookies})
    return user_ids, tables


# --- The committer: its own process, as the server that commits a move would be -----------
#
# Run in the bench's own process, a move's after-commit work (its notices, the tasks it queues)
# held the interpreter while the frames it caused were arriving, and delayed their reading.

_committer: dict[str, Any] = {}


def committer_setup(args: argparse.Namespace) -> None:
    import random

    setup_django(args)
    from games.services import change as change_module

    real_notify = change_module.broadcast.notify_game_changed

    def timed_notify(*a: Any, **k: Any) -> None:
        # the commit is done: the ping goes out now (perf_counter is the system's monotonic
        # clock, the same in every process of this machine)
        _committer["sent"].append(time.perf_counter())
        real_notify(*a, **k)

    change_module.broadcast.notify_game_changed = timed_notify  # type: ignore[attr-defined]
    _committer.update(rng=random.Random(7), sent=[])


def play_one(game_id: int, user_ids: list[int]) -> tuple[dict[int, int], list[float]]:
    """One move at this table; returns ({seat: the revision it must reach}, ping times)."""
    from accounts.models import User
    from games import services
    from games.engines import registry
    from games.models import Game

    _committer["sent"] = []
    game = Game.objects.get(pk=game_id)
    if game.status != Game.Status.ACTIVE:
        return {}, []
    engine = registry.get(game.engine, game.rules_version)
    before = {s: game.revision_for(s) for s in range(SEATS)}
    seat = next(s for s in engine.waiting_for(game.state).seats)
    action = _committer["rng"].choice(engine.legal_actions(game.state, seat))
    user = User.objects.get(pk=user_ids[seat])
    game = services.act(user, game.pk, game.version_for(seat), action).game
    after = {s: game.revision_for(s) for s in range(SEATS) if game.revision_for(s) > before[s]}
    return after, _committer["sent"]


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, max(0, int(q * len(ordered) + 0.5) - 1))], 2)


def line(phase: str, per_socket: list[float], per_move: list[float], lost: int) -> dict:
    return {
        "phase": phase,
        "moves": len(per_move),
        "frames": len(per_socket),
        "p50_ms": pct(per_socket, 0.5),
        "p95_ms": pct(per_socket, 0.95),
        "all_sockets_p50_ms": pct(per_move, 0.5),
        "all_sockets_p95_ms": pct(per_move, 0.95),
        "lost": lost,
        "load_1m": round(os.getloadavg()[0], 2),
    }


async def run(args: argparse.Namespace, base: str, tables: list[dict[str, Any]]) -> list[dict]:
    import websockets
    from channels.layers import get_channel_layer

    host = base.replace("http://", "ws://")
    origin = base
    loop = asyncio.get_running_loop()
    arrivals: dict[tuple[str, int, int], float] = {}  # (kind, table index, seat) -> time
    latest: dict[tuple[str, int, int], int] = {}
    changed = asyncio.Condition()

    async def reader(kind: str, t: int, seat: int, ws: Any) -> None:
        async for raw in ws:
            now = time.perf_counter()
            data = json.loads(raw)
            if kind == "table" and data.get("type") != "state":
                continue
            async with changed:
                latest[(kind, t, seat)] = data["revision"] if kind == "table" else data["n"]
                arrivals[(kind, t, seat)] = now
                changed.notify_all()

    sockets, tasks = [], []
    for t, table in enumerate(tables):
        for seat in range(SEATS):
            headers = {"Cookie": f"sessionid={table['cookies'][seat]}", "Origin": origin}
            ws = await websockets.connect(
                f"{host}/ws/games/{table['id']}/", additional_headers=headers, max_queue=None
            )
            echo = await websockets.connect(
                f"{host}/ws/bench/t{t}/", additional_headers={"Origin": origin}, max_queue=None
            )
            sockets += [ws, echo]
            tasks.append(asyncio.ensure_future(reader("table", t, seat, ws)))
            tasks.append(asyncio.ensure_future(reader("echo", t, seat, echo)))
    await asyncio.sleep(1.0)  # every socket joined and got its first view

    committer = ProcessPoolExecutor(
        1, mp_context=get_context("spawn"), initializer=committer_setup, initargs=(args,)
    )
    results = []

    async def wait_for(kind: str, t: int, expected: dict[int, int]) -> list[float] | None:
        def done() -> bool:
            return all(latest.get((kind, t, s), -1) >= r for s, r in expected.items())

        async with changed:
            try:
                await asyncio.wait_for(changed.wait_for(done), 5)
            except TimeoutError:
                return None
        return [arrivals[(kind, t, s)] for s in expected]

    churned = [0]
    churn_rng = random.Random(11)

    async def churn() -> None:
        # a further tab of a random seat comes and goes; its frames are not counted
        while True:
            table = churn_rng.choice(tables)
            seat = churn_rng.randrange(SEATS)
            headers = {"Cookie": f"sessionid={table['cookies'][seat]}", "Origin": origin}
            async with websockets.connect(
                f"{host}/ws/games/{table['id']}/", additional_headers=headers, max_queue=None
            ) as tab:
                await tab.recv()
                await asyncio.sleep(churn_rng.uniform(0, 0.2))
            churned[0] += 1

    churners = [asyncio.ensure_future(churn()) for _ in range(args.churn)]
    per_socket, per_move, lost = [], [], 0
    for i in range(args.warmup + args.moves):
        t = i % len(tables)
        ids = [u.pk for u in tables[t]["users"]]
        expected, sent = await loop.run_in_executor(committer, play_one, tables[t]["id"], ids)
        if not expected:
            continue
        times = await wait_for("table", t, expected)
        if i < args.warmup:
            continue
        if times is None:
            lost += 1
            continue
        start = sent[0]
        per_socket += [(x - start) * 1000 for x in times]
        per_move.append((max(times) - start) * 1000)
    committer.shutdown()
    for task in churners:
        if task.done() and task.exception() is not None:
            # a churn loop that died would leave the run looking calm: say so
            raise RuntimeError("a churn loop stopped early") from task.exception()
        task.cancel()
    results.append({**line("moves", per_socket, per_move, lost), "churned_sockets": churned[0]})

    layer = get_channel_layer()
    per_socket, per_move, lost = [], [], 0
    for i in range(args.warmup + args.moves):
        t = i % len(tables)
        start = time.perf_counter()
        await layer.group_send(f"bench-t{t}", {"type": "bench.ping", "n": i})
        times = await wait_for("echo", t, dict.fromkeys(range(SEATS), i))
        if i < args.warmup:
            continue
        if times is None:
            lost += 1
            continue
        per_socket += [(x - start) * 1000 for x in times]
        per_move.append((max(times) - start) * 1000)
    results.append(line("bare", per_socket, per_move, lost))

    for task in tasks:
        task.cancel()
    for ws in sockets:
        await ws.close()
    return results


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not redis_reachable(args.redis_url):
        raise SystemExit("Redis is needed: the fan-out goes through the Redis channel layer")
    ensure_database(args.database_url)
    args.seconds, args.games_arg = 0, args.games
    setup_django(args)
    from tests.live_server import daphne  # the repository root is on the path now

    tag = str(int(time.time()))
    user_ids, tables = make_tables(tag, args.games)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "BENCH_ENDPOINTS": "1",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("DB_POOL", None)  # the pool on, as in production
    log_path = Path(tempfile.mkdtemp()) / "daphne.log"
    try:
        with daphne(env, log_path, verbosity=0) as base:
            results = asyncio.run(run(args, base, tables))
    except RuntimeError as exc:  # the server did not come up
        raise SystemExit(str(exc)) from None
    finally:
        if not args.keep:
            from accounts.models import User
            from games.models import Game

            Game.objects.filter(seats__user_id__in=user_ids).delete()
            User.objects.filter(pk__in=user_ids).delete()
    sockets = {"tables": args.games, "sockets_held": args.games * SEATS * 2}
    for result in results:
        print(json.dumps({**result, **sockets}))
    moves, bare = results
    ratio = {
        k: round(moves[k] / bare[k], 2) if moves[k] and bare[k] else None
        for k in ("p50_ms", "p95_ms", "all_sockets_p95_ms")
    }
    print(json.dumps({"ratio_moves_to_bare": ratio}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
