"""The card pictures every game shares: what a picture is, and where a game's art module is.

A game's presentation package has an ``art`` module with ``SLUG``, ``face(card)`` and
``back()``; each returns a :class:`CardArt`. Nothing here names a game: the art module of a
slug is found by asking each package (see :func:`art_module`, the one place to redirect to a
registry).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache
from types import ModuleType

import games.catalog


@dataclass(frozen=True)
class CardArt:
    file: str  # picture's file name in the game's ``cards/`` folder, without ".svg"
    name: str  # accessible name (translated): what a screen reader says
    label: str = ""  # visible short label (translated), e.g. the value; may be empty
    classes: str = ""  # extra CSS classes, e.g. "royal"


@cache
def _art_modules() -> dict[str, ModuleType]:
    found = {}
    for info in pkgutil.iter_modules(games.catalog.__path__):
        if not info.ispkg:
            continue
        try:
            module = importlib.import_module(f"games.catalog.{info.name}.art")
        except ModuleNotFoundError as missing:
            if missing.name != f"games.catalog.{info.name}.art":
                raise  # a broken art module must not pass for a game without pictures
            continue
        found[module.SLUG] = module
    return found


def art_module(slug: str) -> ModuleType:
    """The art module of the game ``slug`` (``KeyError`` for a game without pictures)."""
    return _art_modules()[slug]


def picture_path(slug: str, art: CardArt) -> str:
    """The picture's path under STATIC_URL."""
    return f"catalog/{slug}/cards/{art.file}.svg"
