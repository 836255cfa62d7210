"""The Mogel Motte deck: 71 dealt cards, each showing a value 1-5, plus the Guard Bug.

The Guard Bug is not a playing card: it only marks who is guard, so the engine keeps it as
``state["guard"]`` and card ids ``0..70`` are the 71 dealt cards. Ids are shuffled per game,
so an id never maps to a kind by itself.
"""

from __future__ import annotations

import functools

NUMBER = "number"
ANT = "ant"
COCKROACH = "cockroach"
MOSQUITO = "mosquito"
SPIDER = "spider"
MOTH = "moth"

KINDS = (NUMBER, ANT, COCKROACH, MOSQUITO, SPIDER, MOTH)
ACTION_KINDS = (ANT, COCKROACH, MOSQUITO, SPIDER)
VALUES = (1, 2, 3, 4, 5)
HAND_SIZE = 8

# [D] The value split no public source gives: how many cards of each kind show the values
# 1, 2, 3, 4, 5. This is the one table to correct if a better source turns up.
SPLIT: dict[str, tuple[int, int, int, int, int]] = {
    NUMBER: (9, 9, 9, 8, 8),
    ANT: (1, 1, 1, 1, 1),
    COCKROACH: (1, 1, 1, 1, 1),
    MOSQUITO: (1, 1, 1, 1, 1),
    SPIDER: (1, 1, 1, 1, 1),
    MOTH: (2, 2, 2, 1, 1),
}

# Penalty points for a card left in hand or sleeve when a round ends.
PENALTY = {NUMBER: 1, ANT: 5, COCKROACH: 5, MOSQUITO: 5, SPIDER: 5, MOTH: 10}

LABELS = {
    NUMBER: "Number",
    ANT: "Ant",
    COCKROACH: "Cockroach",
    MOSQUITO: "Mosquito",
    SPIDER: "Spider",
    MOTH: "Cheating Moth",
}


# One letter per kind for the compact deck string stored in the state.
CODES = {NUMBER: "N", ANT: "A", COCKROACH: "C", MOSQUITO: "Q", SPIDER: "S", MOTH: "M"}
KIND_OF_CODE = {code: kind for kind, code in CODES.items()}


def encode(deck: list[tuple[str, int]]) -> str:
    """The deck in card-id order as one string, e.g. ``"N3 M1 Q5 ..."`` (compact in JSON)."""
    return " ".join(f"{CODES[kind]}{value}" for kind, value in deck)


@functools.lru_cache(maxsize=256)
def decode(deck: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """``(kinds, values)`` indexed by card id."""
    codes = deck.split()
    return tuple(KIND_OF_CODE[c[0]] for c in codes), tuple(int(c[1:]) for c in codes)


def faces() -> list[tuple[str, int]]:
    """Every dealt card as (kind, value), in table order (the engine shuffles them)."""
    return [
        (kind, value)
        for kind in KINDS
        for value, copies in zip(VALUES, SPLIT[kind], strict=True)
        for _ in range(copies)
    ]


def adjacent(a: int, b: int) -> bool:
    """One above or one below, with 5 and 1 adjacent."""
    return (a - b) % 5 in (1, 4)
