"""What each seat may see, built from an allowlist; and where every card is."""

from __future__ import annotations

from typing import Any

from games.engines.cockroach_poker import cards as C
from games.engines.cockroach_poker import rules as R
from games.engines.core import State, Waiting


def waiting_for(state: State) -> Waiting:
    if state["result"] is not None:
        return Waiting.nobody()
    # An offer, an answer (with its peek and pass) and a naming are separate turns, even when
    # the same seat plays them one after another (a wrong call: the caller offers next).
    phase = "answer" if state["phase"] == "pass" else state["phase"]
    return Waiting.turn(state["active"], step=(state["offers"], phase))


def result(state: State) -> dict[str, Any] | None:
    """A fresh copy: a caller changing it never changes the state."""
    res = state["result"]
    if res is None:
        return None
    return {k: list(v) if isinstance(v, list) else v for k, v in res.items()}


def card_zones(state: State) -> dict[str, list[int]]:
    zones: dict[str, list[int]] = {}
    for seat in range(state["players"]):
        zones[f"hand_{seat}"] = list(state["hands"][seat])
        zones[f"row_{seat}"] = list(state["rows"][seat])
    zones["penalty_pile"] = list(state["penalty"])
    zones["in_transit"] = [state["round"]["card"]] if state["round"] else []
    # cards named after a special card but not yet in the row (only if the game ended
    # in between: "the game ends as soon as a row reaches the limit")
    zones["named_not_placed"] = [
        c for task in state["tasks"] if task["kind"] == "place" for c in task["cards"]
    ]
    return zones


def _cards(state: State, ids: list[int]) -> list[dict[str, Any]]:
    return [R.card_out(state, c) for c in ids]


def _tally(state: State, seat: int) -> dict[str, int]:
    tally = dict.fromkeys(C.SPECIES, 0)
    kinds = state["kinds"]
    for card in state["rows"][seat]:
        species = C.species_of(kinds[card])
        assert species is not None  # rows never hold special cards
        tally[species] += 1
    return tally


def _chain(chain: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"from": link["from"], "to": link["to"], "claim": link["claim"]} for link in chain]


def _past_round(past: dict[str, Any], reveal: bool) -> dict[str, Any]:
    out = {
        "number": past["number"],
        "offerer": past["offerer"],
        "chain": _chain(past["chain"]),
        "seen": list(past["seen"]),
        "card": {"kind": past["kind"]},
        "caller": past["caller"],
        "says": past["says"],
        "right": past["right"],
        "taker": past["taker"],
    }
    if reveal or not C.is_special(past["kind"]):
        out["card"] = {"id": past["card"], "kind": past["kind"]}
    return out


def _round(state: State, seat: int | None, reveal: bool) -> dict[str, Any] | None:
    rnd = state["round"]
    if rnd is None:
        return None
    last = rnd["chain"][-1]
    sees = reveal or (seat is not None and seat in rnd["seen"])
    return {
        "number": rnd["number"],
        "offerer": rnd["offerer"],
        "chain": _chain(rnd["chain"]),
        "seen": list(rnd["seen"]),
        "receiver": last["to"],
        "claim": last["claim"],
        "claimer": last["from"],
        "receiver_peeked": state["phase"] == "pass",
        "must_call": state["phase"] == "answer" and not R.may_peek(state),
        "card": R.card_out(state, rnd["card"]) if sees else None,
    }


def _naming(state: State) -> dict[str, Any] | None:
    if state["phase"] != "name":
        return None
    task = state["tasks"][-1]
    return {
        "seat": state["taker"],
        "special": task["special"],
        "claim": task["claim"],
        "source": task["source"],
    }


def view(state: State, seat: int | None) -> dict[str, Any]:
    over = state["result"] is not None
    n = state["players"]
    out: dict[str, Any] = {
        "game": R.GAME,
        "rules_version": state["rules_version"],
        "players": n,
        "first": state["first"],
        "limit": state["limit"],
        "phase": state["phase"],
        "turn": state["active"],
        "waiting": waiting_for(state).to_public_dict(),
        "hand_counts": [len(h) for h in state["hands"]],
        "rows": [_cards(state, row) for row in state["rows"]],
        "row_tallies": [_tally(state, s) for s in range(n)],
        "penalty": {"top": R.top_card(state), "size": len(state["penalty"])},
        "round": _round(state, seat, over),
        "naming": _naming(state),
        "offers": state["offers"],
        "offer_limit": C.OFFER_LIMIT,
        "honesty": [dict(record) for record in state["honesty"]],
        "claims": list(C.CLAIMS),
        "labels": dict(C.LABELS),
        "over": over,
    }
    if over:
        out.update(
            hands=[_cards(state, h) for h in state["hands"]],
            penalty_pile=_cards(state, state["penalty"]),
            named_not_placed=_cards(state, card_zones(state)["named_not_placed"]),
            recent=[_past_round(p, True) for p in state["recent"]],
            result=result(state),
        )
        return out
    out["seat"] = seat
    out["hand"] = _cards(state, state["hands"][seat]) if seat is not None else []
    out["recent"] = [_past_round(p, False) for p in state["recent"]]
    return out
