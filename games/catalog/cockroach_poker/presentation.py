"""Cockroach Poker Royal as the site shows it: words, sentences, chips, board and replay marks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.catalog.base import CardFace, Mark, Presentation, Words, is_seat, public_events
from games.catalog.cockroach_poker import art as card_art
from games.catalog.cockroach_poker.sentences import REASONS, SENTENCES
from games.catalog.cockroach_poker.words import TITLE, WORDS
from games.engines.cockroach_poker import ENGINE
from games.engines.cockroach_poker import cards as C

ICONS = {
    "cockroach": "🪳",
    "stink_bug": "🪲",
    "rat": "🐀",
    "fly": "🪰",
    "bat": "🦇",
    "toad": "🐸",
    "scorpion": "🦂",
    C.ROYAL: "👑",
    C.JOKER: "🃏",
    C.BLANK: "⬜",
}
# species in the game's order, each royal beside its species, the special cards last
ORDER = {
    **{kind: 2 * i for i, kind in enumerate(C.SPECIES)},
    **{C.royal_kind(kind): 2 * i + 1 for i, kind in enumerate(C.SPECIES)},
    C.JOKER: 100,
    C.BLANK: 101,
    C.ROYAL: 102,
}


def _species(kind: str) -> str:
    return C.species_of(kind) or kind


class CockroachPoker(Presentation):
    slug = ENGINE.slug
    title = TITLE
    art = card_art
    board_template = f"catalog/{ENGINE.slug}/board.html"
    words = WORDS
    sentences = SENTENCES
    reasons = REASONS
    round_kinds = frozenset({"offered"})
    claim_fields = frozenset({"claim"})
    move_order = {"offer": 0, "call": 0, "peek": 1, "pass": 0, "name": 0}
    hints = {
        "offer": gettext_lazy("Pick a card, a claim and a player. The claim may be a lie."),
        "call": gettext_lazy(
            "Is the claim true? Guess right and the one who claimed takes the card."
        ),
        "peek": gettext_lazy(
            "Or look at the card, then pass it on to someone who has not seen it."
        ),
        "pass": gettext_lazy("Pass the card on with a claim, true or not."),
        "name": gettext_lazy("Choose which cards go from your hand into your row."),
    }

    def card_face(self, card: dict[str, Any]) -> CardFace:
        kind = str(card.get("kind", ""))
        royal = C.is_royal(kind)
        species = _species(kind)
        classes = ["card", f"k-{species}"] + (["royal"] if royal else [])
        return CardFace(
            name=self.word(species),
            title=self.card_name(card),
            icon=ICONS.get(species, ""),
            classes=classes,
            crown=royal,
        )

    def card_order(self, card: dict[str, Any]) -> tuple[int, int]:
        return ORDER.get(str(card.get("kind", "")), 50), 0

    def claim_face(self, value: Any) -> str | None:
        if not isinstance(value, str):
            return None
        return format_html(
            '<span class="claim k-{}"><span class="ico" aria-hidden="true">{}</span> {}</span>',
            value,
            ICONS.get(value, ""),
            self.word(value),
        )

    def choice_label(self, field_name: str, value: str, label: str) -> str:
        if field_name == "says" and value in ('"true"', '"false"'):
            return str(_("It is true") if value == '"true"' else _("It is a lie"))
        return super().choice_label(field_name, value, label)

    def board_extras(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Mapping[str, Any]],
        seat: int | None,
        players: Sequence[str],
    ) -> dict[str, Any]:
        raw = view.get("limit")
        limit = raw if is_seat(raw) else 4
        return {
            "rows": [self._row(row, limit) for row in view.get("rows") or []],
            "recent": [
                {"past": past, "text": self.round_sentence(past, players)}
                for past in view.get("recent") or []
            ],
        }

    def _row(self, row: Any, limit: int) -> list[dict[str, Any]]:
        """A row by species, most first; ``danger`` when one more of that species loses."""
        counts: dict[str, dict[str, Any]] = {}
        for node in row if isinstance(row, list) else []:
            if not isinstance(node, dict) or not isinstance(node.get("kind"), str):
                continue
            species = _species(node["kind"])
            entry = counts.setdefault(species, {"species": species, "count": 0, "royals": 0})
            entry["count"] += 1
            entry["royals"] += C.is_royal(node["kind"])
        out = sorted(counts.values(), key=lambda e: (-e["count"], ORDER.get(e["species"], 50)))
        for entry in out:
            danger = entry["count"] >= limit - 1
            entry["card"] = {"kind": entry["species"]}
            marks = ["danger"] if danger else []
            if entry["royals"]:
                marks.append("has-royal")  # a royal among them: a crown after the count
            entry["extra"] = " ".join(marks)
        return out

    def round_sentence(self, past: Any, players: Sequence[str]) -> str:
        """A finished round (``view["recent"]``) told in one sentence."""
        if not isinstance(past, dict):
            return ""
        chain = past.get("chain") or [{}]
        data = {
            "seat": past.get("caller"),
            "says": past.get("says"),
            "claim": chain[-1].get("claim"),
            "card": past.get("card"),
            "right": past.get("right"),
            "taker": past.get("taker"),
        }
        return self.sentence({"kind": "called", "data": data}, players)

    def figures(self, rows: Sequence[Any], seat: int) -> dict[str, int]:
        bluffs = calls_right = 0
        for event in public_events(rows, "called"):
            data = event["data"]
            kind = data["card"]["kind"]
            bluffs += sum(
                1
                for link in data["chain"]
                if link["from"] == seat and not C.is_true(kind, link["claim"])
            )
            calls_right += data["seat"] == seat and data["right"]
        return {"bluffs": bluffs, "calls_right": calls_right}

    def record_figures(self, record: Any) -> list[tuple[str, int]]:
        return [(_("Bluffs"), record.bluffs), (_("Right calls"), record.calls_right)]

    def reveal_view(self, engine: Any, state: Any) -> dict[str, Any]:
        view = super().reveal_view(engine, state)
        rnd = state.get("round")
        if view.get("round") and rnd:  # the card on its way, face up
            view["round"]["card"] = {"id": rnd["card"], "kind": state["kinds"][rnd["card"]]}
        return view

    def marks(
        self,
        before: Any,
        seat: int | None,
        action: Mapping[str, Any] | None,
        events: Sequence[Mapping[str, Any]],
        players: Sequence[str],
    ) -> list[Mark]:
        """An offer or a pass whose claim does not describe the card is a bluff."""
        if not action or action.get("type") not in ("offer", "pass"):
            return []
        if action["type"] == "offer":
            card = action.get("card")
        else:
            card = (before.get("round") or {}).get("card")
        if not is_seat(card):
            return []
        kind = before["kinds"][card]
        claim = action.get("claim")
        if not isinstance(claim, str) or C.is_true(kind, claim):
            return []
        w = Words(players, self)
        text = _("Bluff: %(name)s claimed “%(claim)s”; it was %(card)s.") % {
            "name": w.name(seat),
            "claim": self.word(claim),
            "card": w.card({"kind": kind}),
        }
        return [Mark("bluff", text)]


PRESENTATION = CockroachPoker()
