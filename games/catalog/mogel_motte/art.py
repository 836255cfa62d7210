"""Mogel Motte's card pictures and their names, for the engine's card dicts
(``{"id", "kind", "value"}``) and the Guard Bug (``{"kind": "guard"}``, a marker, not dealt)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import pgettext

from games.catalog.pictures import CardArt
from games.engines.mogel_motte import cards as C

SLUG = "mogel-motte"
GUARD = "guard"


def _kind_names() -> dict[str, str]:
    return {
        C.ANT: pgettext("game", "ant"),
        C.SPIDER: pgettext("game", "spider"),
        C.COCKROACH: pgettext("game", "cockroach"),
        C.MOSQUITO: pgettext("game", "mosquito"),
        C.MOTH: pgettext("game", "cheating moth"),
    }


def face(card: Mapping[str, Any]) -> CardArt:
    kind, value = card.get("kind"), card.get("value")
    if kind == GUARD:
        return CardArt(GUARD, pgettext("card", "Guard Bug"))
    if value not in C.VALUES:
        return back()
    if kind == C.NUMBER:
        name = pgettext("card", "Number %(value)s") % {"value": value}
        return CardArt(f"number_{value}", name, str(value))
    names = _kind_names()
    if kind not in names:
        return back()
    name = pgettext("card", "%(kind)s, value %(value)s") % {
        "kind": capfirst(names[kind]),
        "value": value,
    }
    return CardArt(kind, name, str(value), "moth" if kind == C.MOTH else "action")


def back() -> CardArt:
    return CardArt("back", pgettext("card", "Face-down card"))
