"""A move kept across a login (games/pending.py): the table's move forms show it chosen again."""

from __future__ import annotations

import json
from typing import Any

from django import template

register = template.Library()


def _same(posted: Any, kept: Any) -> bool:
    """Two posted field values mean the same (each is the JSON of a value; spacing may differ)."""
    try:
        return json.loads(str(posted)) == json.loads(str(kept))
    except (TypeError, ValueError):
        return str(posted) == str(kept)


@register.simple_tag
def prefilled(pending: Any, move_type: str, field: str, value: Any, attribute: str) -> str:
    """`` checked`` / `` selected`` on the option the kept move had chosen, else nothing."""
    if not pending or pending.get("type") != move_type:
        return ""
    kept = pending.get(f"f_{field}")
    return f" {attribute}" if kept is not None and _same(value, kept) else ""


@register.simple_tag
def prefilled_button(pending: Any, move_type: str, posted: dict[str, Any]) -> str:
    """`` pending`` (a class) on the button that sends the kept move, else nothing."""
    if not pending or pending.get("type") != move_type:
        return ""
    kept = {k: v for k, v in pending.items() if k.startswith("f_")}
    if kept.keys() != posted.keys():
        return ""
    return " pending" if all(_same(posted[k], kept[k]) for k in kept) else ""


@register.simple_tag
def prefilled_place(pending: Any, move_type: str, field: str, place: int, value: Any) -> str:
    """`` checked`` on a card picked for a place of a list field (``f_<field>__<place>``) in
    the kept move; ``value``: the ids the choice stands for (one chip a kind: any of them was
    the pick), or "" for the place left empty, checked too when nothing is kept."""
    kept = None
    if pending and pending.get("type") == move_type:
        kept = pending.get(f"f_{field}__{place}")
    if value == "":
        return " checked" if not kept else ""
    ids = value if isinstance(value, list | tuple) else [value]
    return " checked" if kept and any(_same(ident, kept) for ident in ids) else ""
