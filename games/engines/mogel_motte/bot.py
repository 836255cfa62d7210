"""A sensible Mogel Motte player that decides from its seat's view and legal actions only.

When the game waits on it, it races and slaps at once, plays its heaviest playable card first
and gives away its heaviest non-moth cards. Its asides (``aside``), offered by the platform at
random moments: it slips moths (and other heavy cards) up its sleeve when it is not guard, and
accuses once per fresh fidget notice when it is guard.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.core import Action
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
OWED = frozenset({"play", "draw", "give", "race", "decline", "slap", "gift"})


class _Seat:
    """What the bot reads, taken from the view and the legal actions once."""

    def __init__(self, view: dict[str, Any], legal: list[Action]) -> None:
        you = view["you"]
        self.view = view
        self.seat: int = you["seat"]
        self.hand: dict[int, dict[str, Any]] = {c["id"]: c for c in you["hand"]}
        self.is_guard: bool = you["is_guard"]
        self.top: int = view["top"]["value"]
        self.by_type: dict[str, list[Action]] = {}
        for action in legal:
            self.by_type.setdefault(action["type"], []).append(action)

    def cards(self, kind: str) -> list[int]:
        """The distinct cards of the legal actions of ``kind``, in their order."""
        seen: dict[int, None] = {}
        for action in self.by_type.get(kind, ()):
            if action.get("card") is not None:
                seen.setdefault(action["card"], None)
        return list(seen)

    def owes(self) -> bool:
        return any(kind in OWED for kind in self.by_type)

    def weight(self, card: int) -> tuple[int, int]:
        kind = self.hand[card]["kind"]
        return PENALTY[kind], KIND_ORDER[kind]

    def heaviest(self, cards: list[int]) -> int:
        return max(cards, key=lambda c: (self.weight(c), -c))

    def can_play(self, card: int) -> bool:
        face = self.hand[card]
        return (face["kind"] != MOTH or self.is_guard) and adjacent(face["value"], self.top)


def _fresh_fidget(me: _Seat) -> bool:
    """A fidget notice nobody has accused after, whose card may still be caught."""
    fidgets = me.view["fidgets"]
    if not fidgets or fidgets[-1]["turn"] < me.view["turn"] - 1:
        return False
    last = me.view["last_accusation"]
    return last is None or last["after_fidget"] < fidgets[-1]["n"]


def _suspect(me: _Seat, rng: random.Random) -> int:
    others = [s for s in range(me.view["players"]) if s != me.seat]
    fidgets = me.view["fidgets"]
    if fidgets:
        fidget = fidgets[-1]
        if fidget["active"] in others and fidget["active"] != fidget["guard"]:
            return fidget["active"]
        others = [s for s in others if s != fidget["guard"]] or others
    return rng.choice(others)


def _accuse(me: _Seat, rng: random.Random) -> Action:
    options = me.cards("accuse")
    card = me.heaviest(options) if options else None
    return {"type": "accuse", "target": _suspect(me, rng), "card": card}


def _cheat_card(me: _Seat) -> int | None:
    """The card worth slipping away: a moth, else a heavy card we cannot play now."""
    options = me.cards("cheat")
    if not options:
        return None
    moths = [c for c in options if me.hand[c]["kind"] == MOTH]
    if moths:
        return moths[0]
    stuck = [c for c in options if not me.can_play(c)]
    if stuck and len(me.hand) > 2:
        return me.heaviest(stuck)
    return None


def _play_card(me: _Seat, plays: list[int]) -> int:
    def follow_ups(card: int) -> int:
        value = me.hand[card]["value"]
        return sum(
            1
            for c, face in me.hand.items()
            if c != card
            and adjacent(face["value"], value)
            and (face["kind"] != MOTH or me.is_guard)
        )

    return max(plays, key=lambda c: (me.weight(c), follow_ups(c), -c))


def _answer(me: _Seat, rng: random.Random) -> Action:
    phase = me.view["phase"]
    if phase == "play":
        plays = me.cards("play")
        return {"type": "play", "card": _play_card(me, plays)} if plays else {"type": "draw"}
    if phase == "spider":
        counts = {e["seat"]: e["count"] for e in me.view["seats"] if e["seat"] != me.seat}
        fewest = min(counts.values())
        to = rng.choice([s for s, n in counts.items() if n == fewest])
        return {"type": "give", "card": me.heaviest(me.cards("give")), "to": to}
    if phase == "race":
        cards = me.cards("race")
        return {"type": "race", "card": cards[0]} if cards else {"type": "decline"}
    if phase == "slap":
        return {"type": "slap"}
    return {"type": "gift", "card": me.heaviest(me.cards("gift"))}


def aside(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action | None:
    """On its own initiative, at any moment the platform offers (not only on its turn, or
    its turn would name it): accuse after a fresh fidget as guard, else slip a card away."""
    me = _Seat(view, legal)
    if view["phase"] in ("race", "slap") and me.owes():
        return None  # answering first matters more
    if me.is_guard and "accuse" in me.by_type and _fresh_fidget(me):
        return _accuse(me, rng)
    cheat = _cheat_card(me)
    return {"type": "cheat", "card": cheat} if cheat is not None else None


def decide(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    """What the bot does when the game waits on it: its cheats and accusations are asides."""
    me = _Seat(view, legal)
    if me.owes():
        return _answer(me, rng)
    # Asked to act out of turn with nothing owed: the least harmful out-of-turn move.
    options = me.cards("cheat")
    if options:
        return {"type": "cheat", "card": me.heaviest(options)}
    return _accuse(me, rng)
