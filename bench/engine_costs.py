"""What one move costs inside each rules engine: apply, views, legal actions, the bot.

    .venv/bin/python bench/engine_costs.py                 # every engine, every player count
    .venv/bin/python bench/engine_costs.py --game imperador --players 4 --games 40

Plays ``--games`` bot games per engine and player count (seeds from ``--seed``), and at every
position times, in microseconds:

- ``apply``: the engine applying the move that was played;
- ``views``: building the view of every seat and of a spectator;
- ``apply+views``: the two together (what the platform pays per move before any I/O);
- ``legal``: ``legal_actions`` for every seat;
- ``bot``: one ``bot_action`` for the seat that moves.

Prints one JSON line per engine and player count with each figure's median and p95, then a
last line with bot-only games per second. Figures, not assertions: nothing here fails on time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.engines.core import Engine
from games.engines.registry import ENGINES


def _pct(samples: list[int], q: float) -> float:
    ordered = sorted(samples)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] / 1000, 1)


def _summary(samples: list[int]) -> dict[str, float]:
    return {"median_us": round(statistics.median(samples) / 1000, 1), "p95_us": _pct(samples, 0.95)}


def measure(engine: Engine, players: int, games: int, seed: int) -> dict[str, Any]:
    clock = time.perf_counter_ns
    costs: dict[str, list[int]] = {k: [] for k in ("apply", "views", "apply+views", "legal", "bot")}
    moves = 0
    started = time.perf_counter()
    for k in range(games):
        rng = random.Random(seed + k)
        state = engine.setup(players, {}, seed + k)
        while engine.result(state) is None:
            waiting = engine.waiting_for(state)
            if waiting.kind == "window" and rng.random() < 0.05:
                seat, action = None, {"type": "timeout"}
            else:
                seat = rng.choice(list(waiting.seats))
                t0 = clock()
                action = engine.bot_action(state, seat, rng)
                costs["bot"].append(clock() - t0)
            t0 = clock()
            for s in range(players):
                engine.legal_actions(state, s)
            costs["legal"].append(clock() - t0)
            t0 = clock()
            state, _events = engine.apply(state, seat, action)
            t1 = clock()
            for s in [None, *range(players)]:
                engine.view(state, s)
            t2 = clock()
            costs["apply"].append(t1 - t0)
            costs["views"].append(t2 - t1)
            costs["apply+views"].append(t2 - t0)
            moves += 1
    line: dict[str, Any] = {"game": engine.slug, "players": players, "games": games, "moves": moves}
    line.update({name: _summary(samples) for name, samples in costs.items() if samples})
    line["seconds"] = round(time.perf_counter() - started, 2)
    return line


def bot_games_per_second(engine: Engine, players: int, games: int, seed: int) -> float:
    """Bot-only games, nothing else timed in between (what ``simulate`` measures)."""
    started = time.perf_counter()
    for k in range(games):
        rng = random.Random(seed + k)
        state = engine.setup(players, {}, seed + k)
        while engine.result(state) is None:
            waiting = engine.waiting_for(state)
            seat = rng.choice(list(waiting.seats))
            state, _events = engine.apply(state, seat, engine.bot_action(state, seat, rng))
    return round(games / (time.perf_counter() - started), 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", choices=sorted(ENGINES), action="append")
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    speeds: dict[str, float] = {}
    for slug in args.game or sorted(ENGINES):
        engine = ENGINES[slug]
        counts = args.players or range(engine.min_players, engine.max_players + 1)
        for players in counts:
            if engine.min_players <= players <= engine.max_players:
                print(json.dumps(measure(engine, players, args.games, args.seed)), flush=True)
        if engine.min_players <= 4 <= engine.max_players:
            speeds[slug] = bot_games_per_second(engine, 4, 4 * args.games, args.seed)
    print(json.dumps({"bot_only_games_per_second_at_4_players": speeds}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
