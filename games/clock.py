"""Deadline policy: how long a turn or a reaction window may take at a table's pace."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.engines.core import Waiting
from games.models import Game


def next_deadline(game: Game, waiting: Waiting, now: datetime | None = None) -> datetime | None:
    if waiting.kind == "none":
        return None
    seconds = game.window_seconds if waiting.kind == "window" else game.move_seconds
    return (now or timezone.now()) + timedelta(seconds=seconds)
