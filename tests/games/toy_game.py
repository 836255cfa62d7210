"""A toy fourth game, for tests only: "Pebbles". Each player holds three pebbles (values 1-9)
and drops one per turn, face up; whoever dropped the most in total wins. Before dropping, a
player may whisper its value to the next player (a private event), truthfully or not.

It is a pure engine (the contract in ``games.engines.core``) and a presentation
(``games.catalog.base.Presentation``) that the tests register beside the real games, so the
table, the history and the replay are shown to work for a game no shared module knows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from games.catalog.base import Mark, Presentation, Words
from games.engines.core import (
    Action,
    Event,
    IllegalAction,
    LegalFromList,
    Rng,
    State,
    Waiting,
    private,
    public,
    working_copy,
)

SLUG = "pebbles-toy"
HAND = 3


class Pebbles(LegalFromList):
    slug = SLUG
    start_option = "first_seat"
    start_options = ("first_seat",)
    creator_picks_start = True
    name = "Pebbles"
    bot_asides = False
    window_answers: frozenset[str] = frozenset()  # every wait is a turn
    rules_version = 1
    min_players = 2
    max_players = 3

    def max_moves(self, players: int) -> int:
        return 2 * HAND * players

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        state: State = {"players": players, "rng": Rng.initial(seed), "rules_version": 1}
        values = [Rng(state).randrange(9) + 1 for _ in range(HAND * players)]
        state.update(
            values=values,
            hands=[list(range(s * HAND, (s + 1) * HAND)) for s in range(players)],
            dropped=[[] for _ in range(players)],
            turn=int(options.get("first_seat", 0)) % players,
            whispered=False,
            result=None,
        )
        return state

    def _card(self, state: State, card: int) -> dict[str, Any]:
        return {"id": card, "kind": "pebble", "value": state["values"][card]}

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["result"] is not None or seat != state["turn"]:
            return []
        drops = [{"type": "drop", "card": c} for c in state["hands"][seat]]
        if state["whispered"]:
            return drops
        whispers = [{"type": "whisper", "value": v} for v in (1, 9)]
        return drops + whispers

    def apply(self, state: State, seat: int | None, action: Action) -> tuple[State, list[Event]]:
        if seat is None and action == {"type": "timeout"} and state["result"] is None:
            seat, action = state["turn"], {"type": "drop", "card": state["hands"][state["turn"]][0]}
        if seat is None or action not in self.legal_actions(state, seat):
            raise IllegalAction("not_legal", "That move is not possible now.")
        state = working_copy(state)
        players = state["players"]
        if action["type"] == "whisper":
            state["whispered"] = True
            told = private(
                "whispered", [seat, (seat + 1) % players], seat=seat, value=action["value"]
            )
            return state, [told]
        card = action["card"]
        state["hands"][seat].remove(card)
        state["dropped"][seat].append(card)
        state["whispered"] = False
        events = [public("dropped", seat=seat, card=self._card(state, card))]
        state["turn"] = (seat + 1) % players
        if not any(state["hands"]):
            totals = [sum(state["values"][c] for c in d) for d in state["dropped"]]
            best = max(totals)
            winners = [s for s, t in enumerate(totals) if t == best]
            state["result"] = {
                "winners": winners,
                "losers": [s for s in range(players) if s not in winners],
                "totals": totals,
            }
            events.append(public("pebbles_counted", totals=totals, winners=winners))
        return state, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        over = state["result"] is not None
        return {
            "players": state["players"],
            "turn": state["turn"],
            "over": over,
            "hand": [self._card(state, c) for c in state["hands"][seat]]
            if seat is not None
            else [],
            "hand_counts": [len(h) for h in state["hands"]],
            "dropped": [[self._card(state, c) for c in d] for d in state["dropped"]],
            "result": dict(state["result"]) if over else None,
        }

    def waiting_for(self, state: State) -> Waiting:
        if state["result"] is not None:
            return Waiting.nobody()
        return Waiting.turn(state["turn"], step=sum(len(d) for d in state["dropped"]))

    def result(self, state: State) -> dict[str, Any] | None:
        return dict(state["result"]) if state["result"] is not None else None

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        return self.legal_actions(state, seat)[0]

    def bot_aside(self, state: State, seat: int, rng: random.Random) -> Action | None:
        return None

    def card_zones(self, state: State) -> dict[str, list[int]]:
        zones = {}
        for s in range(state["players"]):
            zones[f"hand_{s}"] = list(state["hands"][s])
            zones[f"dropped_{s}"] = list(state["dropped"][s])
        return zones


def _dropped(d: dict[str, Any], w: Words) -> str:
    return f"{w.name(d['seat'])} dropped a pebble worth {d['card']['value']}."


def _whispered(d: dict[str, Any], w: Words) -> str:
    return f"{w.name(d['seat'])} whispered “{d['value']}”."


class PebblesPresentation(Presentation):
    """What the toy says: two sentences, one word and a bluff mark; the board is generic."""

    slug = SLUG
    words = {"pebble": "pebble stone", "drop": "drop a pebble", "whisper": "whisper a value"}
    sentences = {"dropped": _dropped, "whispered": _whispered}
    round_kinds = frozenset({"dropped"})

    def marks(
        self,
        before: Any,
        seat: int | None,
        action: Mapping[str, Any] | None,
        events: Sequence[Mapping[str, Any]],
        players: Sequence[str],
    ) -> list[Mark]:
        if not action or action.get("type") != "whisper" or seat is None:
            return []
        held = [before["values"][c] for c in before["hands"][seat]]
        if action["value"] in held:
            return []
        return [
            Mark("bluff", f"Bluff: {Words(players, self).name(seat)} holds no {action['value']}.")
        ]


ENGINE = Pebbles()
PRESENTATION = PebblesPresentation()
