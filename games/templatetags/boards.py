"""Draws any engine's view as HTML: cards as chips, per-player lists as rows, the rest as a tree."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from games.labels import word
from games.presenters import card_labels

register = template.Library()

HIDDEN_KEYS = {"labels", "claims", "game", "rules_version", "waiting", "seat", "over", "rng"}
# Keys whose integer lists are physical cards (used by the staff/replay view of raw states).
CARD_LIST_KEYS = {
    "hand",
    "hands",
    "row",
    "rows",
    "pile",
    "penalty",
    "penalty_pile",
    "sleeve",
    "sleeves",
    "draw",
    "draw_pile",
    "discard",
    "floor",
    "cards",
    "deck",
    "grid",
    "objects",
    "laid",
}


def _is_card(node: Any) -> bool:
    return (
        isinstance(node, dict)
        and isinstance(node.get("id"), int)
        and ("kind" in node or "label" in node)
    )


def _word(key: str, words: dict[str, Any]) -> str:
    """``key`` translated; the view's own label only for a key the site does not know."""
    own = words.get(key)
    return word(key, own if isinstance(own, str) else None)


def _chip(node: dict[str, Any], words: dict[str, str]) -> SafeString:
    kind = node.get("kind", "?")
    name = node.get("label") or (_word(kind, words) if isinstance(kind, str) else kind)
    value = node.get("value")
    extra = f" {value}" if isinstance(value, int) and str(value) not in str(name) else ""
    royal = " royal" if node.get("royal") else ""
    return format_html(
        '<span class="card{}" data-kind="{}">{}{}</span>', royal, node.get("kind", ""), name, extra
    )


def _label(key: str, words: dict[str, str]) -> str:
    text = _word(key, words)
    return text[:1].upper() + text[1:]


def _render(node: Any, key: str, ctx: dict[str, Any], depth: int) -> SafeString:
    words, players, cards = ctx["words"], ctx["players"], ctx["cards"]
    if depth > 8:
        return format_html("{}", "…")
    if _is_card(node):
        return _chip(node, words)
    if isinstance(node, dict):
        items = [(k, v) for k, v in node.items() if k not in HIDDEN_KEYS]
        if not items:
            return format_html('<span class="muted">{}</span>', "—")
        rows = format_html_join(
            "",
            '<div class="kv"><dt>{}</dt><dd>{}</dd></div>',
            ((_label(k, words), _render(v, k, ctx, depth + 1)) for k, v in items),
        )
        return format_html('<dl class="tree">{}</dl>', rows)
    if isinstance(node, list):
        if not node:
            return format_html('<span class="muted">{}</span>', "—")
        if all(_is_card(item) for item in node):
            return format_html(
                '<span class="cards">{}</span>',
                format_html_join("", "{}", ((_chip(c, words),) for c in node)),
            )
        if ctx["raw"] and key in CARD_LIST_KEYS and all(isinstance(i, int) for i in node):
            return format_html(
                '<span class="cards">{}</span>',
                format_html_join(
                    "", '<span class="card">{}</span>', ((cards.get(i, f"#{i}"),) for i in node)
                ),
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
        return format_html("{}", _word(node, words))
    if node is None:
        return format_html('<span class="muted">{}</span>', "—")
    return format_html("{}", node)


@register.simple_tag
def board(view: Any, players: list[str], raw: bool = False, labels_from: Any = None) -> SafeString:
    words = (
        view.get("labels", {})
        if isinstance(view, dict) and isinstance(view.get("labels"), dict)
        else {}
    )
    ctx = {
        "words": words,
        "players": players,
        "cards": card_labels(labels_from or view),
        "raw": raw,
    }
    if not isinstance(view, dict):
        return mark_safe("")
    return _render(view, "", ctx, 0)
