"""The table's history log in words: one readable, translated sentence per engine event.

``sentence(slug, event, players)`` asks the game's presentation (``games.catalog``) for the
sentence of an event as the viewer may see it (``{"kind", "data"}``, already filtered by
``selectors.events_for``), with seats as names, never numbers. Event kinds are the game's:
two games may use the same kind for different things, so no kind is looked up here.
A kind a game does not tell falls back to its humanised name and its data.

Whether an event was a secret while the game ran comes from the engine's own audience
(``Event.to``, stored with each event; ``selectors`` passes it on as ``secret``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.catalog import registry
from games.catalog.base import join

__all__ = ["is_minor", "is_secret", "join", "reason_text", "sentence"]


def sentence(slug: str, event: Mapping[str, Any], players: Sequence[str]) -> str:
    """One sentence for ``event`` of the game ``slug`` with seats named from ``players``."""
    return registry.get(slug).sentence(event if isinstance(event, Mapping) else {}, players)


def reason_text(slug: str, reason: Any) -> str:
    """How a game of ``slug`` ended, in words."""
    return registry.get(slug).reason_text(reason)


def is_minor(slug: str, event: Mapping[str, Any]) -> bool:
    """A routine event the log shows in small print."""
    return registry.get(slug).is_minor(event)


def is_secret(event: Mapping[str, Any]) -> bool:
    """Whether only some seats saw the event while the game ran (its engine audience)."""
    if "to" in event:
        return event["to"] is not None
    return bool(event.get("secret"))
