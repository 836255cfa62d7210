"""What PostgreSQL spends on a move's locked read and update of a game's state, by how the
state column is compressed: pglz (PostgreSQL's default), lz4 (migration 0016) or none (the
row kept inline with ``toast_tuple_target``).

Plays a three-seat Cockroach Poker Royal state 25 random moves in (~3.9 KB as jsonb), puts it
in 100 rows of three scratch tables in the bench database, then runs, round after round, N
transactions per table of ``SELECT state … FOR NO KEY UPDATE`` and ``UPDATE … SET state``
with a prepared statement on one connection, and reads that backend's CPU from /proc. Prints
one JSON line per round and table: stored size, CPU per transaction. Figures only; see
bench/README.md.

    .venv/bin/python bench/state_storage.py --rounds 3 --transactions 5000
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import psycopg
from psycopg.types.json import Jsonb

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from games.engines.registry import ENGINES

TABLES = {
    "pglz": "state jsonb COMPRESSION pglz",
    "lz4": "state jsonb COMPRESSION lz4",
    "inline": "state jsonb) WITH (toast_tuple_target = 8160",
}
ROWS = 100


def mid_game_state(moves: int = 25, seed: int = 7) -> dict:
    engine = ENGINES["cockroach-poker-royal"]
    state = engine.setup(3, {}, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = engine.waiting_for(state).seats[0]
        state, _events = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))
    return state


def backend_cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url", default="postgresql://postgres@127.0.0.1:5432/fibbers_bench"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--transactions", type=int, default=5000)
    args = parser.parse_args()
    state = mid_game_state()
    rng = random.Random(1)
    with psycopg.connect(args.database_url, autocommit=True) as conn:
        pid = conn.execute("SELECT pg_backend_pid()").fetchone()[0]
        for name, column in TABLES.items():
            conn.execute(f"DROP TABLE IF EXISTS bench_state_{name}")
            conn.execute(
                f"CREATE TABLE bench_state_{name} (id int PRIMARY KEY, version int, {column})"
            )
            conn.execute(
                f"INSERT INTO bench_state_{name} SELECT g, 0, %s FROM generate_series(1, {ROWS}) g",
                [Jsonb(state)],
            )
        try:
            for round_ in range(1, args.rounds + 1):
                for name in TABLES:
                    table = f"bench_state_{name}"
                    started, wall = backend_cpu_seconds(pid), time.perf_counter()
                    for _ in range(args.transactions):
                        row = rng.randint(1, ROWS)
                        with conn.transaction():
                            conn.execute(
                                f"SELECT state FROM {table} WHERE id = %s FOR NO KEY UPDATE",
                                [row],
                                prepare=True,
                            ).fetchone()
                            conn.execute(
                                f"UPDATE {table} SET version = version + 1, state = %s WHERE id = %s",
                                [Jsonb(state), row],
                                prepare=True,
                            )
                    cpu = backend_cpu_seconds(pid) - started
                    wall = time.perf_counter() - wall
                    stored, method = conn.execute(
                        f"SELECT pg_column_size(state), pg_column_compression(state) FROM {table} LIMIT 1"
                    ).fetchone()
                    line = {
                        "round": round_,
                        "storage": name,
                        "stored_bytes": stored,
                        "compression": method,
                        "postgres_cpu_us_per_transaction": round(cpu / args.transactions * 1e6, 1),
                        "wall_us_per_transaction": round(wall / args.transactions * 1e6, 1),
                    }
                    print(json.dumps(line), flush=True)
        finally:
            for name in TABLES:
                conn.execute(f"DROP TABLE IF EXISTS bench_state_{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
