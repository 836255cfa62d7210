"""Turns an engine's view and legal actions into things a generic page can draw and post.

Nothing here knows a particular game: card names come from the view itself (any object with
an ``id`` and a ``kind``/``label``), seat numbers become player names, and each action type
becomes one form (a button, or one select per field that varies).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games.labels import word

SEAT_FIELDS = {
    "to",
    "target",
    "seat",
    "player",
    "receiver",
    "successor",
    "emperor",
    "victim",
    "from",
    "whom",
}
BUTTONS_UP_TO = 12


def card_labels(view: Any) -> dict[int, str]:
    labels: dict[int, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ident = node.get("id")
            name = node.get("label") or node.get("kind") or node.get("name")
            if isinstance(ident, int) and not isinstance(ident, bool) and isinstance(name, str):
                if not node.get("label") and name == node.get("kind"):
                    name = word(name)  # a kind is an engine word; a label is already a name
                value = node.get("value")
                labels[ident] = (
                    f"{name} {value}" if isinstance(value, int) and str(value) not in name else name
                )
            for child in node.values():
                walk(child)
        elif isinstance(node, list):
            for child in node:
                walk(child)

    walk(view)
    return labels


def _humanise(text: str, labels: dict[str, Any]) -> str:
    """``text`` translated; the view's own label only for a word the site does not know."""
    own = labels.get(text)
    return word(text, own if isinstance(own, str) else None)


def describe_value(
    name: str, value: Any, cards: dict[int, str], players: list[str], words: dict[str, str]
) -> str:
    if isinstance(value, bool):
        return _humanise(str(value).lower(), words)
    if isinstance(value, int):
        if name in SEAT_FIELDS and 0 <= value < len(players):
            return players[value]
        if "card" in name and value in cards:
            return cards[value]
        return str(value)
    if isinstance(value, str):
        return _humanise(value, words)
    if isinstance(value, list):
        return ", ".join(
            describe_value(name.rstrip("s"), item, cards, players, words) for item in value
        )
    return json.dumps(value)


@dataclass
class FieldChoice:
    name: str
    options: list[tuple[str, str]] = field(default_factory=list)  # (json value, label)


@dataclass
class ActionGroup:
    type: str
    label: str
    buttons: list[tuple[dict[str, str], str]] = field(
        default_factory=list
    )  # (posted fields, label)
    fields: list[FieldChoice] = field(default_factory=list)


def action_groups(legal: list[dict[str, Any]], view: Any, players: list[str]) -> list[ActionGroup]:
    cards = card_labels(view)
    words = (
        view.get("labels", {})
        if isinstance(view, dict) and isinstance(view.get("labels"), dict)
        else {}
    )
    groups: dict[str, ActionGroup] = {}
    for action in legal:
        kind = action["type"]
        groups.setdefault(kind, ActionGroup(kind, _humanise(kind, words)))
    for kind, group in groups.items():
        actions = [a for a in legal if a["type"] == kind]
        names = sorted({k for a in actions for k in a if k != "type"})
        if len(actions) <= BUTTONS_UP_TO:
            for action in actions:
                posted = {f"f_{k}": json.dumps(action[k]) for k in names if k in action}
                text = ", ".join(
                    describe_value(k, action[k], cards, players, words)
                    for k in names
                    if k in action
                )
                group.buttons.append((posted, text or group.label))
            continue
        for name in names:
            seen: dict[str, str] = {}
            for action in actions:
                if name in action:
                    encoded = json.dumps(action[name])
                    seen.setdefault(
                        encoded, describe_value(name, action[name], cards, players, words)
                    )
            group.fields.append(FieldChoice(name, sorted(seen.items(), key=lambda item: item[1])))
    return list(groups.values())


def action_from_post(data: Any, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The legal action the form describes, or None (a forged or stale form)."""
    kind = data.get("type")
    candidate: dict[str, Any] = {"type": kind}
    for key in data:
        if key.startswith("f_"):
            try:
                candidate[key[2:]] = json.loads(data[key])
            except (TypeError, ValueError):
                return None
    return candidate if candidate in legal else None
