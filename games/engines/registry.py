"""Every playable engine, by slug. Adding a game = one import and one entry here."""

from __future__ import annotations

from games.engines.cockroach_poker import ENGINE as COCKROACH_POKER
from games.engines.core import Engine
from games.engines.imperador import ENGINE as IMPERADOR
from games.engines.mogel_motte import ENGINE as MOGEL_MOTTE

_ALL: tuple[Engine, ...] = (
    COCKROACH_POKER,
    IMPERADOR,
    MOGEL_MOTTE,
)

ENGINES: dict[str, Engine] = {engine.slug: engine for engine in _ALL}


def get(slug: str) -> Engine:
    try:
        return ENGINES[slug]
    except KeyError:
        raise KeyError(f"unknown game {slug!r}") from None
