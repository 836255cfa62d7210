"""Draws any engine's view as HTML: cards as chips, per-player lists as rows, the rest as a tree."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.catalog import registry
from games.catalog.base import Presentation
from games.templatetags.tables import render_card

register = template.Library()

HIDDEN_KEYS = {"labels", "claims", "game", "rules_version", "waiting", "seat", "over", "rng"}


def _is_card(node: Any) -> bool:
    return (
        isinstance(node, dict)
        and isinstance(node.get("id"), int)
        and ("kind" in node or "label" in node)
    )


def _word(key: str, ctx: dict[str, Any]) -> str:
    """``key`` translated; the view's own label only for a key the site does not know."""
    own = ctx["words"].get(key)
    presentation: Presentation = ctx["presentation"]
    return presentation.word(key, own if isinstance(own, str) else None)


def _chip(node: dict[str, Any], ctx: dict[str, Any]) -> SafeString:
    """A card drawn where every card is drawn (``games/_card.html``)."""
    return render_card(ctx["presentation"].slug, node)


def _label(key: str, ctx: dict[str, Any]) -> str:
    text = _word(key, ctx)
    return text[:1].upper() + text[1:]


def _render(node: Any, key: str, ctx: dict[str, Any], depth: int) -> SafeString:
    players = ctx["players"]
    if depth > 8:
        return format_html("{}", "…")
    if _is_card(node):
        return _chip(node, ctx)
    if isinstance(node, dict):
        items = [(k, v) for k, v in node.items() if k not in HIDDEN_KEYS]
        if not items:
            return format_html('<span class="muted">{}</span>', "—")
        rows = format_html_join(
            "",
            '<div class="kv"><dt>{}</dt><dd>{}</dd></div>',
            ((_label(k, ctx), _render(v, k, ctx, depth + 1)) for k, v in items),
        )
        return format_html('<dl class="tree">{}</dl>', rows)
    if isinstance(node, list):
        if not node:
            return format_html('<span class="muted">{}</span>', "—")
        if all(_is_card(item) for item in node):
            return format_html(
                '<span class="cards">{}</span>',
                format_html_join("", "{}", ((_chip(c, ctx),) for c in node)),
            )
        if len(node) == len(players) and depth <= 2 and key.endswith("s"):
            rows = format_html_join(
                "",
                "<li><strong>{}</strong>: {}</li>",
                ((players[i], _render(v, key, ctx, depth + 1)) for i, v in enumerate(node)),
            )
            return format_html('<ul class="per-player">{}</ul>', rows)
        return format_html(
            '<ul class="plain">{}</ul>',
            format_html_join("", "<li>{}</li>", ((_render(v, key, ctx, depth + 1),) for v in node)),
        )
    if isinstance(node, bool):
        return format_html("{}", "✓" if node else "✗")
    if isinstance(node, str):
        return format_html("{}", _word(node, ctx))
    if node is None:
        return format_html('<span class="muted">{}</span>', "—")
    return format_html("{}", node)


@register.simple_tag
def board(view: Any, players: list[str], slug: str = "") -> SafeString:
    """The generic board: ``view`` as a tree, words from the game's presentation."""
    words = (
        view.get("labels", {})
        if isinstance(view, dict) and isinstance(view.get("labels"), dict)
        else {}
    )
    ctx = {"words": words, "players": players, "presentation": registry.get(slug)}
    if not isinstance(view, dict):
        return mark_safe("")
    return _render(view, "", ctx, 0)
