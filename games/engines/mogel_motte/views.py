"""What each seat may see, built from an allowlist.

While the game runs a seat sees the public table (counts that include sleeves, the discard
pile, the guard, scores, anonymous fidget notices, public window facts) and its own hand,
sleeve, fallen cards and window answer. Nobody sees another seat's hand or sleeve, the draw
pile's contents, the floor, who has answered a race or slap window, or a gift choice.
Once the game is over every seat (and a spectator) gets the same full view.
"""

from __future__ import annotations

from typing import Any

from games.engines.core import State, Waiting
from games.engines.mogel_motte import rules
from games.engines.mogel_motte.cards import KINDS, LABELS, PENALTY, decode

_ORDER = {kind: i for i, kind in enumerate(KINDS)}


def _cards(state: State, cards: list[int]) -> list[dict[str, Any]]:
    # rules.face, inlined: the discard pile makes this the view's hot loop
    kinds, values = decode(state["deck"])
    return [{"id": c, "kind": kinds[c], "value": values[c]} for c in cards]


def _sorted(state: State, cards: list[int]) -> list[dict[str, Any]]:
    kinds, values = decode(state["deck"])
    ranked = sorted(cards, key=lambda c: (_ORDER[kinds[c]], values[c], c))
    return _cards(state, ranked)


def _labels() -> dict[str, Any]:
    return {
        "kinds": dict(LABELS),
        "penalty": dict(PENALTY),
        "phases": {
            "play": "Play a card one above or below the top card, or draw",
            "spider": "Spider: give a non-moth card to another player",
            "race": "Cockroach race",
            "slap": "Mosquito: slap!",
            "gift": "Mosquito: gifts for the slowest",
            "over": "Game over",
        },
    }


def _public_window(state: State) -> dict[str, Any] | None:
    window = state["window"]
    phase = state["phase"]
    if phase == "spider":
        return {"name": "spider", "by": state["active"]}
    if phase == "race":
        return {"name": "race", "by": window["by"], "value": window["value"]}
    if phase == "slap":
        return {"name": "slap", "by": window["by"], "asked": list(window["asked"])}
    if phase == "gift":
        return {
            "name": "gift",
            "by": window["by"],
            "receiver": window["receiver"],
            "givers": list(window["asked"]),
        }
    return None


def _own_answer(state: State, seat: int) -> Any:
    window = state["window"]
    phase = state["phase"]
    if phase == "race":
        return "declined" if seat in window["declined"] else None
    if phase == "slap":
        return "slapped" if seat in window["slapped"] else None
    if phase == "gift" and window["chosen"][seat] is not None:
        return {"gift": rules.face(state, window["chosen"][seat])}
    return None


def _table(state: State, waiting: Waiting) -> dict[str, Any]:
    players = state["players"]
    return {
        "game": "mogel-motte",
        "players": players,
        "round": state["round"],
        "rounds": state["rounds"],
        "turn": state["turn"],
        "turn_limit": rules.TURN_LIMIT,
        "phase": state["phase"],
        "active": state["active"],
        "guard": state["guard"],
        "starting_guard": state["starting_guard"],
        "waiting": waiting.to_public_dict(),
        "window": _public_window(state),
        "top": rules.face(state, state["discard"][-1]),
        "discard": _cards(state, state["discard"]),
        "draw_count": len(state["draw"]),
        "floor_count": sum(len(f) for f in state["floor"]),
        "seats": [
            {
                "seat": s,
                "count": rules.count(state, s),
                "score": state["scores"][s],
                "guard": s == state["guard"],
                "active": s == state["active"],
            }
            for s in range(players)
        ],
        "scores": list(state["scores"]),
        "round_scores": [
            {**r, "scores": list(r["scores"]), "out": list(r["out"])} for r in state["round_scores"]
        ],
        # When and under which guard each notice came, and who was active then: all public
        # (the table saw it happen); never who fidgeted.
        "fidgets": [
            {"n": f["n"], "turn": f["turn"], "active": f["active"], "guard": f["guard"]}
            for f in state["fidgets"]
        ],
        "fidget_count": state["fidget_count"],
        "last_accusation": None
        if state["last_accusation"] is None
        else {
            k: state["last_accusation"][k]
            for k in ("turn", "guard", "target", "right", "after_fidget")
        },
        "labels": _labels(),
    }


def view(state: State, seat: int | None, waiting: Waiting, result: Any) -> dict[str, Any]:
    table = _table(state, waiting)
    if state["phase"] == "over":
        players = state["players"]
        table.update(
            over=True,
            result=result,
            hands=[_sorted(state, state["hands"][s]) for s in range(players)],
            sleeves=[
                None if state["sleeves"][s] is None else rules.face(state, state["sleeves"][s])
                for s in range(players)
            ],
            floor=[_cards(state, state["floor"][s]) for s in range(players)],
            draw=_cards(state, state["draw"]),
        )
        return table
    table["over"] = False
    if seat is not None:
        sleeve = state["sleeves"][seat]
        table["you"] = {
            "seat": seat,
            "hand": _sorted(state, state["hands"][seat]),
            "sleeve": None if sleeve is None else rules.face(state, sleeve),
            "sleeve_falls_after_turn": None if sleeve is None else state["slipped"][seat] + 1,
            "floor": _cards(state, state["floor"][seat]),
            "answer": _own_answer(state, seat),
            "is_guard": seat == state["guard"],
        }
    return table
