"""When bots act of their own accord: moments of their own, never inside someone else's change.

What a bot must do (its turn, a window only bots still owe, everything at a deadline) it does
in the change that asks for it, as a person on the other end of a notification would. What a
bot *may* do (answer a race or a slap before the humans have, slip a card up its sleeve,
accuse) it does at a **moment**: a change of its own at a random time, holding one bot action
and what the bots then owe, exactly the shape of a person's out-of-turn move. Done inside
other changes, such moves told the table who made them: a bot's cheat was never the first row
of its change while a person's always was, and a bot's public race inside a person's secret
decline showed everybody that someone had just declined (review of 2026-12-01).

A game holds its next moment in ``Game.bots_at`` (partial index ``game_bots_due``). The
deadline sweeper applies due moments; a moment within ``FAST_PATH_SECONDS`` also gets a
countdown task, like a short deadline.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from celery import current_app

from games import clock
from games.engines.core import Engine, Waiting
from games.models import Game

log = logging.getLogger(__name__)

# A window some bots and some people still owe: a bot answers after this share of the
# window's time (a person's reaction; at the Live pace's 15 s: 0.75 to 5 s) ...
WINDOW_DELAY = (0.05, 0.35)
# ... and never later than this, whatever the pace: a window is a live moment.
WINDOW_DELAY_CAP_SECONDS = 20.0
# Asides: the next one may come at any time within a turn's span at the table's pace.
ASIDE_DELAY = (0.05, 1.0)


def owed_window(waiting: Waiting | None, bots: set[int]) -> bool:
    """A window that bots and people still owe: the bots' answers wait for their moment."""
    return (
        waiting is not None
        and waiting.kind == "window"
        and any(s in bots for s in waiting.seats)
        and any(s not in bots for s in waiting.seats)
    )


def next_moment(
    game: Game,
    engine: Engine,
    waiting: Waiting | None,
    seats: Sequence[Any],
    now: datetime,
    *,
    current: datetime | None,
    window_opened: bool,
    rng: random.Random,
) -> datetime | None:
    """The game's next bots' moment after a change: ``current`` (the one already drawn, None
    once taken) kept, or an earlier one for a window that just opened, or a new one."""
    bots = {s.index for s in seats if s.is_bot}
    people = any(not s.is_bot and s.user_id is not None for s in seats)
    if game.status != Game.Status.ACTIVE or waiting is None or not bots or not people:
        return None  # a table of bots only is played out by its deadlines (play._play_out)
    moments = [current] if current is not None else []
    if owed_window(waiting, bots) and (window_opened or current is None):
        share = rng.uniform(*WINDOW_DELAY) * clock.wait_span(game, "window")
        moments.append(now + timedelta(seconds=min(share, WINDOW_DELAY_CAP_SECONDS)))
    if engine.bot_asides and current is None:
        moments.append(
            now + timedelta(seconds=rng.uniform(*ASIDE_DELAY) * clock.wait_span(game, "turn"))
        )
    return min(moments) if moments else None


def schedule(game_id: int, at: datetime, seconds: float) -> None:
    """The fast path: a countdown task for this moment (the sweeper is the source of truth)."""
    try:
        current_app.send_task(
            "games.tasks.bot_moment",
            args=(game_id, at.isoformat()),
            countdown=seconds + 0.2,
            queue="deadlines",
        )
    except Exception:  # the broker being down loses nothing: the sweeper catches up
        log.warning("could not schedule the bots' moment of game %s", game_id)
