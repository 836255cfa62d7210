"""Hand-built Mogel Motte positions for the scenario tests.

Cards are written as deck codes: ``N3`` number 3, ``A`` ant, ``C`` cockroach, ``Q``
mosquito, ``S`` spider, ``M`` moth, each followed by its value. Every position holds the
real 71-card deck: the cards not placed explicitly go to the bottom of the draw pile (or,
with ``rest="floor"``, out of play on the last seat's floor).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from games.engines.core import Event
from games.engines.mogel_motte import ENGINE, rules
from games.engines.mogel_motte.cards import CODES, encode, faces


def table(
    hands: list[list[str]],
    top: str = "N3",
    *,
    draw: tuple[str, ...] = (),
    under: tuple[str, ...] = (),
    sleeves: list[str | None] | None = None,
    guard: int = 0,
    active: int | None = None,
    turn: int = 5,
    slipped: int | None = None,
    rest: str = "draw",
) -> dict[str, Any]:
    """``draw`` lists cards in the order they will be drawn; ``under`` lies below ``top``."""
    players = len(hands)
    state = ENGINE.setup(players, {"first_seat": guard}, seed=7)
    left = Counter(encode(faces()).split())
    codes: list[str] = []

    def take(code: str) -> int:
        assert left[code] > 0, f"the deck has no more {code}"
        left[code] -= 1
        codes.append(code)
        return len(codes) - 1

    state["hands"] = [[take(c) for c in hand] for hand in hands]
    worn = sleeves or [None] * players
    state["sleeves"] = [None if c is None else take(c) for c in worn]
    state["slipped"] = [None if c is None else (turn if slipped is None else slipped) for c in worn]
    state["discard"] = [take(c) for c in (*under, top)]
    drawn = [take(c) for c in draw]
    extra = [take(c) for c in sorted(left.elements())]
    state["floor"] = [[] for _ in range(players)]
    if rest == "draw":
        state["draw"] = extra + drawn[::-1]
    else:
        state["draw"] = drawn[::-1]
        state["floor"][-1] = extra
    state["deck"] = " ".join(codes)
    state.update(
        guard=guard,
        starting_guard=guard,
        active=guard if active is None else active,
        turn=turn,
        phase="play",
        window=None,
    )
    return state


def code(state: dict[str, Any], card: int) -> str:
    return CODES[rules.kinds(state)[card]] + str(rules.values(state)[card])


def hand(state: dict[str, Any], seat: int) -> list[str]:
    return sorted(code(state, c) for c in state["hands"][seat])


def card(state: dict[str, Any], seat: int, wanted: str) -> int:
    """The id of a card with code ``wanted`` in ``seat``'s hand."""
    for c in state["hands"][seat]:
        if code(state, c) == wanted:
            return c
    raise AssertionError(f"seat {seat} holds no {wanted}: {hand(state, seat)}")


def act(state: dict[str, Any], seat: int | None, action: dict[str, Any]):
    return ENGINE.apply(state, seat, action)


def play(state: dict[str, Any], seat: int, wanted: str):
    return act(state, seat, {"type": "play", "card": card(state, seat, wanted)})


def kinds_of(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def counts(state: dict[str, Any]) -> list[int]:
    return [rules.count(state, s) for s in range(state["players"])]
