"""Every game's presentation, by slug. Adding a game = one import and one entry here.

A slug with no presentation of its own (a game being written, a test's toy game) gets the
generic one: the tree board, words with spaces for underscores, sentences from the data.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.catalog.base import Presentation
from games.catalog.cockroach_poker.presentation import PRESENTATION as COCKROACH_POKER
from games.catalog.imperador.presentation import PRESENTATION as IMPERADOR
from games.catalog.mogel_motte.presentation import PRESENTATION as MOGEL_MOTTE

PRESENTATIONS: dict[str, Presentation] = {
    p.slug: p for p in (COCKROACH_POKER, IMPERADOR, MOGEL_MOTTE)
}
GENERIC = Presentation()


def get(slug: str) -> Presentation:
    """The presentation of ``slug``; the generic one for a game that registers none."""
    return PRESENTATIONS.get(slug, GENERIC)


def title(slug: str) -> Any:
    """The game's name, translated when it is read (a lazy string: a notice built for a
    Persian reader says it in Persian); the engine's own name for a game without one."""
    own = get(slug).title
    if own:
        return own
    from games.engines.registry import ENGINES  # pure module

    engine = ENGINES.get(slug)
    return engine.name if engine else slug


def art(slug: str) -> Any:
    """The art module of ``slug`` (``KeyError`` for a game without pictures)."""
    module = get(slug).art
    if module is None:
        raise KeyError(slug)
    return module


def start_drawn_message(slug: str) -> str:
    """The refusal when a table of a game whose rules draw who starts asks to pick it."""
    return _("In %(game)s, who starts is always drawn at random.") % {"game": title(slug)}
