"""Turns an engine's view and legal actions into things a generic page can draw and post.

Nothing here knows a particular game: card names come from the view itself (any object with
an ``id`` and a ``kind``/``label``), seat numbers become player names (the game's presentation
says which action fields are seats), and each action type becomes one form (a button, or one
select per field that varies).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from games.catalog.base import Presentation, comma
from games.catalog.registry import GENERIC

BUTTONS_UP_TO = 12


def card_labels(view: Any, presentation: Presentation = GENERIC) -> dict[int, str]:
    labels: dict[int, str] = {}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ident = node.get("id")
            name = node.get("label") or node.get("kind") or node.get("name")
            if isinstance(ident, int) and not isinstance(ident, bool) and isinstance(name, str):
                if not node.get("label") and name == node.get("kind"):
                    name = presentation.word(
                        name
                    )  # a kind is an engine word; a label is already a name
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


def _humanise(text: str, labels: dict[str, Any], presentation: Presentation) -> str:
    """``text`` translated; the view's own label only for a word the site does not know."""
    own = labels.get(text)
    return presentation.word(text, own if isinstance(own, str) else None)


def describe_value(
    name: str,
    value: Any,
    cards: dict[int, str],
    players: list[str],
    words: dict[str, str],
    presentation: Presentation = GENERIC,
) -> str:
    if isinstance(value, bool):
        return _humanise(str(value).lower(), words, presentation)
    if isinstance(value, int):
        if name in presentation.seat_fields and 0 <= value < len(players):
            return players[value]
        if "card" in name and value in cards:
            return cards[value]
        return str(value)
    if isinstance(value, str):
        return _humanise(value, words, presentation)
    if isinstance(value, list):
        return comma().join(
            describe_value(name.rstrip("s"), item, cards, players, words, presentation)
            for item in value
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
    secondary: bool = False  # a move out of turn (the game says which), folded away
    open: bool = False  # a folded move the moment calls for (the game says when)


def action_groups(
    legal: list[dict[str, Any]],
    view: Any,
    players: list[str],
    presentation: Presentation = GENERIC,
) -> list[ActionGroup]:
    """One group per action type, the game's most common move first (a stable sort)."""
    cards = card_labels(view, presentation)
    words = (
        view.get("labels", {})
        if isinstance(view, dict) and isinstance(view.get("labels"), dict)
        else {}
    )
    groups: dict[str, ActionGroup] = {}
    for action in legal:
        kind = action["type"]
        groups.setdefault(
            kind,
            ActionGroup(
                kind,
                _humanise(kind, words, presentation),
                secondary=presentation.is_secondary(kind),
                open=presentation.opens(kind, view if isinstance(view, dict) else {}),
            ),
        )
    for kind, group in groups.items():
        actions = [a for a in legal if a["type"] == kind]
        names = sorted({k for a in actions for k in a if k != "type"})
        if len(actions) <= BUTTONS_UP_TO:
            for action in actions:
                posted = {f"f_{k}": json.dumps(action[k]) for k in names if k in action}
                text = comma().join(
                    describe_value(k, action[k], cards, players, words, presentation)
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
                        encoded,
                        describe_value(name, action[name], cards, players, words, presentation),
                    )
            group.fields.append(FieldChoice(name, sorted(seen.items(), key=lambda item: item[1])))
    return sorted(groups.values(), key=lambda g: presentation.move_rank(g.type))


# A field whose answer is a short list of cards, picked one place at a time (naming two
# cards: up to ~60 ordered pairs): ``f_<field>__1``, ``f_<field>__2``, ... each one card id,
# or empty for none; the list is the non-empty ones in order.
PLACE = "__"


def posted_action(data: Any) -> tuple[dict[str, Any], dict[str, dict[int, int]]] | None:
    """The action a move form describes, legal or not, with the places picked one by one;
    None for a form that cannot describe one (forged)."""
    kind = data.get("type")
    candidate: dict[str, Any] = {"type": kind}
    places: dict[str, dict[int, int]] = {}
    for key in data:
        if not key.startswith("f_"):
            continue
        name, _sep, place = key[2:].rpartition(PLACE)
        try:
            if name and place.isdigit():
                if data[key] != "":
                    places.setdefault(name, {})[int(place)] = int(data[key])
                else:
                    places.setdefault(name, {})
            else:
                candidate[key[2:]] = json.loads(data[key])
        except (TypeError, ValueError):
            return None
    for name, picked in places.items():
        candidate[name] = [picked[place] for place in sorted(picked)]
    return candidate, places


def action_from_post(data: Any, legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The legal action the form describes, or None (a forged or stale form). A list picked
    place by place may also be an answer the rules refuse (one card that does not match the
    claim, the same card twice): it is returned as it is, for the rules to say why."""
    posted = posted_action(data)
    if posted is None:
        return None
    candidate, places = posted
    kind = candidate["type"]
    if candidate in legal:
        return candidate
    built = places and any(
        action["type"] == kind and action.keys() == candidate.keys() for action in legal
    )
    return candidate if built else None
