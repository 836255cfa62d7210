"""A simple Imperador bot that only uses what its seat's view shows.

It announces bands where it holds a single, names and takes the partner of a single, picks
a down player who visibly holds a partner, gives away its least useful card, turns over a
remembered object that fits a pair it holds (the grid keeps every object ever seen), and
raises its hand truthfully — or, sometimes, with a lone card in the band.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engines.core import Action
from games.engines.imperador.cards import band_of, band_values

LIE_RATE = 0.3


def _values(cards: list[dict[str, Any]]) -> Counter[int]:
    return Counter(card["value"] for card in cards)


def _visible_holders(view: dict[str, Any], me: int) -> dict[int, set[int]]:
    """value -> seats whose public (fox) hand shows that value."""
    holders: dict[int, set[int]] = {}
    for entry in view["seats"]:
        if entry["seat"] != me:
            for card in entry["public_cards"]:
                holders.setdefault(card["value"], set()).add(entry["seat"])
    return holders


def _laid_values(view: dict[str, Any]) -> set[int]:
    return {lay["cards"][0]["value"] for entry in view["seats"] for lay in entry["laid"]}


def decide(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    seat = view["viewer"]
    kind = legal[0]["type"]
    mine = _values(view["hand"])
    singles = sorted(v for v, n in mine.items() if n == 1)
    pairs = sorted(v for v, n in mine.items() if n == 2)
    holders = _visible_holders(view, seat)
    turn = view["turn"]

    def pick_one(field: str, options: list[int]) -> Action:
        return {"type": kind, field: rng.choice(options)}

    if kind == "hand":
        in_band = [v for v in band_values(turn["band"]) if mine[v]]
        if not in_band:
            return {"type": "hand", "choice": "raise"}
        lone = all(mine[v] == 1 for v in in_band) and len(in_band) == 1
        lie = lone and rng.random() < LIE_RATE
        return {"type": "hand", "choice": "raise" if lie else "down"}

    if kind == "announce":
        bands = [a["band"] for a in legal]
        wanted = [band_of(v) for v in singles if band_of(v) not in {band_of(p) for p in pairs}]
        visible = [band_of(v) for v in singles if v in holders]
        if visible:
            return {"type": "announce", "band": rng.choice(visible)}
        if wanted:
            return {"type": "announce", "band": rng.choice(wanted)}
        quiet = [b for b in bands if b not in {band_of(p) for p in pairs}]
        return pick_one("band", quiet or bands)

    if kind == "name":
        values = [a["value"] for a in legal]
        wanted = [v for v in values if v in singles]
        if wanted:
            return {"type": "name", "value": rng.choice(wanted)}
        laid = [v for v in values if v in _laid_values(view)]
        if laid and not singles:
            return {"type": "name", "value": laid[0]}
        return pick_one("value", [v for v in values if v not in pairs] or values)

    if kind == "pick":
        seats = [a["seat"] for a in legal]
        counts = {e["seat"]: e for e in view["seats"]}
        best = [s for s in seats if any(s in holders.get(v, ()) for v in singles)]
        if best:
            return {"type": "pick", "seat": rng.choice(best)}
        fewest = min(counts[s]["hand_count"] for s in seats)
        return pick_one("seat", [s for s in seats if counts[s]["hand_count"] == fewest])

    if kind == "give":
        by_id = {c["id"]: c["value"] for c in view["hand"]}
        options = [a["card"] for a in legal]
        loose = [c for c in options if mine[by_id[c]] == 1]
        # keep singles whose partner is visibly within reach; give the others first
        cold = [c for c in loose if by_id[c] not in holders]
        return pick_one("card", cold or loose or options)

    if kind == "take":
        giver = turn["taking_from"]
        faces = {c["id"]: c["value"] for c in view["seats"][giver]["public_cards"]}
        options = [a["card"] for a in legal]
        good = [c for c in options if faces.get(c) in singles]
        return pick_one("card", good or options)

    if kind == "reveal":
        slots = {g["slot"]: g for g in view["grid"]}
        options = [a["slot"] for a in legal]
        fitting = [s for s in options if slots[s]["band"] in {band_of(p) for p in pairs}]
        if fitting:
            return {"type": "reveal", "slot": rng.choice(fitting)}
        unseen = [s for s in options if not slots[s]["seen"]]
        return pick_one("slot", unseen or options)

    if kind == "successor":
        seats = [a["seat"] for a in legal]
        laid_by_seat = {e["seat"]: len(e["laid"]) for e in view["seats"]}
        fewest = min(laid_by_seat[s] for s in seats)
        return pick_one("seat", [s for s in seats if laid_by_seat[s] == fewest])

    return rng.choice(legal)
