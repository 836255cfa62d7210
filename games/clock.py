"""Deadline policy: how long a turn or a reaction window may take at a table's pace.

A turn of a player on vacation waits until they are back, plus the usual time per move.
Windows are not extended: they are short, and everybody else is waiting on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.engines.core import Waiting
from games.models import Game


def next_deadline(
    game: Game, waiting: Waiting, now: datetime | None = None, seats: Sequence[Any] | None = None
) -> datetime | None:
    if waiting.kind == "none":
        return None
    now = now or timezone.now()
    if waiting.kind == "window":
        return now + timedelta(seconds=game.window_seconds)
    start = now
    for seat in seats if seats is not None else game.seats.select_related("user"):
        if seat.index == waiting.seats[0] and not seat.is_bot and seat.user is not None:
            away = seat.user.away_until
            if away and away > now:
                start = away
    return start + timedelta(seconds=game.move_seconds)
