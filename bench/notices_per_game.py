"""Turn and window notices per player per game, over whole games played through the services.

Each table has three seats: two humans and one bot. The deck of game k is the same in every
run (the platform's seed is drawn from a seeded generator here) and the humans' moves are
chosen by the engine's bot with a seeded generator, so runs of two code versions play the same
deals. (Bots answering windows keep their own unseeded timing, as on the site.) Humans answer
at once: no deadline fires. Prints one JSON line per engine: games, finished, moves by humans,
notices per player per game (turn and window separately), and the most one player got in one
game.

    .venv/bin/python bench/notices_per_game.py --games 30
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter

from fresh_db import setup_django  # bench/ is the script's folder

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fibbers_bench_notices"
)


def play(engine: str, k: int, deck_seeds: random.Random) -> dict:
    import secrets

    from accounts.models import Notification, User
    from accounts.services import friendship_create
    from games import services
    from games.engines import registry
    from games.models import Game, Seat

    a = User.objects.create_user(f"{engine}-{k}-a", f"{engine}-{k}-a@example.com", "x" * 12)
    b = User.objects.create_user(f"{engine}-{k}-b", f"{engine}-{k}-b@example.com", "x" * 12)
    friendship_create(a, b)
    game = services.game_create(a, engine=engine, seats=3, bots=1, invite=[b.username])
    services.game_join(b, game.pk)
    seed = deck_seeds.getrandbits(62)
    original = secrets.randbits
    secrets.randbits = lambda bits: seed  # the same deal in every run
    try:
        services.game_start(a, game.pk)
    finally:
        secrets.randbits = original
    humans = {s.index: s.user for s in Seat.objects.filter(game=game, is_bot=False)}
    moves_rng = random.Random(k)
    moves = 0
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        rules = registry.get(game.engine)
        waiting = rules.waiting_for(game.state)
        owed = [s for s in waiting.seats if s in humans and rules.legal_actions(game.state, s)]
        if not owed:
            break
        seat = moves_rng.choice(owed)
        action = rules.bot_action(game.state, seat, moves_rng)
        version = game.version_for(seat) if hasattr(game, "version_for") else game.version
        services.act(humans[seat], game.pk, version, action)
        moves += 1
    notes = Notification.objects.filter(game_id=game.pk, user__in=list(humans.values()))
    per_player = Counter(notes.values_list("user", "kind"))
    return {
        "finished": game.status == Game.Status.FINISHED,
        "moves": moves,
        "turn": sum(n for (_u, kind), n in per_player.items() if kind == "turn"),
        "window": sum(n for (_u, kind), n in per_player.items() if kind == "window"),
        "max_player": max(Counter(notes.values_list("user", flat=True)).values(), default=0),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    args = parser.parse_args()
    setup_django(DATABASE_URL)
    from games.engines import registry

    for engine in sorted(registry.ENGINES):
        deck_seeds = random.Random(f"decks-{engine}")
        runs = [play(engine, k, deck_seeds) for k in range(args.games)]
        players = 2 * len(runs)
        print(
            json.dumps(
                {
                    "engine": engine,
                    "games": len(runs),
                    "finished": sum(r["finished"] for r in runs),
                    "human_moves": sum(r["moves"] for r in runs),
                    "turn_notices_per_player_game": round(
                        sum(r["turn"] for r in runs) / players, 2
                    ),
                    "window_notices_per_player_game": round(
                        sum(r["window"] for r in runs) / players, 2
                    ),
                    "max_one_player_one_game": max(r["max_player"] for r in runs),
                }
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
