"""A table's read: the game, its seats and their players, as ``games/table_read.py`` makes it,
next to the ORM's ``select_related`` and ``prefetch_related`` reads of the same rows.

Uses the newest active game of the bench database (``bench/fanout.py --keep`` or
``bench/api_moves.py`` leave some); prints one JSON line of ms per read. Figures only.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from api_moves import DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, setup_django


def per_read_ms(read, reads: int) -> float:
    read()  # warm
    start = time.perf_counter()
    for _ in range(reads):
        read()
    return round((time.perf_counter() - start) / reads * 1000, 3)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reads", type=int, default=500)
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default=DEFAULT_REDIS_URL)
    args = parser.parse_args(argv)
    setup_django(args)
    from games import selectors
    from games.models import Game, Seat

    game = Game.objects.filter(status=Game.Status.ACTIVE).order_by("-pk").first()
    if game is None:
        raise SystemExit("no active game: run bench/fanout.py --keep first")

    def joined() -> None:
        list(Seat.objects.filter(game_id=game.pk).select_related("game", "user"))

    def prefetched() -> None:
        first = Game.objects.filter(pk=game.pk).prefetch_related("seats__user").first()
        assert first is not None
        list(first.seats.all())

    figures = {
        "game": game.pk,
        "seats": game.seats.count(),
        "table_read_ms": per_read_ms(lambda: selectors.game_with_seats(game.pk), args.reads),
        "orm_select_related_ms": per_read_ms(joined, args.reads),
        "orm_prefetch_related_ms": per_read_ms(prefetched, args.reads),
    }
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
