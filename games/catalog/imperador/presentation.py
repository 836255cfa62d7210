"""Imperador as the site shows it: words, sentences, chips, board and replay marks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.catalog.base import (
    CardFace,
    Mark,
    Presentation,
    Words,
    comma,
    is_seat,
    public_events,
)
from games.catalog.imperador import art as card_art
from games.catalog.imperador.sentences import REASONS, SENTENCES, band
from games.catalog.imperador.words import TITLE, WORDS
from games.engines.imperador import ENGINE
from games.engines.imperador import cards as C

NUMBER, OBJECT = "number", "object"  # the engine's two card kinds (cards.card_face)


class Imperador(Presentation):
    slug = ENGINE.slug
    title = TITLE
    art = card_art
    board_template = f"catalog/{ENGINE.slug}/board.html"
    seat_fields = Presentation.seat_fields | {"successor", "emperor", "victim"}
    words = WORDS
    sentences = SENTENCES
    reasons = REASONS
    minor_kinds = frozenset({"turn_started", "hands_window_opened"})
    round_kinds = frozenset({"turn_started"})
    deal_starts_round = True
    move_order = dict.fromkeys(
        ("hand", "announce", "pick", "give", "name", "take", "reveal", "lay", "successor"), 0
    )
    hints = {
        "hand": gettext_lazy(
            "Raise a hand: “I hold no card in that band” — or keep it down. Lying is allowed."
        ),
        "announce": gettext_lazy("Announce a band of two values."),
        "pick": gettext_lazy(
            "Pick a player whose hand is down: you take a random card from them, then give "
            "them a card of your choice."
        ),
        "take": gettext_lazy("Take a card from the caught liar."),
        "reveal": gettext_lazy("Turn over an object."),
        "lay": gettext_lazy("Choose the pair to lay on the object."),
        "successor": gettext_lazy("Choose the next emperor."),
        "name": gettext_lazy(
            "Name a value in the band: you receive one copy from a player who holds it; "
            "from each other caught liar you take a card of your choice."
        ),
        "give": gettext_lazy("Give a card of your choice (not the one you just received)."),
    }

    def hint(
        self, kind: str, view: Mapping[str, Any] | None = None, players: Sequence[str] = ()
    ) -> str:
        turn = (view or {}).get("turn") or {}
        taking_from = turn.get("taking_from")
        if kind == "take" and is_seat(taking_from) and taking_from < len(players):
            # a public fact (the emperor named the liar aloud), said where the move is made
            return _("Take a card from %(name)s, caught lying.") % {"name": players[taking_from]}
        received = (turn.get("received") or {}).get("value")
        if kind == "give" and is_seat(received):
            # "not the one you just received" beside a "2" button read as forbidding the 2
            # already held (play-through review): the card is said by its value
            held = sum(
                1
                for card in (view or {}).get("hand") or []
                if card.get("kind") == NUMBER and card.get("value") == received
            )
            if held > 1:
                return _(
                    "Give a card of your choice: any but the %(value)s you just received "
                    "(your other %(value)s may go)."
                ) % {"value": received}
            return _("Give a card of your choice: any but the %(value)s you just received.") % {
                "value": received
            }
        return super().hint(kind, view, players)

    def card_name(self, card: Any) -> str:
        if isinstance(card, dict) and card.get("kind") == OBJECT:
            values = card.get("values")
            if isinstance(values, list) and len(values) == 2:
                return _("object %(band)s") % {"band": band(values)}
        if isinstance(card, dict) and card.get("kind") == NUMBER and is_seat(card.get("value")):
            return str(card["value"])
        return super().card_name(card)

    def card_face(self, card: dict[str, Any]) -> CardFace:
        face = super().card_face(card)
        value = card.get("value")
        if card.get("kind") == NUMBER:
            face.name = ""  # the value says it
            if is_seat(value) and value > 0:
                face.classes.append(f"b{C.band_of(value)}")
        elif card.get("kind") == OBJECT:
            face.icon = "🏺"
            values = card.get("values")
            if isinstance(values, list) and len(values) == 2:
                face.name, face.ltr = f"{values[0]}–{values[1]}", True
        return face

    def choice_label(self, field_name: str, value: str, label: str) -> str:
        if field_name == "slot" and label.isdigit():
            return str(_("object %(n)s") % {"n": int(label) + 1})
        if field_name == "band" and label.isdigit():
            return band(list(C.band_values(int(label))))  # isolated, as in the history
        if field_name == "choice" and value in ('"raise"', '"down"'):
            return ("✋ " if value == '"raise"' else "✊ ") + label
        return super().choice_label(field_name, value, label)

    def board_extras(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Mapping[str, Any]],
        seat: int | None,
        players: Sequence[str],
    ) -> dict[str, Any]:
        seen: dict[int, int] = {}
        for card in view.get("hand") or []:
            if card.get("kind") == NUMBER and is_seat(card.get("value")):
                seen[card["value"]] = seen.get(card["value"], 0) + 1
        return {"pairs": sorted(v for v, n in seen.items() if n >= 2)}

    def figures(self, rows: Sequence[Any], seat: int) -> dict[str, int]:
        caught = sum(seat in e["data"]["seats"] for e in public_events(rows, "liars_caught"))
        return {"lies_caught": caught}

    def record_figures(self, record: Any) -> list[tuple[str, int]]:
        return [(_("Caught lying"), record.lies_caught)]

    def reveal_view(self, engine: Any, state: Any) -> dict[str, Any]:
        view = super().reveal_view(engine, state)
        for slot in view.get("grid") or []:  # every object face up
            obj = state["grid"][slot["slot"]]
            if obj is not None and not slot.get("values"):
                slot["band"] = C.object_band(state, obj)
                slot["values"] = list(C.band_values(slot["band"]))
        return view

    def marks(
        self,
        before: Any,
        seat: int | None,
        action: Mapping[str, Any] | None,
        events: Sequence[Mapping[str, Any]],
        players: Sequence[str],
    ) -> list[Mark]:
        """A raised hand while holding a value of the band is a bluff."""
        if not action or action.get("type") != "hand" or action.get("choice") != "raise":
            return []
        if not is_seat(seat) or not is_seat(before["turn"].get("band")):
            return []
        low, high = C.band_values(before["turn"]["band"])
        held = [v for v in (low, high) if C.copies_in(before, before["hands"][seat], v)]
        if not held:
            return []
        w = Words(players, self)
        text = _("Bluff: %(name)s raised a hand holding %(values)s.") % {
            "name": w.name(seat),
            "values": comma().join(str(v) for v in held),
        }
        return [Mark("bluff", text)]


PRESENTATION = Imperador()
