"""Deadline lateness with a real Celery worker + beat on Redis and PostgreSQL.

Creates N games (one human seat, the rest bots) in a dedicated database, gives each a turn
deadline spread over the next --spread seconds, then starts a real worker with beat and
measures, for every deadline, the seconds between its due time and the timeout move it
caused (the Event's created_at). Two modes, run one after the other:

* fast: the fast-path countdown task is scheduled for each deadline (as the services do
  after commit), with the beat sweeper running too;
* sweeper: no task at all (as if every task were lost): only the beat sweeper enforces them.

Prints one JSON line per mode: deadlines, applied, p50/p95/max lateness in seconds.

    .venv/bin/python bench/deadline_lateness.py --games 120 --spread 20 --sweep 2
    .venv/bin/python bench/deadline_lateness.py --games 300 --spread 0   # all due at once
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fibbers_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")


def setup_django() -> None:
    os.environ["DATABASE_URL"] = DATABASE_URL
    os.environ["REDIS_URL"] = REDIS_URL
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    sys.path.insert(0, str(ROOT))
    import psycopg

    base, name = DATABASE_URL.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        if not conn.execute("select 1 from pg_database where datname = %s", (name,)).fetchone():
            conn.execute(f'create database "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def make_games(count: int, tag: str) -> list[int]:
    from accounts.models import User
    from games import services

    ids = []
    for k in range(count):
        user, _ = User.objects.get_or_create(username=f"lateness-{tag}-{k}", defaults={"email": ""})
        game = services.game_create(user, engine="imperador", seats=3, bots=2, pace="fast")
        services.game_start(user, game.pk)
        ids.append(game.pk)
    return ids


def human_turn_games(ids: list[int]) -> list[int]:
    from games.engines import registry
    from games.models import Game, Seat

    keep = []
    for game in Game.objects.filter(pk__in=ids, status="active"):
        waiting = registry.get(game.engine, game.rules_version).waiting_for(game.state)
        human = Seat.objects.filter(game=game, is_bot=False).values_list("index", flat=True)
        if waiting.kind == "turn" and waiting.seats[0] in set(human):
            keep.append(game.pk)
    return keep


def run_mode(mode: str, count: int, spread: float, sweep: float) -> dict:
    import redis
    from django.utils import timezone

    from games.models import Event, Game
    from games.services.change import schedule_deadline

    redis.Redis.from_url(REDIS_URL).flushdb()
    ids: list[int] = []
    batch = 0
    while len(ids) < count and batch < 20:  # only games waiting on the human's turn are timed
        ids += human_turn_games(make_games(count, f"{mode}-{int(time.time())}-{batch}"))
        batch += 1
    ids = ids[:count]
    from tests.live_server import celery_worker_command  # the repository root is on the path now

    log = Path(tempfile.mkdtemp()) / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": DATABASE_URL,
        "REDIS_URL": REDIS_URL,
        "SWEEP_SECONDS": str(sweep),
        "DJANGO_SETTINGS_MODULE": "config.settings.local",
    }
    worker = subprocess.Popen(
        celery_worker_command(log.parent / "beat"),
        cwd=ROOT,
        env=env,
        start_new_session=True,  # the worker and its embedded beat die together below
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )
    # The worker must be up before the first deadline is due, or start-up time counts as lateness.
    ready_by = time.monotonic() + 60
    while " ready." not in log.read_text() and time.monotonic() < ready_by:
        time.sleep(0.2)
    start = timezone.now() + timedelta(seconds=2)
    due = {}
    for k, game_id in enumerate(ids):
        at = start + timedelta(seconds=spread * k / max(1, len(ids)))
        game = Game.objects.get(pk=game_id)
        Game.objects.filter(pk=game_id).update(deadline_at=at)
        due[game_id] = (at, game.version)
        if mode == "fast":
            schedule_deadline(game_id, game.wait_seq, (at - timezone.now()).total_seconds())
    try:
        limit = time.monotonic() + spread + 60
        while time.monotonic() < limit:
            done = (
                Event.objects.filter(game_id__in=ids, reason="timeout")
                .values("game_id")
                .distinct()
                .count()
            )
            if done == len(ids):
                break
            time.sleep(0.5)
    finally:
        worker.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.wait(15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(worker.pid, signal.SIGKILL)
    late = []
    for game_id, (at, version) in due.items():
        event = Event.objects.filter(game_id=game_id, seq=version + 1, reason="timeout").first()
        if event is not None:
            late.append((event.created_at - at).total_seconds())
    return {
        "mode": mode,
        "deadlines": len(ids),
        "applied": len(late),
        "sweep_seconds": sweep,
        "p50_s": round(percentile(late, 0.5), 3),
        "p95_s": round(percentile(late, 0.95), 3),
        "max_s": round(max(late), 3) if late else None,
        "early": sum(1 for x in late if x < 0),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--spread", type=float, default=20.0)
    parser.add_argument("--sweep", type=float, default=2.0, help="beat sweeper period in seconds")
    args = parser.parse_args()
    if not 1 <= args.games <= 1000 or not 0 <= args.spread <= 600:
        parser.error("--games 1..1000, --spread 0 (all due at once) up to 600 s")
    setup_django()
    for mode in ("fast", "sweeper"):
        print(json.dumps(run_mode(mode, args.games, args.spread, args.sweep)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
