"""Cockroach Poker Royal (slug ``cockroach-poker-royal``); see engine.py for the readings."""

from games.engines.cockroach_poker.engine import ENGINE

__all__ = ["ENGINE"]
