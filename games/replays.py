"""Rebuilds a finished game from its seed and event log: the reveal replay and the audit check."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.catalog.base import Mark
from games.engines import registry
from games.models import Event, Game, Seat


def rebuild(game: Game) -> Any:
    """The state the event log produces from the seed; equal to ``game.state`` when nothing was lost."""
    engine = registry.get(game.engine, game.rules_version)
    state = engine.setup(game.seats_count, game.options, game.seed)
    for row in Event.objects.filter(game=game).order_by("seq"):
        state, _ = engine.apply(state, row.seat, row.action)
    return state


def full_replay(game: Game) -> list[dict[str, Any]]:
    """Every step with the full state and every event, hidden or not (the staff's full log)."""
    engine = registry.get(game.engine, game.rules_version)
    state = engine.setup(game.seats_count, game.options, game.seed)
    steps: list[dict[str, Any]] = [
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


@dataclass
class RevealStep:
    """One step of the reveal: who moved, what happened in words (hidden cards included),
    the bluffs and cheats it made, and whether a round (in the game's sense) began."""

    index: int
    actor: str | None
    lines: list[dict[str, Any]]
    marks: list[Mark]
    starts_round: bool = False


@dataclass(frozen=True)
class PlayedStep:
    """One row of the log as the engine replayed it: who, why, what, and what it told."""

    seat: int | None
    reason: str
    action: Any
    told: list[dict[str, Any]]


@dataclass(frozen=True)
class Played:
    """A game replayed by its engine: ``states[0]`` the deal, ``states[i]`` after ``steps[i - 1]``.
    No names and no words: the same for every viewer and in every language."""

    steps: list[PlayedStep]
    states: list[Any]


def played(game: Game) -> Played:
    """The game replayed from its seed, every step."""
    engine = registry.get(game.engine, game.rules_version)
    state = engine.setup(game.seats_count, game.options, game.seed)
    out = Played([], [state])
    for row in Event.objects.filter(game=game).order_by("seq"):
        state, events = engine.apply(state, row.seat, row.action)
        out.steps.append(
            PlayedStep(row.seat, row.reason, row.action, [e.to_dict() for e in events])
        )
        out.states.append(state)
    return out


def names_for(row: PlayedStep, players: list[str], humans: set[int]) -> list[str]:
    """The names for one step: a player's seat "(bot)" when the bot made the move (their turn
    ran out, the seat was handed over), its player's name when they did; a bot's seat keeps
    its own name."""
    if row.reason not in (Event.Reason.BOT, Event.Reason.TIMEOUT) or row.seat not in humans:
        return players
    names = list(players)
    names[row.seat] = Seat.label(row.seat, True, players[row.seat])
    return names
