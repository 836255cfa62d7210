"""Imperador's cards and the shape of its state.

Every physical card has an id in ``0 .. 6N-1``: 4N number cards (values 1..2N, two copies
each) and 2N objects (bands 1..N, two objects per band; band k covers values 2k-1 and 2k).
The kinds are dealt to the ids by a shuffle, so an id never tells what card it is.
``state["cards"][id]`` is ``["number", value]`` or ``["object", band]``.
"""

from __future__ import annotations

from typing import Any

from games.engines.core import Rng, State

MAX_TURNS = 60
HAND_SIZE = 4
# 2: the 3-player reign limit only when nobody raised; a fox emperor's gifts are public.
RULES_VERSION = 2


def band_values(band: int) -> tuple[int, int]:
    return (2 * band - 1, 2 * band)


def band_of(value: int) -> int:
    return (value + 1) // 2


def value_of(state: State, card: int) -> int:
    return state["cards"][card][1]


def object_band(state: State, card: int) -> int:
    return state["cards"][card][1]


def copies_in(state: State, hand: list[int], value: int) -> list[int]:
    return [card for card in hand if value_of(state, card) == value]


def pairs_in_band(state: State, hand: list[int], band: int) -> list[int]:
    """The values of ``band`` of which ``hand`` holds both copies."""
    return [v for v in band_values(band) if len(copies_in(state, hand, v)) == 2]


def hidden_ids(state: State, seat: int) -> list[int]:
    return [entry["card"] for entry in state["hidden"][seat]]


def card_face(state: State, card: int) -> dict[str, Any]:
    kind, number = state["cards"][card]
    if kind == "number":
        return {"id": card, "kind": "number", "value": number}
    low, high = band_values(number)
    return {"id": card, "kind": "object", "band": number, "values": [low, high]}


def sorted_faces(state: State, cards: list[int]) -> list[dict[str, Any]]:
    return [card_face(state, c) for c in sorted(cards, key=lambda c: (value_of(state, c), c))]


def new_turn(players: int) -> dict[str, Any]:
    return {
        "band": None,
        "asked": [],
        "answers": [None] * players,  # secret until the window closes
        "hands": None,  # per seat, once closed: "raised" / "down" / "fox" / "emperor"
        "case": None,
        "shown": [],  # ids of the pair(s) the emperor showed in case (a)
        "downs": [],
        "raised": [],
        "picked": None,
        "named": None,
        "liars": [],
        "got_named": False,
        "queue": [],
        "giving": None,  # {"to": seat, "not": card just received}
        "taking_from": None,
        "exchanges": [],  # public: {"from", "to", "how"}
        "revealed": None,  # {"slot", "band", "laid": value | None}
    }


def rules_of(state: State) -> int:
    """The rules version a game started with (states from before versions were kept: 1)."""
    return state.get("rules_version", 1)


def copy_state(state: State) -> State:
    """``apply``'s working copy: every list and dict an action may change is copied; the
    rest is shared (a deep copy of the whole state was most of a move's cost). Shared, never
    changed after they are made: ``cards``, the entries of ``hidden`` and ``laid``, the
    turn's ``exchanges`` entries, ``queue`` steps and ``giving``."""
    new = dict(state)
    new["rng"] = dict(state["rng"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["hidden"] = [list(entries) for entries in state["hidden"]]
    new["laid"] = [list(entries) for entries in state["laid"]]
    for key in ("grid", "seen", "sheep", "foxes"):
        new[key] = list(state[key])
    turn = dict(state["turn"])
    for key in ("asked", "answers", "shown", "downs", "raised", "liars", "queue", "exchanges"):
        turn[key] = list(turn[key])
    if turn["revealed"] is not None:
        turn["revealed"] = dict(turn["revealed"])
    new["turn"] = turn
    return new


def deal(players: int, first: int | None, seed: int, rules_version: int = RULES_VERSION) -> State:
    state: State = {"rules_version": rules_version, "rng": Rng.initial(seed)}
    rng = Rng(state)
    kinds: list[list[Any]] = [["number", v] for v in range(1, 2 * players + 1) for _ in range(2)]
    kinds += [["object", b] for b in range(1, players + 1) for _ in range(2)]
    rng.shuffle(kinds)
    numbers = [i for i, kind in enumerate(kinds) if kind[0] == "number"]
    objects = [i for i, kind in enumerate(kinds) if kind[0] == "object"]
    rng.shuffle(numbers)
    rng.shuffle(objects)
    if first is None:
        first = rng.randrange(players)
    sheep = [False] * players
    sheep[first] = True
    state.update(
        players=players,
        cards=kinds,
        hands=[sorted(numbers[HAND_SIZE * s : HAND_SIZE * (s + 1)]) for s in range(players)],
        hidden=[[] for _ in range(players)],  # cards received from the emperor while holding foxes
        laid=[[] for _ in range(players)],  # {"object": id, "cards": [a, b]}
        grid=objects,  # slot -> object id, or None once laid away
        seen=[False] * len(objects),
        sheep=sheep,
        foxes=[0] * players,
        emperor=first,
        reign=1,
        turn_number=1,
        phase="announce",
        turn=new_turn(players),
        winners=None,
        reason=None,
    )
    return state
