"""Plays bot games and prints one JSON line: the engines' smoke test and benchmark.

    python -m games.engines.simulate --game cockroach-poker-royal --players 4 --games 1000 --seed 1

With ``--versus random`` seat 0 is the bot and every other seat plays uniformly random
legal moves; the line then also reports ``bot_win_rate`` (a shared win counts as a win)
and ``fair_share`` (1/players), so the bot's strength is measured, not assumed.
Exits non-zero if any game raises or fails to finish.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import traceback
from typing import Any

from games.engines.core import Engine
from games.engines.registry import ENGINES

MAX_ACTIONS = 100_000


def play_one(
    engine: Engine, players: int, seed: int, versus: str | None
) -> tuple[dict[str, Any], int]:
    """Plays one game to its end; returns (result, number of actions applied)."""
    state = engine.setup(players, {}, seed)
    rng = random.Random(seed)
    actions = 0
    while engine.result(state) is None:
        if actions >= MAX_ACTIONS:
            raise RuntimeError(f"game with seed {seed} did not finish in {MAX_ACTIONS} actions")
        waiting = engine.waiting_for(state)
        candidates = [s for s in waiting.seats] if waiting.kind != "none" else []
        if not candidates:
            raise RuntimeError(f"game with seed {seed} waits on nobody but is not over")
        # In a window, answer in random order; sometimes let the deadline close it.
        if waiting.kind == "window" and rng.random() < 0.05:
            state, _ = engine.apply(state, None, {"type": "timeout"})
            actions += 1
            continue
        seat = rng.choice(candidates)
        if versus == "random" and seat != 0:
            legal = engine.legal_actions(state, seat)
            action = rng.choice(legal)
        else:
            action = engine.bot_action(state, seat, rng)
        state, _ = engine.apply(state, seat, action)
        actions += 1
    result = engine.result(state)
    assert result is not None
    return result, actions


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--game", required=True, choices=sorted(ENGINES))
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--versus", choices=["random"], default=None)
    args = parser.parse_args(argv)
    engine = ENGINES[args.game]
    line: dict[str, Any] = {"game": args.game, "players": args.players, "games": args.games}
    finished = 0
    total_actions = 0
    bot_wins = 0
    error = None
    started = time.perf_counter()
    try:
        for k in range(args.games):
            result, actions = play_one(engine, args.players, args.seed * 1_000_003 + k, args.versus)
            finished += 1
            total_actions += actions
            if 0 in result.get("winners", []):
                bot_wins += 1
    except Exception as exc:  # report, then fail the run
        error = f"{type(exc).__name__}: {exc}"
        traceback.print_exc(file=sys.stderr)
    elapsed = time.perf_counter() - started
    line.update(
        finished=finished,
        mean_actions=round(total_actions / finished, 1) if finished else None,
        games_per_second=round(finished / elapsed, 1) if elapsed > 0 else None,
        error=error,
    )
    if args.versus:
        line.update(
            bot_win_rate=round(bot_wins / finished, 3) if finished else None,
            fair_share=round(1 / args.players, 3),
        )
    print(json.dumps(line))
    return 0 if error is None and finished == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
