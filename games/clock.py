"""Deadline policy: how long a wait may last at a table's pace.

A deadline belongs to its wait: it is set when the wait opens and only a vacation (of the
seat on turn) or a moderator moves it. Answers inside a window and other players' moves do
not. A turn of a player on vacation waits until they are back, plus the usual time per move;
windows are not extended: they are short, and everybody else is waiting on them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from games.engines.core import Waiting
from games.models import PACE_SECONDS, Game, Pace


def wait_span(game: Game, kind: str) -> int:
    """Seconds a wait of this kind may last at the table's pace (the Live pace while the
    players switched to it, never slower than the table's own)."""
    own = game.window_seconds if kind == "window" else game.move_seconds
    if game.live_since is None:
        return own
    move, window = PACE_SECONDS[Pace.LIVE]
    return min(own, window if kind == "window" else move)


def deadline_for(
    game: Game, waiting: Waiting, opened_at: datetime, seats: Sequence[Any], now: datetime
) -> datetime | None:
    if waiting.kind == "none":
        return None
    start = opened_at
    if waiting.kind == "turn":
        for seat in seats:
            if seat.index == waiting.seats[0] and not seat.is_bot and seat.user is not None:
                away = seat.user.away_until
                if away and away > now:
                    start = max(start, away)
    return start + timedelta(seconds=wait_span(game, waiting.kind))
