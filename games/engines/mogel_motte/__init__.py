"""Mogel Motte (Cheating Moth). See ``engine`` for the readings of the rules."""

from games.engines.mogel_motte.engine import MogelMotte

ENGINE = MogelMotte()

__all__ = ["ENGINE", "MogelMotte"]
