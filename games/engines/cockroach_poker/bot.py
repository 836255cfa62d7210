"""A sensible player. ``decide`` gets the seat's view and legal actions only (public rows,
own hand, the card in transit if it has seen it, everybody's public record of true claims),
so it can never use hidden information. It bluffs sometimes and calls by estimated odds."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engines.cockroach_poker import cards as C
from games.engines.core import Action

HONEST = 0.45  # how often the bot tells the truth when it can
RETURN_RISK = 0.35  # rough chance a card the bot gives away comes back to it
# The noise on an offer's score: enough that a player nobody threatens yet is offered cards
# too (with less, five bots kept offering among themselves and a person with an empty row sat
# out one game in four at six seats: nobody's row was worth filling but the most at risk).
OFFER_SPREAD = 3.0
SPECIAL_COST = 4.0  # taking a special card means naming cards into one's own row
UNKNOWN_PENALTY_COST = 3.0


def _weight(count: int, limit: int) -> float:
    if count >= limit:
        return 1000.0
    if count == limit - 1:
        return 3.0 * count * count
    return float(count * count)


def take_cost(tally: dict[str, int], kinds: list[str], limit: int, top: str | None) -> float:
    """How much worse a row gets when ``kinds`` go into it in order (royal penalties
    included: the first one takes the known face-up card, later ones are guessed). Only the
    species that change are weighed (the bot's hot path)."""
    after: dict[str, int] = {}
    extra = 0.0
    queue = list(kinds)
    while queue:
        kind = queue.pop(0)
        species = C.species_of(kind)
        if species is None:
            extra += SPECIAL_COST
            continue
        count = after.get(species, tally[species]) + 1
        if count >= limit:
            return 1000.0
        after[species] = count
        if C.is_royal(kind):
            if top is not None:
                queue.insert(0, top)
                top = None
            else:
                extra += UNKNOWN_PENALTY_COST
    change = sum(_weight(n, limit) - _weight(tally[s], limit) for s, n in after.items())
    return change + extra


def unknown_pool(v: dict[str, Any]) -> Counter[str]:
    """Kinds of the cards this seat cannot place: the deck minus everything it sees."""
    pool = Counter(C.deck_kinds())
    seen = [c["kind"] for c in v["hand"]]
    seen += [c["kind"] for row in v["rows"] for c in row]
    if v["penalty"]["top"]:
        seen.append(v["penalty"]["top"]["kind"])
    pool.subtract(seen)
    return +pool


def _honesty(v: dict[str, Any], seat: int) -> float:
    record = v["honesty"][seat]
    return (record["true_claims"] + 1) / (record["claims"] + 2)


def _claim_for(kind: str, rng: random.Random) -> str:
    true = [c for c in C.CLAIMS if C.is_true(kind, c)]
    if true and rng.random() < HONEST:
        return rng.choice(true)
    false = [c for c in C.CLAIMS if c not in true]
    return rng.choice(false)


def _best(options: list[tuple[float, Any]], rng: random.Random) -> Any:
    top = max(score for score, _ in options)
    return rng.choice([item for score, item in options if score >= top - 1e-9])


def _offer(v: dict[str, Any], seat: int, rng: random.Random) -> Action:
    limit, top = v["limit"], v["penalty"]["top"]
    top_kind = top["kind"] if top else None
    options = []
    costs: dict[tuple[str, int], float] = {}  # a hand holds several cards of a kind

    def cost(kind: str, to: int) -> float:
        if (kind, to) not in costs:
            costs[kind, to] = take_cost(v["row_tallies"][to], [kind], limit, top_kind)
        return costs[kind, to]

    for card in v["hand"]:
        back = cost(card["kind"], seat)
        for to in range(v["players"]):
            if to == seat:
                continue
            harm = cost(card["kind"], to)
            score = 0.5 * min(harm, 50.0) - RETURN_RISK * back + OFFER_SPREAD * rng.random()
            options.append((score, (card, to)))
    card, to = _best(options, rng)
    return {"type": "offer", "card": card["id"], "to": to, "claim": _claim_for(card["kind"], rng)}


def _answer(v: dict[str, Any], seat: int, rng: random.Random, legal: list[Action]) -> Action:
    rnd = v["round"]
    limit, top = v["limit"], v["penalty"]["top"]
    top_kind = top["kind"] if top else None
    mine = v["row_tallies"][seat]
    claim = rnd["claim"]
    pool = unknown_pool(v)
    total = sum(pool.values())
    matching = [k for k in pool.elements() if C.is_true(k, claim)]
    other = [k for k in pool.elements() if not C.is_true(k, claim)]
    base = len(matching) / total if total else 0.5
    h = _honesty(v, rnd["claimer"])
    weight_true = h * base
    weight_false = (1 - h) * (1 - base) / (len(C.CLAIMS) - 1)
    p_true = weight_true / (weight_true + weight_false) if weight_true + weight_false else 0.5

    def avg_cost(kinds: list[str]) -> float:
        if not kinds:
            return 0.0
        each = Counter(kinds)  # the pool holds many copies of few kinds: weigh each kind once
        total = sum(n * take_cost(mine, [k], limit, top_kind) for k, n in each.items())
        return total / len(kinds)

    costs = {
        "true": (1 - p_true) * avg_cost(other),
        "false": p_true * avg_cost(matching),
    }
    if {"type": "peek"} in legal:
        costs["peek"] = RETURN_RISK * avg_cost(matching + other) + 0.3
    choice = min(costs, key=lambda k: (costs[k] + 0.2 * rng.random(), k))
    return {"type": "peek"} if choice == "peek" else {"type": "call", "says": choice}


def _pass(v: dict[str, Any], seat: int, rng: random.Random) -> Action:
    rnd = v["round"]
    kind = rnd["card"]["kind"]
    limit, top = v["limit"], v["penalty"]["top"]
    top_kind = top["kind"] if top else None
    options = [
        (min(take_cost(v["row_tallies"][to], [kind], limit, top_kind), 50.0) + rng.random(), to)
        for to in range(v["players"])
        if to not in rnd["seen"]
    ]
    return {"type": "pass", "to": _best(options, rng), "claim": _claim_for(kind, rng)}


def _name(v: dict[str, Any], seat: int, rng: random.Random, legal: list[Action]) -> Action:
    kinds = {c["id"]: c["kind"] for c in v["hand"]}
    top = v["penalty"]["top"]
    top_kind = top["kind"] if top else None
    mine = v["row_tallies"][seat]
    options = [
        (-take_cost(mine, [kinds[c] for c in a["cards"]], v["limit"], top_kind), a) for a in legal
    ]
    return _best(options, rng)


def decide(v: dict[str, Any], legal: list[Action], rng: random.Random) -> Action:
    seat = v["seat"]
    phase = v["phase"]
    if phase == "offer":
        return _offer(v, seat, rng)
    if phase == "answer":
        return _answer(v, seat, rng, legal)
    if phase == "pass":
        return _pass(v, seat, rng)
    return _name(v, seat, rng, legal)
