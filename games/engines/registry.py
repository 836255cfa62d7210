"""Every playable engine, by slug and rules version. Adding a game = one import and one entry.

``ENGINES`` holds each game's current rules (what new tables get). A game keeps the rules
version it started with: ``get(slug, rules_version)`` returns the engine that plays that
version, or raises :class:`UnknownRulesVersion` when this code no longer (or not yet) has
it, so an old game is never silently played or replayed under other rules.
"""

from __future__ import annotations

from games.engines.cockroach_poker import ENGINE as COCKROACH_POKER
from games.engines.cockroach_poker import for_version as cockroach_poker_version
from games.engines.core import Engine, UnknownRulesVersion
from games.engines.imperador import ENGINE as IMPERADOR
from games.engines.imperador import for_version as imperador_version
from games.engines.mogel_motte import ENGINE as MOGEL_MOTTE
from games.engines.mogel_motte import for_version as mogel_motte_version

_ALL: tuple[Engine, ...] = (
    COCKROACH_POKER,
    IMPERADOR,
    MOGEL_MOTTE,
)

ENGINES: dict[str, Engine] = {engine.slug: engine for engine in _ALL}

# Older rules versions still played by running games (and replayed by finished ones).
VERSIONS: dict[tuple[str, int], Engine] = {
    (engine.slug, engine.rules_version): engine
    for engine in (
        *_ALL,
        cockroach_poker_version(1),
        imperador_version(1),
        mogel_motte_version(1),
    )
}

__all__ = ["ENGINES", "VERSIONS", "UnknownRulesVersion", "get"]


def get(slug: str, rules_version: int | None = None) -> Engine:
    """The engine of ``slug`` at ``rules_version`` (``None``: the current rules)."""
    if rules_version is None:
        try:
            return ENGINES[slug]
        except KeyError:
            raise KeyError(f"unknown game {slug!r}") from None
    if slug not in ENGINES:
        raise KeyError(f"unknown game {slug!r}")
    try:
        return VERSIONS[(slug, rules_version)]
    except KeyError:
        known = sorted(v for s, v in VERSIONS if s == slug)
        raise UnknownRulesVersion(slug, rules_version, known) from None
