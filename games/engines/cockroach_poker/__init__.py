"""Cockroach Poker Royal (slug ``cockroach-poker-royal``); see engine.py for the readings."""

from games.engines.cockroach_poker.engine import ENGINE, for_version

__all__ = ["ENGINE", "for_version"]
