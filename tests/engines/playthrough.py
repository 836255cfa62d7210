"""Random playthroughs shared by the engine contract tests."""

from __future__ import annotations

import importlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from games.engines.core import Engine, State

MAX_ACTIONS = 20_000


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def package_of(engine: Engine) -> str:
    return type(engine).__module__.split(".")[2]


def scrambler(engine: Engine) -> Callable[[State, int | None, random.Random], State]:
    """Each engine's tests provide ``scramble_hidden(state, seat, rng)``: a copy of ``state``
    in which everything ``seat`` may not know is changed (re-dealt, re-shuffled)."""
    module = importlib.import_module(f"tests.engines.{package_of(engine)}.scramble")
    return module.scramble_hidden


@dataclass
class Step:
    state: State  # the state before the action
    seat: int | None
    action: dict[str, Any]


@dataclass
class Playthrough:
    engine: Engine
    players: int
    seed: int
    steps: list[Step] = field(default_factory=list)
    final: State | None = None


def play(engine: Engine, players: int, seed: int, policy: str = "mixed") -> Playthrough:
    """Plays a whole game. ``policy``: "bot", "random" (uniform legal moves) or "mixed".
    Windows are sometimes closed by the system's timeout instead of by answers."""
    rng = random.Random(seed)
    state = engine.setup(players, {}, seed)
    run = Playthrough(engine, players, seed)
    while engine.result(state) is None:
        assert len(run.steps) < MAX_ACTIONS, f"{engine.slug} seed {seed} did not finish"
        waiting = engine.waiting_for(state)
        assert waiting.kind in ("turn", "window"), waiting
        assert waiting.seats, f"{engine.slug} waits on nobody but is not over"
        if waiting.kind == "window" and rng.random() < 0.1:
            seat, action = None, {"type": "timeout"}
        else:
            # Out-of-turn actions (cheats, accusations) come from anyone who has some.
            others = [
                s
                for s in range(players)
                if s not in waiting.seats and engine.legal_actions(state, s)
            ]
            seat = rng.choice(list(waiting.seats))
            if others and rng.random() < 0.1:
                seat = rng.choice(others)
            use_bot = policy == "bot" or (policy == "mixed" and rng.random() < 0.5)
            action = (
                engine.bot_action(state, seat, rng)
                if use_bot
                else rng.choice(engine.legal_actions(state, seat))
            )
        run.steps.append(Step(state, seat, action))
        state, _events = engine.apply(state, seat, action)
    run.final = state
    return run


def positions(run: Playthrough) -> Iterator[State]:
    for step in run.steps:
        yield step.state
    assert run.final is not None
    yield run.final
