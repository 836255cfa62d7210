"""The card pictures every game shares: what a picture is and where its file is.

A game's presentation package has an ``art`` module with ``SLUG``, ``face(card)`` and
``back()``; each returns a :class:`CardArt`. Its presentation names it (``Presentation.art``),
so ``games.catalog.registry.art(slug)`` finds it: nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CardArt:
    file: str  # picture's file name in the game's ``cards/`` folder, without ".svg"
    name: str  # accessible name (translated): what a screen reader says
    label: str = ""  # visible short label (translated), e.g. the value; may be empty
    classes: str = ""  # extra CSS classes, e.g. "royal"


def picture_path(slug: str, art: CardArt) -> str:
    """The picture's path under STATIC_URL."""
    return f"catalog/{slug}/cards/{art.file}.svg"
