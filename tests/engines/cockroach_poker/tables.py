"""Hand-built Cockroach Poker Royal positions for the scenario tests."""

from __future__ import annotations

from typing import Any

from games.engines.cockroach_poker import ENGINE

State = dict[str, Any]


def table(
    hands: list[list[str]],
    rows: list[list[str]] | None = None,
    penalty: list[str] | tuple[str, ...] = (),
    active: int = 0,
    offers: int = 0,
) -> State:
    """A position where ``active`` must offer. Cards are given by kind; each gets an unused
    id of that kind. Cards not mentioned are out of play (scenario tests only)."""
    players = len(hands)
    state = ENGINE.setup(players, {"first_seat": active}, seed=7)
    free: dict[str, list[int]] = {}
    for card, kind in enumerate(state["kinds"]):
        free.setdefault(kind, []).append(card)

    def take(kind: str) -> int:
        return free[kind].pop(0)

    state["hands"] = [[take(k) for k in hand] for hand in hands]
    state["rows"] = [[take(k) for k in row] for row in (rows or [[] for _ in hands])]
    state["penalty"] = [take(k) for k in penalty]
    state["phase"] = "offer"
    state["active"] = active
    state["offers"] = offers
    return state


def card(state: State, seat: int, kind: str, nth: int = 0) -> int:
    """The id of the ``nth`` card of ``kind`` in ``seat``'s hand."""
    return [c for c in state["hands"][seat] if state["kinds"][c] == kind][nth]


def kinds(state: State, ids: list[int]) -> list[str]:
    return [state["kinds"][c] for c in ids]


def row(state: State, seat: int) -> list[str]:
    return kinds(state, state["rows"][seat])


def hand(state: State, seat: int) -> list[str]:
    return kinds(state, state["hands"][seat])


def play(state: State, seat: int | None, action: dict[str, Any]):
    return ENGINE.apply(state, seat, action)


def offer(state: State, seat: int, kind: str, to: int, claim: str) -> State:
    new, _ = play(
        state, seat, {"type": "offer", "card": card(state, seat, kind), "to": to, "claim": claim}
    )
    return new


def call(state: State, seat: int, says: str):
    return play(state, seat, {"type": "call", "says": says})


def peek(state: State, seat: int) -> State:
    return play(state, seat, {"type": "peek"})[0]


def pass_on(state: State, seat: int, to: int, claim: str) -> State:
    return play(state, seat, {"type": "pass", "to": to, "claim": claim})[0]


def name(state: State, seat: int, *named_kinds: str):
    ids: list[int] = []
    for kind in named_kinds:
        ids.append(
            next(c for c in state["hands"][seat] if state["kinds"][c] == kind and c not in ids)
        )
    return play(state, seat, {"type": "name", "cards": ids})


def event_kinds(events) -> list[str]:
    return [e.kind for e in events]
