"""Tables for bench/phone_pages.py: alice (the demo player) at ~30 tables of every game with
bob and carol, played some moves in (mid-game), one long game and one finished (the replay).

    DATABASE_URL=postgres://... REDIS_URL=redis://.../N PYTHONPATH=$PWD \
        .venv/bin/python manage.py seed_demo
    ... .venv/bin/python bench/phone_seed.py --tables 30 --long-moves 150

Prints one JSON line: the ids of the tables the measurement opens. Local settings (demo data).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")


def step(game, users, rng) -> bool:  # type: ignore[no-untyped-def]
    """One human move (the engine's bot choosing) or the bots' moment; False when over."""
    from games import services
    from games.engines import registry
    from games.models import Game
    from games.services.change import GameChange

    game.refresh_from_db()
    if game.status != Game.Status.ACTIVE:
        return False
    engine = registry.get(game.engine)
    waiting = engine.waiting_for(game.state)
    owed = [s for s in waiting.seats if s in users and engine.legal_actions(game.state, s)]
    if owed:
        seat = rng.choice(owed)
        action = engine.bot_action(game.state, seat, rng)
        services.act(users[seat], game.pk, game.version_for(seat), action)
    else:
        with GameChange(game.pk) as change:
            change.take_bot_moment(rng)
    return True


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--moves", type=int, default=12)
    parser.add_argument("--long-moves", type=int, default=150)
    parser.add_argument("--tries", type=int, default=4)
    args = parser.parse_args()
    import django

    django.setup()
    from accounts.models import User
    from games import services
    from games.engines import registry
    from games.models import Game, Pace, Seat

    alice, bob, carol = (User.objects.get(username=n) for n in ("alice", "bob", "carol"))
    rng = random.Random(7)
    slugs = sorted(registry.ENGINES)
    mid: dict[str, int] = {}
    made: list[Game] = []
    for k in range(args.tables):
        slug = slugs[k % len(slugs)]
        game = services.game_create(
            alice, engine=slug, seats=3, invite=["bob", "carol"], pace=Pace.DAILY
        )
        services.game_join(bob, game.pk)
        services.game_join(carol, game.pk)
        services.game_start(alice, game.pk)
        made.append(game)
    for game in made:
        users = {
            s.index: s.user
            for s in Seat.objects.filter(game=game, is_bot=False).select_related("user")
        }
        for _ in range(args.moves):
            if not step(game, users, rng):
                break
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            mid.setdefault(game.engine, game.pk)
    # a long game of every engine: played long_moves steps, still on (a few tries)
    long_ids: dict[str, int] = {}
    finished = None
    for slug in [s for s in slugs for _try in range(args.tries)]:
        if slug in long_ids:
            continue
        game = services.game_create(
            alice, engine=slug, seats=3, invite=["bob", "carol"], pace=Pace.DAILY
        )
        services.game_join(bob, game.pk)
        services.game_join(carol, game.pk)
        services.game_start(alice, game.pk)
        users = {
            s.index: s.user
            for s in Seat.objects.filter(game=game, is_bot=False).select_related("user")
        }
        for _ in range(args.long_moves):
            if not step(game, users, rng):
                break
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            long_ids[slug] = game.pk
        elif finished is None:
            finished = game.pk
    from games.models import Event

    events = {slug: Event.objects.filter(game_id=pk).count() for slug, pk in long_ids.items()}
    print(json.dumps({"mid": mid, "long": long_ids, "long_events": events, "finished": finished}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
