"""Cockroach Poker Royal's card pictures and their names, for the engine's card dicts
(``{"id", "kind"}``: a species, ``royal_<species>``, ``joker`` or ``blank``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import pgettext

from games.catalog.pictures import CardArt
from games.engines.cockroach_poker import cards as C

SLUG = "cockroach-poker-royal"


def _species_names() -> dict[str, str]:
    return {
        "cockroach": pgettext("creature", "Cockroach"),
        "stink_bug": pgettext("creature", "Stink bug"),
        "rat": pgettext("creature", "Rat"),
        "fly": pgettext("creature", "Fly"),
        "bat": pgettext("creature", "Bat"),
        "toad": pgettext("creature", "Toad"),
        "scorpion": pgettext("creature", "Scorpion"),
    }


def _royal_names() -> dict[str, str]:
    # whole phrases, not "Royal %s": the adjective agrees with the creature in cs, fr, pt
    return {
        "cockroach": pgettext("creature", "Royal cockroach"),
        "stink_bug": pgettext("creature", "Royal stink bug"),
        "rat": pgettext("creature", "Royal rat"),
        "fly": pgettext("creature", "Royal fly"),
        "bat": pgettext("creature", "Royal bat"),
        "toad": pgettext("creature", "Royal toad"),
        "scorpion": pgettext("creature", "Royal scorpion"),
    }


def face(card: Mapping[str, Any]) -> CardArt:
    kind = card.get("kind")
    if kind == C.JOKER:
        return CardArt(
            "joker", pgettext("card", "Joker (every creature)"), pgettext("card", "Joker")
        )
    if kind == C.BLANK:
        return CardArt("blank", pgettext("card", "Blank (nothing)"), pgettext("card", "Blank"))
    species = C.species_of(kind) if isinstance(kind, str) else None
    if species is None:
        return back()
    name = _species_names()[species]
    if C.is_royal(kind):
        return CardArt(kind, _royal_names()[species], name, "royal")
    return CardArt(kind, name, name)


def back() -> CardArt:
    return CardArt("back", pgettext("card", "Face-down card"))
