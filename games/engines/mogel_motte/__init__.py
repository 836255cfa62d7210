"""Mogel Motte (Cheating Moth). See ``engine`` for the readings of the rules."""

from games.engines.mogel_motte.engine import MogelMotte

ENGINE = MogelMotte()


def for_version(rules_version: int) -> MogelMotte:
    """The engine that starts (and replays) games under an older rules version."""
    return MogelMotte(rules_version)


__all__ = ["ENGINE", "MogelMotte", "for_version"]
