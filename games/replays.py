"""Rebuilds a finished game from its seed and event log: the reveal replay and the audit check."""

from __future__ import annotations

from typing import Any

from games.engines import registry
from games.models import Event, Game


def rebuild(game: Game) -> Any:
    """The state the event log produces from the seed; equal to ``game.state`` when nothing was lost."""
    engine = registry.get(game.engine, game.rules_version)
    state = engine.setup(game.seats_count, game.options, game.seed)
    for row in Event.objects.filter(game=game).order_by("seq"):
        state, _ = engine.apply(state, row.seat, row.action)
    return state


def full_replay(game: Game) -> list[dict[str, Any]]:
    """Every step with the full state and every event, hidden or not. Only for finished games."""
    engine = registry.get(game.engine, game.rules_version)
    state = engine.setup(game.seats_count, game.options, game.seed)
    steps = [
        {"seq": 0, "seat": None, "action": None, "events": [], "state": state, "reason": "setup"}
    ]
    for row in Event.objects.filter(game=game).order_by("seq"):
        state, events = engine.apply(state, row.seat, row.action)
        steps.append(
            {
                "seq": row.seq,
                "seat": row.seat,
                "action": row.action,
                "reason": row.reason,
                "events": [e.to_dict() for e in events],
                "state": state,
            }
        )
    return steps
