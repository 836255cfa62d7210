"""``{% card game_slug card %}`` and ``{% card_back game_slug %}``: a card's picture with its
accessible name and a visible short label, drawn by the game's own art module (found from
the slug, so this module names no game)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.utils.safestring import SafeString

from games.catalog import registry
from games.catalog.pictures import CardArt, picture_path

register = template.Library()


def _render(slug: str, art: CardArt) -> SafeString:
    return render_to_string(
        "games/_card_face.html", {"art": art, "src": static(picture_path(slug, art))}
    )


@register.simple_tag
def card(game_slug: str, card: Mapping[str, Any] | None = None, **fields: Any) -> SafeString:
    """The face of ``card`` (an engine card dict); a back when the card is hidden (``None``).
    A page without a card dict names the fields instead: ``{% card slug kind="…" %}``."""
    module = registry.art(game_slug)
    card = card or fields or None
    return _render(game_slug, module.face(card) if card else module.back())


@register.simple_tag
def card_back(game_slug: str) -> SafeString:
    return _render(game_slug, registry.art(game_slug).back())
