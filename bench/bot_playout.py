"""How long one transaction holds a game while bots play out a table with no human left.

For each engine at its largest table, N tables of one human and bots are started, the human's
seat is handed to the bot (the moderators' path), and then every due deadline is applied until
the game ends, as the sweeper would. Each of those calls is one transaction; the script times
each and prints, per engine: tables, finished, errors, transactions, moves, and the p50 / max
milliseconds one transaction held the game.

    .venv/bin/python bench/bot_playout.py --tables 10
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from fresh_db import setup_django  # bench/ is the script's folder

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fibbers_bench_playout"
)


def timed(call) -> tuple[float, BaseException | None]:
    start = time.perf_counter()
    try:
        call()
    except Exception as exc:  # measured, not hidden: the figure says how many failed
        return (time.perf_counter() - start) * 1000, exc
    return (time.perf_counter() - start) * 1000, None


def run(slug: str, tables: int) -> dict:
    from accounts.models import User
    from games import services
    from games.engines import registry
    from games.models import Event, Game

    engine = registry.ENGINES[slug]
    staff, _ = User.objects.get_or_create(username="playout-staff", defaults={"email": ""})
    held: list[float] = []
    errors = finished = 0
    for k in range(tables):
        user = User.objects.create_user(f"{slug}-{k}", "", "x" * 12)
        players = engine.max_players
        game = services.game_create(user, engine=slug, seats=players, bots=players - 1)
        services.game_start(user, game.pk)
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            finished += 1  # the bots ended it before the human's first turn
            continue
        ms, error = timed(lambda g=game: services.seat_to_bot(staff, g.pk, 0, "bench"))
        held.append(ms)
        errors += error is not None
        if error is not None:
            print(f"{slug} table {k}: {error!r}", file=sys.stderr)
        for _ in range(200):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE or error is not None:
                break
            ms, error = timed(lambda g=game: services.apply_deadline(g.pk))
            held.append(ms)
            errors += error is not None
        game.refresh_from_db()
        finished += game.status == Game.Status.FINISHED
    ordered = sorted(held)
    return {
        "engine": slug,
        "players": engine.max_players,
        "tables": tables,
        "finished": finished,
        "errors": errors,
        "transactions": len(held),
        "moves": Event.objects.filter(game__engine=slug).count(),
        "p50_ms": round(ordered[len(ordered) // 2], 1),
        "max_ms": round(ordered[-1], 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    args = parser.parse_args()
    setup_django(DATABASE_URL)
    from games.engines import registry

    for slug in sorted(registry.ENGINES):
        print(json.dumps(run(slug, args.tables)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
