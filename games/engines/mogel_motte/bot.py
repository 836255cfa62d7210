"""A sensible Mogel Motte player that uses only what its seat may see.

It slips moths (and other heavy cards) up its sleeve when it is not guard, accuses once per
fresh fidget notice when it is guard (suspecting whoever was active when the fidget
happened), races and slaps at once, plays its heaviest playable card first and gives away
its heaviest non-moth cards.
"""

from __future__ import annotations

import random

from games.engines.core import Action, IllegalAction, State
from games.engines.mogel_motte import rules
from games.engines.mogel_motte.actions import legal_actions
from games.engines.mogel_motte.cards import (
    ANT,
    COCKROACH,
    MOSQUITO,
    MOTH,
    NUMBER,
    PENALTY,
    SPIDER,
    adjacent,
)

# Among cards of equal penalty, the actions that hurt the others most go first.
KIND_ORDER = {MOTH: 5, MOSQUITO: 4, SPIDER: 3, ANT: 2, COCKROACH: 1, NUMBER: 0}


def _weight(state: State, card: int) -> tuple[int, int]:
    kind = rules.kinds(state)[card]
    return PENALTY[kind], KIND_ORDER[kind]


def _heaviest(state: State, cards: list[int]) -> int:
    return max(cards, key=lambda c: (_weight(state, c), -c))


def _fresh_fidget(state: State) -> bool:
    """A fidget notice nobody has accused after, whose card may still be caught."""
    fidgets = state["fidgets"]
    if not fidgets or fidgets[-1]["turn"] < state["turn"] - 1:
        return False
    last = state["last_accusation"]
    return last is None or last["after_fidget"] < fidgets[-1]["n"]


def _suspect(state: State, seat: int, rng: random.Random) -> int:
    others = [s for s in range(state["players"]) if s != seat]
    if state["fidgets"]:
        fidget = state["fidgets"][-1]
        if fidget["active"] in others and fidget["active"] != fidget["guard"]:
            return fidget["active"]
        others = [s for s in others if s != fidget["guard"]] or others
    return rng.choice(others)


def _accuse(state: State, seat: int, rng: random.Random) -> Action:
    options = rules.handover_options(state, seat)
    card = _heaviest(state, options) if options else None
    return {"type": "accuse", "target": _suspect(state, seat, rng), "card": card}


def _cheat_card(state: State, seat: int) -> int | None:
    """The card worth slipping away: a moth, else a heavy card we cannot play now."""
    options = rules.cheat_options(state, seat)
    if not options:
        return None
    moths = [c for c in options if rules.kinds(state)[c] == MOTH]
    if moths:
        return moths[0]
    stuck = [c for c in options if not rules.can_play(state, seat, c)]
    if stuck and len(state["hands"][seat]) > 2:
        return _heaviest(state, stuck)
    return None


def _play_card(state: State, seat: int, plays: list[int]) -> int:
    hand = state["hands"][seat]

    def follow_ups(card: int) -> int:
        value = rules.values(state)[card]
        return sum(
            1
            for c in hand
            if c != card
            and adjacent(rules.values(state)[c], value)
            and (rules.kinds(state)[c] != MOTH or seat == state["guard"])
        )

    return max(plays, key=lambda c: (_weight(state, c), follow_ups(c), -c))


def _owes(state: State, seat: int) -> bool:
    if state["phase"] in ("play", "spider"):
        return seat == state["active"]
    return seat in rules.remaining(state)


def _answer(state: State, seat: int, rng: random.Random) -> Action:
    phase = state["phase"]
    if phase == "play":
        plays = rules.playable(state, seat)
        if plays:
            return {"type": "play", "card": _play_card(state, seat, plays)}
        return {"type": "draw"}
    if phase == "spider":
        counts = {s: rules.count(state, s) for s in range(state["players"]) if s != seat}
        fewest = min(counts.values())
        to = rng.choice([s for s, n in counts.items() if n == fewest])
        return {"type": "give", "card": _heaviest(state, rules.non_moths(state, seat)), "to": to}
    if phase == "race":
        cards = rules.race_cards(state, seat)
        return {"type": "race", "card": cards[0]} if cards else {"type": "decline"}
    if phase == "slap":
        return {"type": "slap"}
    return {"type": "gift", "card": _heaviest(state, rules.handover_options(state, seat))}


def bot_action(state: State, seat: int, rng: random.Random) -> Action:
    legal = legal_actions(state, seat)
    if not legal:
        raise IllegalAction("no_move", "This seat has nothing to do now.")
    if state["phase"] in ("race", "slap") and _owes(state, seat):
        return _answer(state, seat, rng)  # the first to race wins; the last to slap pays
    if seat == state["guard"] and _fresh_fidget(state):
        return _accuse(state, seat, rng)
    cheat = _cheat_card(state, seat)
    if cheat is not None:
        return {"type": "cheat", "card": cheat}
    if _owes(state, seat):
        return _answer(state, seat, rng)
    # Asked to act out of turn with nothing owed: the least harmful out-of-turn move.
    options = rules.cheat_options(state, seat)
    if options:
        return {"type": "cheat", "card": _heaviest(state, options)}
    return _accuse(state, seat, rng)
