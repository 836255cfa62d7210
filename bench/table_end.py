"""What a table's end costs its last move: ``records.record_finished`` (each player's record and
rating, from the log), timed on its own thread's CPU, and its statements counted.

Plays ``--tables`` three-seat Cockroach Poker Royal tables of the same three players to the
end through ``services.act`` (random legal moves, in the bench database), so the first table
makes the records and the others update them. Prints one JSON line: thread CPU and
statements of each table's ``record_finished``, p50 and p95. Figures only; see
bench/README.md.

    .venv/bin/python bench/table_end.py --tables 10
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_moves import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    ENGINE,
    SEATS,
    delete_players,
    mover,
    new_friends,
    p50_p95,
    setup_django,
    started_table,
)

MAX_MOVES = 5000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    args = parser.parse_args(argv)
    setup_django(args)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import services
    from games.services import records

    measured = records.record_finished
    cpus: list[float] = []
    statements: list[int] = []

    def timed(game, seats) -> None:
        with CaptureQueriesContext(connection) as queries:
            started = time.thread_time()
            measured(game, seats)
            cpus.append(time.thread_time() - started)
        statements.append(len(queries))

    records.record_finished = timed
    users = new_friends("end", SEATS)
    rng = random.Random(args.seed)
    try:
        for _ in range(args.tables):
            game_id = started_table(users, ENGINE)
            for _move in range(MAX_MOVES):
                found = mover(game_id, users)
                if found is None:
                    break
                user, payload = found
                action = rng.choice(payload["legal_actions"])
                services.act(user, game_id, payload["version"], action, uuid.uuid4().hex)
    finally:
        records.record_finished = measured
        delete_players([u.pk for u in users])
    line = {
        "tables": len(cpus),
        "thread_cpu_ms": [round(c * 1000, 2) for c in cpus],
        "statements": statements,
        **p50_p95(thread_cpu=cpus),
    }
    print(json.dumps(line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
