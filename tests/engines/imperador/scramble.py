"""``scramble_hidden`` for the contract's leak test: change everything ``seat`` may not know.

Written from the rules, not from the engine's view code: a seat knows its own hand, every
laid pair, the visible part of fox holders' hands (plus the hidden cards it gave them), the
pair shown in case (a), the named value's card, and turned-over objects.
"""

from __future__ import annotations

import random


def _known_numbers(state, seat):
    known = set()
    for s, hand in enumerate(state["hands"]):
        secret = {e["card"] for e in state["hidden"][s] if e["giver"] != seat}
        if s == seat:
            known |= set(hand)
        elif state["foxes"][s] > 0:
            known |= set(hand) - secret
        for lay in state["laid"][s]:
            known |= set(lay["cards"])
    turn = state["turn"]
    known |= set(turn["shown"])
    giving = turn["giving"]
    if giving and state["cards"][giving["not"]][1] == turn["named"]:
        known.add(giving["not"])
    if state["phase"] == "lay":  # the emperor holds both pairs of the revealed band
        band = turn["revealed"]["band"]
        emperor = state["emperor"]
        known |= {c for c in state["hands"][emperor] if (state["cards"][c][1] + 1) // 2 == band}
    return known


def _shuffle_kinds(state, ids, rng):
    ids = sorted(ids)
    kinds = [state["cards"][i] for i in ids]
    rng.shuffle(kinds)
    for i, kind in zip(ids, kinds, strict=True):
        state["cards"][i] = kind


def scramble_hidden(state, seat, rng: random.Random):
    if state["phase"] == "over":
        return state
    known = _known_numbers(state, seat)
    in_hands = {c for hand in state["hands"] for c in hand}
    _shuffle_kinds(state, in_hands - known, rng)
    unseen = [
        obj for slot, obj in enumerate(state["grid"]) if obj is not None and not state["seen"][slot]
    ]
    _shuffle_kinds(state, unseen, rng)
    state["rng"]["seed"] = rng.randrange(10**9)
    turn = state["turn"]
    if state["phase"] == "hands":
        others = [s for s in turn["asked"] if s != seat]
        for s in others:
            turn["answers"][s] = rng.choice([None, "raise", "down"])
        if all(turn["answers"][s] is not None for s in turn["asked"]):
            turn["answers"][rng.choice(others)] = None
    return state
