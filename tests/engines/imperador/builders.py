"""Hand-built Imperador positions for the scenario tests."""

from __future__ import annotations

from collections import Counter

from games.engines.imperador import ENGINE
from games.engines.imperador.cards import band_of, value_of

# A 4-player deal used by many tests (values 1..8, bands [1-2] [3-4] [5-6] [7-8]).
FOUR = [[1, 1, 3, 5], [3, 6, 7, 8], [2, 4, 5, 7], [2, 4, 6, 8]]


def build(hands, *, emperor=0, laid=None, grid=None, foxes=None, sheep=None, reign=1):
    """A running game at the start of ``emperor``'s turn with exactly these hands (values).

    ``laid[s]`` lists the values of pairs seat ``s`` has laid; ``grid`` the bands of the
    face-down objects, slot by slot (default: every remaining object, in band order).
    """
    players = len(hands)
    laid = laid or [[] for _ in range(players)]
    cards = []

    def new(kind, number):
        cards.append([kind, number])
        return len(cards) - 1

    hand_ids = [sorted(new("number", v) for v in hand) for hand in hands]
    laid_entries = [
        [
            {"cards": [new("number", v), new("number", v)], "object": new("object", band_of(v))}
            for v in seat_laid
        ]
        for seat_laid in laid
    ]
    if grid is None:
        left = Counter({b: 2 for b in range(1, players + 1)})
        left.subtract(band_of(v) for seat_laid in laid for v in seat_laid)
        grid = sorted(left.elements())
    grid_ids = [new("object", b) for b in grid]
    numbers = Counter(n for kind, n in cards if kind == "number")
    objects = Counter(n for kind, n in cards if kind == "object")
    assert numbers == Counter({v: 2 for v in range(1, 2 * players + 1)}), numbers
    assert objects == Counter({b: 2 for b in range(1, players + 1)}), objects
    state = ENGINE.setup(players, {"first_seat": emperor}, seed=7)
    state.update(
        cards=cards,
        hands=hand_ids,
        laid=laid_entries,
        grid=grid_ids,
        seen=[False] * len(grid_ids),
        foxes=list(foxes or [0] * players),
        reign=reign,
    )
    if sheep is not None:
        state["sheep"] = list(sheep)
    return state


def ids(state, seat, value):
    """The ids of ``value`` in ``seat``'s hand."""
    return [c for c in state["hands"][seat] if value_of(state, c) == value]


def values(state, seat):
    return sorted(value_of(state, c) for c in state["hands"][seat])


def act(state, seat, action):
    return ENGINE.apply(state, seat, action)


def play(state, *moves):
    """Applies (seat, action) moves in order; returns the final state and all events."""
    events = []
    for seat, action in moves:
        state, new = ENGINE.apply(state, seat, action)
        events += new
    return state, events


def hands_round(state, band, choices):
    """Emperor announces ``band``; ``choices`` maps seat -> 'raise' / 'down'."""
    emperor = state["emperor"]
    moves = [(emperor, {"type": "announce", "band": band})]
    moves += [(s, {"type": "hand", "choice": c}) for s, c in choices.items()]
    return play(state, *moves)


def kinds(events):
    return [e.kind for e in events]
