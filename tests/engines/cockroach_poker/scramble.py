"""Changes everything a seat may not know in a Cockroach Poker Royal state."""

from __future__ import annotations

import copy
import random
from typing import Any


def hidden_slots(state: dict[str, Any], seat: int | None) -> list[tuple[Any, Any]]:
    """(container, index) of every card ``seat`` cannot identify: other hands, the penalty
    pile below its top, and the card in transit unless ``seat`` has seen it."""
    slots: list[tuple[Any, Any]] = []
    for owner, hand in enumerate(state["hands"]):
        if owner != seat:
            slots += [(hand, i) for i in range(len(hand))]
    slots += [(state["penalty"], i) for i in range(1, len(state["penalty"]))]
    rnd = state["round"]
    if rnd is not None and (seat is None or seat not in rnd["seen"]):
        slots.append((rnd, "card"))
    return slots


def scramble_hidden(state: dict[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
    state = copy.deepcopy(state)
    if state["result"] is not None:
        return state
    slots = hidden_slots(state, seat)
    ids = [box[key] for box, key in slots]
    # 1. move the hidden cards around (keeping every hand's size and the pile's size)
    moved = list(ids)
    rng.shuffle(moved)
    for (box, key), card in zip(slots, moved, strict=True):
        box[key] = card
    # 2. change what the hidden ids are (except cards whose kind a past round revealed)
    revealed = {past["card"] for past in state["recent"]}
    free = [c for c in ids if c not in revealed]
    kinds = [state["kinds"][c] for c in free]
    rng.shuffle(kinds)
    for card, kind in zip(free, kinds, strict=True):
        state["kinds"][card] = kind
    # 3. the seed is secret too
    state["rng"] = {"seed": rng.randrange(10**9), "step": state["rng"]["step"]}
    return state
