"""Cockroach Poker Royal's card pictures and their names, for the engine's card dicts
(``{"id", "kind"}``: a species, ``royal_<species>``, ``joker`` or ``blank``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import pgettext

from games.catalog.pictures import CardArt
from games.engines.cockroach_poker import cards as C

SLUG = "cockroach-poker-royal"


def _name(kind: str) -> str:
    # the game's own words (msgctxt "game", pinned by locale/GLOSSARY.md), as a name
    words = {
        "cockroach": pgettext("game", "cockroach"),
        "stink_bug": pgettext("game", "stink bug"),
        "rat": pgettext("game", "rat"),
        "fly": pgettext("game", "fly"),
        "bat": pgettext("game", "bat"),
        "toad": pgettext("game", "toad"),
        "scorpion": pgettext("game", "scorpion"),
        "royal_cockroach": pgettext("game", "royal cockroach"),
        "royal_stink_bug": pgettext("game", "royal stink bug"),
        "royal_rat": pgettext("game", "royal rat"),
        "royal_fly": pgettext("game", "royal fly"),
        "royal_bat": pgettext("game", "royal bat"),
        "royal_toad": pgettext("game", "royal toad"),
        "royal_scorpion": pgettext("game", "royal scorpion"),
        "joker": pgettext("game", "joker (every creature)"),
        "blank": pgettext("game", "blank (nothing)"),
    }
    return capfirst(words[kind])


def face(card: Mapping[str, Any]) -> CardArt:
    kind = card.get("kind")
    if kind == C.JOKER:
        return CardArt(kind, _name(kind), pgettext("card", "Joker"))
    if kind == C.BLANK:
        return CardArt(kind, _name(kind), pgettext("card", "Blank"))
    if not isinstance(kind, str):
        return back()
    species = C.species_of(kind)
    if species is None:
        return back()
    return CardArt(kind, _name(kind), _name(species), "royal" if C.is_royal(kind) else "")


def back() -> CardArt:
    return CardArt("back", pgettext("card", "Face-down card"))
