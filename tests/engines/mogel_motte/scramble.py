"""``scramble_hidden``: change everything a seat may not know in a Mogel Motte state.

Re-deals every card the seat cannot see (other hands and sleeves, the draw pile, other
seats' floor cards) among those places keeping every public count, moves the catchable
sleeve cards among the other non-guard seats (hand + sleeve counts stay the same), redraws
the secret race, slap and gift answers of the other seats and changes the RNG seed.
"""

from __future__ import annotations

import copy
import random

from games.engines.core import State
from games.engines.mogel_motte import rules
from games.engines.mogel_motte.cards import MOTH


def _redeal(state: State, seat: int | None, rng: random.Random) -> None:
    players = state["players"]
    others = [p for p in range(players) if p != seat]
    holders = [p for p in others if state["sleeves"][p] is not None]
    turns = [state["slipped"][p] for p in holders]
    totals = {p: rules.count(state, p) for p in others}
    eligible = [p for p in others if p != state["guard"]]
    new_holders = rng.sample(eligible, len(holders))
    rng.shuffle(turns)
    pool = list(state["draw"])
    for p in others:
        pool += state["hands"][p] + state["floor"][p]
        if state["sleeves"][p] is not None:
            pool.append(state["sleeves"][p])
    rng.shuffle(pool)
    for p in others:
        state["sleeves"][p] = state["slipped"][p] = None
    for p, turn in zip(new_holders, turns, strict=True):
        state["sleeves"][p] = pool.pop()
        state["slipped"][p] = turn
    for p in others:
        size = totals[p] - (state["sleeves"][p] is not None)
        state["hands"][p] = [pool.pop() for _ in range(size)]
        state["floor"][p] = [pool.pop() for _ in state["floor"][p]]
    state["draw"] = pool


def _give_a_non_moth(state: State, p: int, seat: int | None) -> bool:
    """Swaps a non-moth card into ``p``'s hand from the draw pile or another hidden hand."""
    kinds = rules.kinds(state)
    if any(kinds[c] != MOTH for c in state["hands"][p]):
        return True
    if not state["hands"][p]:
        return False
    sources = [state["draw"]] + [
        state["hands"][q] for q in range(state["players"]) if q not in (p, seat)
    ]
    for source in sources:
        for i, card in enumerate(source):
            if kinds[card] != MOTH and card != rules.committed(state, _owner(state, source)):
                source[i], state["hands"][p][0] = state["hands"][p][0], card
                return True
    return False


def _owner(state: State, cards: list[int]) -> int:
    for q, hand in enumerate(state["hands"]):
        if hand is cards:
            return q
    return -1


def _windows(state: State, seat: int | None, rng: random.Random) -> bool:
    phase = state["phase"]
    window = state["window"]
    others = [p for p in range(state["players"]) if p != seat]
    if phase == "spider" and state["active"] != seat:
        return _give_a_non_moth(state, state["active"], seat)
    if phase == "race":
        mine = [seat] if seat in window["declined"] else []
        others_declined = [p for p in others if rng.random() < 0.5]
        if len(mine) + len(others_declined) == state["players"]:
            others_declined.pop(rng.randrange(len(others_declined)))
        window["declined"] = mine + others_declined
    elif phase == "slap":
        asked = [p for p in window["asked"] if p != seat]
        slapped = [p for p in asked if rng.random() < 0.5]
        rng.shuffle(slapped)
        if seat in window["slapped"]:
            slapped.insert(rng.randrange(len(slapped) + 1), seat)
        if len(slapped) == len(window["asked"]):
            slapped.remove(rng.choice(asked))
        window["slapped"] = slapped
    elif phase == "gift":
        asked = [p for p in window["asked"] if p != seat]
        for p in asked:
            window["chosen"][p] = None
            if not _give_a_non_moth(state, p, seat):
                continue
            if rng.random() < 0.5:
                window["chosen"][p] = rng.choice(rules.non_moths(state, p))
        if not rules.remaining(state):
            for p in asked:
                if rules.non_moths(state, p):
                    window["chosen"][p] = None
                    break
        return bool(rules.remaining(state))
    return True


def scramble_hidden(state: State, seat: int | None, rng: random.Random) -> State:
    if state["phase"] == "over":
        return state
    original = copy.deepcopy(state)
    _redeal(state, seat, rng)
    if not _windows(state, seat, rng):
        state = original
    state["rng"] = {"seed": rng.randrange(10**9), "step": rng.randrange(100)}
    return state
