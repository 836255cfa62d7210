"""Imperador's card pictures and their names, for the engine's card dicts
(``{"id", "kind": "number", "value"}`` and ``{"id", "kind": "object", "band", "values"}``) and
its markers (``{"kind": "sheep"}``, ``{"kind": "fox"}``, ``{"kind": "emperor"}``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import pgettext

from games.catalog.pictures import CardArt

SLUG = "imperador"
MAX_VALUE = 12  # six players: values 1..12, bands 1..6
MARKERS = ("sheep", "fox", "emperor")


def _object_names() -> dict[int, str]:
    return {
        1: pgettext("object", "Goblet"),
        2: pgettext("object", "Vase"),
        3: pgettext("object", "Chest"),
        4: pgettext("object", "Scroll"),
        5: pgettext("object", "Ring"),
        6: pgettext("object", "Clock"),
    }


def _marker_names() -> dict[str, str]:
    return {
        "sheep": capfirst(pgettext("game", "sheep")),
        "fox": capfirst(pgettext("game", "fox")),
        "emperor": capfirst(pgettext("game", "emperor")),
    }


def face(card: Mapping[str, Any]) -> CardArt:
    kind = card.get("kind")
    if kind in MARKERS:
        return CardArt(kind, _marker_names()[kind])
    if kind == "number" and card.get("value") in range(1, MAX_VALUE + 1):
        value = card["value"]
        name = pgettext("card", "Number %(value)s") % {"value": value}
        return CardArt(f"number_{value}", name, str(value))
    band = card.get("band")
    if kind == "object" and band in _object_names():
        values = f"{2 * band - 1}–{2 * band}"
        name = pgettext("card", "%(object)s, for %(values)s") % {
            "object": _object_names()[band],
            "values": values,
        }
        return CardArt(f"object_{band}", name, values)
    return back()


def back() -> CardArt:
    return CardArt("back", pgettext("card", "Face-down card"))
