"""What one move costs in the process that makes it: ``services.act`` called directly (no HTTP,
no middleware), one thread, against the bench database and Redis, with its after-commit work
(socket pings, push and deadline tasks) included.

Plays three-seat Cockroach Poker Royal tables (all seats human) with random legal moves, as
whichever seat the game waits on; a finished table is replaced. Prints one JSON line: wall and
CPU (``time.process_time``: the whole process, the ping sender's thread included) per move,
p50 and p95. Figures only; see bench/README.md.
"""

from __future__ import annotations

import json
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_moves import (
    ENGINE,
    SEATS,
    delete_players,
    in_process_arguments,
    mover,
    new_friends,
    p50_p95,
    setup_django,
    started_table,
)


def main(argv: list[str] | None = None) -> int:
    args = in_process_arguments(__doc__, argv)
    setup_django(args)
    from games import services

    users = new_friends("cpu", SEATS)
    rng = random.Random(args.seed)
    game_id = started_table(users, ENGINE)
    walls: list[float] = []
    cpus: list[float] = []
    try:
        while len(walls) < args.warmup + args.moves:
            found = mover(game_id, users)
            if found is None:
                # over, or (a live window nobody at this table may answer) stuck: a new table
                game_id = started_table(users, ENGINE)
                continue
            user, payload = found
            action = rng.choice(payload["legal_actions"])
            wall, cpu = time.perf_counter(), time.process_time()
            services.act(user, game_id, payload["version"], action, uuid.uuid4().hex)
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
    finally:
        delete_players([u.pk for u in users])
    walls, cpus = walls[args.warmup :], cpus[args.warmup :]
    print(json.dumps({"moves": len(walls), **p50_p95(wall=walls, cpu=cpus)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
