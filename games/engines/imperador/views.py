"""What each seat sees, built from an allowlist.

- own hand: ids and values; other hands: counts only, except a fox holder's hand, which is
  public less the cards received from the emperor while holding foxes (those are shown only
  to the holder and to the emperor who gave them, under ``cards_you_gave``);
- the grid: one entry per slot; a face-down object shows its band only once it has been
  turned over (the hint stays); laid objects and pairs are public;
- the current turn: band, asked seats, the hands once the window closed (before that only the
  viewer's own answer), case, shown pair, picks, named value, liars, who passed a card to whom;
- once the game is over, everything, identical for every viewer.
"""

from __future__ import annotations

from typing import Any

from games.engines.core import State, Waiting
from games.engines.imperador.cards import (
    MAX_TURNS,
    band_values,
    card_face,
    hidden_ids,
    object_band,
    sorted_faces,
)
from games.engines.imperador.rules import result_of

_LABELS = {
    "phases": {
        "announce": "The emperor announces a band",
        "hands": "Raise a hand (none in that band) or keep it down",
        "pick": "The emperor picks a player whose hand is down",
        "give": "The emperor gives a card of his choice",
        "name": "The emperor names a value in the band",
        "take": "The emperor takes a card from a caught liar",
        "reveal": "The emperor turns over an object",
        "lay": "The emperor chooses which pair to lay",
        "successor": "The emperor chooses the next emperor",
        "over": "The game is over",
    },
    "hands": {"raised": "raised", "down": "down", "fox": "down (fox)", "emperor": "emperor"},
    "cases": {
        "a": "the emperor holds a pair in the band",
        "b": "two or more hands down",
        "c": "one or no hand down",
    },
}


def labels() -> dict[str, Any]:
    """A fresh copy for each view: a caller changing its view never changes the next one."""
    return {group: dict(words) for group, words in _LABELS.items()}


def seat_view(state: State, s: int, viewer: int | None, over: bool) -> dict[str, Any]:
    hand = state["hands"][s]
    # A fox holder's hand is public less ``hidden``: the cards a fox-free emperor gave them
    # while they held foxes (shown only to the two, under ``cards_you_gave``). An emperor who
    # holds foxes is a fox holder like any other: his hand is public too, so what leaves or
    # enters it is seen by all, and (since rules version 2) ``transfer`` never hides his gifts.
    secret = set(hidden_ids(state, s))
    if over:
        public_cards = list(hand)
    elif state["foxes"][s] > 0:
        public_cards = [c for c in hand if c not in secret]
    else:
        public_cards = []
    gave = [
        e["card"]
        for e in state["hidden"][s]
        if not over and viewer is not None and viewer != s and e["giver"] == viewer
    ]
    return {
        "seat": s,
        "is_emperor": s == state["emperor"],
        "sheep": state["sheep"][s],
        "foxes": state["foxes"][s],
        "hand_count": len(hand),
        "public_cards": sorted_faces(state, public_cards),
        "cards_you_gave": sorted_faces(state, gave),
        "hidden_count": len(hand) - len(public_cards),
        "laid": [
            {
                "object": card_face(state, lay["object"]),
                "cards": sorted_faces(state, lay["cards"]),
            }
            for lay in state["laid"][s]
        ],
    }


def grid_view(state: State, over: bool) -> list[dict[str, Any]]:
    slots = []
    for slot, obj in enumerate(state["grid"]):
        known = obj is not None and (over or state["seen"][slot])
        band = object_band(state, obj) if known else None
        slots.append(
            {
                "slot": slot,
                "status": "laid_away" if obj is None else "face_down",
                "seen": state["seen"][slot],
                "band": band,
                "values": list(band_values(band)) if band else None,
            }
        )
    return slots


def turn_view(state: State, viewer: int | None, over: bool) -> dict[str, Any]:
    turn = state["turn"]
    emperor = state["emperor"]
    band = turn["band"]
    closed = turn["hands"] is not None
    received = None
    if turn["giving"] is not None and (over or viewer == emperor):
        received = card_face(state, turn["giving"]["not"])
    return {
        "band": band,
        "values": list(band_values(band)) if band else None,
        "asked": sorted(turn["asked"]),
        "your_answer": (
            turn["answers"][viewer]
            if not over and viewer is not None and viewer in turn["asked"]
            else None
        ),
        "hands": list(turn["hands"]) if closed else None,
        "case": turn["case"],
        "shown": [card_face(state, c) for c in turn["shown"]],
        "picked": turn["picked"],
        "named": turn["named"],
        "liars": list(turn["liars"]),
        "exchanges": [dict(x) for x in turn["exchanges"]],
        "giving_to": turn["giving"]["to"] if turn["giving"] else None,
        "taking_from": turn["taking_from"],
        "received": received,
        "revealed": dict(turn["revealed"]) if turn["revealed"] else None,
    }


def view(state: State, seat: int | None, waiting: Waiting) -> dict[str, Any]:
    over = state["phase"] == "over"
    players = state["players"]
    viewer = seat if not over and isinstance(seat, int) and 0 <= seat < players else None
    return {
        "game": "imperador",
        "players": players,
        "viewer": viewer,
        "over": over,
        "phase": state["phase"],
        "turn_number": state["turn_number"],
        "max_turns": MAX_TURNS,
        "emperor": state["emperor"],
        "reign": state["reign"],
        "waiting": waiting.to_public_dict(),
        "hand": sorted_faces(state, state["hands"][viewer]) if viewer is not None else None,
        "seats": [seat_view(state, s, viewer, over) for s in range(players)],
        "grid": grid_view(state, over),
        "turn": turn_view(state, viewer, over),
        "result": result_of(state),
        "labels": labels(),
    }
