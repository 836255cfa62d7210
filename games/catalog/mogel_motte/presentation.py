"""Mogel Motte as the site shows it: words, sentences, chips, board and replay marks."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.catalog.base import CardFace, Mark, Presentation, Words, is_seat, public_events
from games.catalog.mogel_motte import art as card_art
from games.catalog.mogel_motte.sentences import SENTENCES
from games.catalog.mogel_motte.words import TITLE, WORDS
from games.engines.mogel_motte import ENGINE
from games.engines.mogel_motte import cards as C

ICONS = {C.ANT: "🐜", C.COCKROACH: "🪳", C.MOSQUITO: "🦟", C.SPIDER: "🕷️", C.MOTH: "🦋"}
ORDER = {kind: i for i, kind in enumerate(C.KINDS)}


def open_fidgets(view: Mapping[str, Any]) -> int:
    """The fidget notices whose card may still be up a sleeve: those still catchable, less the
    one a right accusation after them caught (public: the card came back in the open). Only
    the last accusation is in the view; several right ones in one turn leave a notice shown."""
    fidgets = view.get("fidgets") or []
    last = view.get("last_accusation")
    caught = bool(last and last["right"] and any(f["n"] <= last["after_fidget"] for f in fidgets))
    return max(0, len(fidgets) - caught)


class MogelMotte(Presentation):
    slug = ENGINE.slug
    title = TITLE
    art = card_art
    board_template = f"catalog/{ENGINE.slug}/board.html"
    seat_fields = Presentation.seat_fields | {"guard", "slowest", "winner"}
    words = WORDS
    sentences = SENTENCES
    minor_kinds = frozenset({"turn_started", "drew"})
    round_kinds = frozenset({"round_started"})
    deal_starts_round = True
    # the turn's move first; cheating and accusing come after it, folded away
    move_order = {
        "play": 0,
        "draw": 1,
        "give": 0,
        "race": 0,
        "decline": 1,
        "slap": 0,
        "gift": 0,
        "cheat": 5,
        "accuse": 6,
    }
    secondary_moves = frozenset({"cheat", "accuse"})
    # "1 → Alice" read as giving Alice a 1 (live review): the accusation comes first
    player_first = {"accuse": gettext_lazy("Accuse %(name)s, hand over")}
    hints = {
        "play": gettext_lazy("Play a card one above or one below the top card."),
        "draw": gettext_lazy("You cannot play: draw a card."),
        "give": gettext_lazy("Give a card of your choice."),
        "race": gettext_lazy("Lay a plain number card of that value — first one wins."),
        "decline": gettext_lazy("Stay out of the race."),
        "slap": gettext_lazy("Slap! The slowest gets a card from everyone."),
        "gift": gettext_lazy("Choose the card to give (not a moth)."),
        "cheat": gettext_lazy(
            "Slip a card up your sleeve. It falls to the floor after the next turn."
        ),
        "accuse": gettext_lazy(
            "Accuse someone of cheating, and choose the card you would hand over."
        ),
    }

    def opens(self, kind: str, view: Mapping[str, Any]) -> bool:
        return kind == "accuse" and open_fidgets(view) > 0  # a card may be up a sleeve now

    def card_name(self, card: Any) -> str:
        if isinstance(card, dict) and card.get("kind") == C.NUMBER and is_seat(card.get("value")):
            return str(card["value"])
        return super().card_name(card)

    def card_face(self, card: dict[str, Any]) -> CardFace:
        face = super().card_face(card)
        kind = card.get("kind")
        face.icon = ICONS.get(str(kind), "")
        if kind == C.NUMBER:
            face.name = ""  # the value says it
        return face

    def card_order(self, card: dict[str, Any]) -> tuple[int, int]:
        value = card.get("value")
        return ORDER.get(str(card.get("kind")), 50), value if is_seat(value) else 0

    def board_extras(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Mapping[str, Any]],
        seat: int | None,
        players: Sequence[str],
    ) -> dict[str, Any]:
        top = (view.get("top") or {}).get("value")
        # what may go on the pile next, by the engine's own rule: one below, then one above
        after = (
            sorted(
                (v for v in C.VALUES if C.adjacent(v, top)),
                key=lambda v: -((v - top) % 5),
            )
            if is_seat(top)
            else []
        )
        return {
            "open_fidgets": open_fidgets(view),
            # the cards the seat may play now, as its legal actions say
            "playable": {a["card"] for a in legal if a.get("type") == "play" and "card" in a},
            "next": after,
            "next_text": _("%(low)s or %(high)s") % {"low": after[0], "high": after[1]}
            if len(after) == 2
            else "",
        }

    def figures(self, rows: Sequence[Any], seat: int) -> dict[str, int]:
        cheats = sum(1 for row in rows if row.seat == seat and row.action.get("type") == "cheat")
        caught = sum(
            1
            for e in public_events(rows, "accused")
            if e["data"]["target"] == seat and e["data"]["right"]
        )
        return {"cheats_caught": caught, "cheats_uncaught": max(0, cheats - caught)}

    def record_figures(self, record: Any) -> list[tuple[str, int]]:
        return [
            (_("Cheats unseen"), record.cheats_uncaught),
            (_("Cheats caught"), record.cheats_caught),
        ]

    def own_cards(self, seat_view: Mapping[str, Any]) -> list[Any]:
        you = seat_view.get("you") or {}
        cards = list(you.get("hand") or [])
        if you.get("sleeve"):
            cards.append(you["sleeve"])
        return cards

    def marks(
        self,
        before: Any,
        seat: int | None,
        action: Mapping[str, Any] | None,
        events: Sequence[Mapping[str, Any]],
        players: Sequence[str],
    ) -> list[Mark]:
        """A card up the sleeve is a cheat, told when it was slipped."""
        w = Words(players, self)
        return [
            Mark(
                "cheat",
                _("Cheat: %(name)s slipped %(card)s up their sleeve.")
                % {"name": w.name(e["data"].get("seat")), "card": w.card(e["data"].get("card"))},
            )
            for e in events
            if e.get("kind") == "slipped"
        ]


PRESENTATION = MogelMotte()
