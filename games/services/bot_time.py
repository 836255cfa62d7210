"""When bots act of their own accord: moments of their own, never inside someone else's change.

What a bot must do (its turn, a window only bots still owe, everything at a deadline) it does
in the change that asks for it, as a person on the other end of a notification would. What a
bot *may* do (answer a race or a slap before the humans have, slip a card up its sleeve,
accuse) it does at a **moment**: a change of its own at a random time, holding one bot action
and what the bots then owe, exactly the shape of a person's out-of-turn move. Done inside
other changes, such moves told the table who made them: a bot's cheat was never the first row
of its change while a person's always was, and a bot's public race inside a person's secret
decline showed everybody that someone had just declined (review of 2026-12-01).

A game holds its next moment in ``Game.bots_at`` (partial index ``game_bots_due``). Every
moment is taken by a countdown task at its own time, never on the sweeper's beat (a moment's
rows are stamped with the time it is taken: on the beat, their seconds would say "a bot"). A
moment drawn within ``COUNTDOWN_AT_DRAW_SECONDS`` gets its task when it is drawn; a later one
when the sweep sees it coming (``coming_moments``; long countdowns are a trap with the Redis
broker's visibility timeout). The sweep itself takes only a moment overdue by
``MOMENT_GRACE_SECONDS``: its task was lost.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.core.cache import cache

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
COUNTDOWN_AT_DRAW_SECONDS = 300
# The sweep hands the moments due within this to countdown tasks ...
MOMENT_LOOKAHEAD_SECONDS = 30
# ... and takes a moment itself only once it is overdue by this (its task was lost).
MOMENT_GRACE_SECONDS = 30


def new_rng() -> random.Random:
    """The bots' randomness in the change path (the delays, the bot drawn, its choices): one
    place, so a test can make a run reproducible."""
    return random.Random()


def has_people(seats: Sequence[Any]) -> bool:
    return any(not s.is_bot and s.user_id is not None for s in seats)


def bots_owe_window(waiting: Waiting | None, bots: set[int]) -> bool:
    """A window some bot still owes. At a table with people (``has_people``) the bots answer
    it at their moment, even once no person owes it (answering in the last person's change
    would stamp a public race with the time of a secret decline)."""
    return (
        waiting is not None and waiting.kind == "window" and any(s in bots for s in waiting.seats)
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
    if game.status != Game.Status.ACTIVE or waiting is None or not bots or not has_people(seats):
        return None  # a table of bots only is played out by its deadlines (play._play_out)
    turn_span = clock.wait_span(game, "turn")
    if current is not None and current > now + timedelta(seconds=ASIDE_DELAY[1] * turn_span):
        current = None  # drawn at a slower pace (the table went Live since): too far now
    moments = [current] if current is not None else []
    if bots_owe_window(waiting, bots) and (
        window_opened
        or current is None
        or current > now + timedelta(seconds=WINDOW_DELAY_CAP_SECONDS)
    ):
        share = rng.uniform(*WINDOW_DELAY) * clock.wait_span(game, "window")
        moments.append(now + timedelta(seconds=min(share, WINDOW_DELAY_CAP_SECONDS)))
    if engine.bot_asides and current is None:
        moments.append(now + timedelta(seconds=rng.uniform(*ASIDE_DELAY) * turn_span))
    return min(moments) if moments else None


def _task_key(game_id: int, at: datetime) -> str:
    return f"bot-moment:{game_id}:{at.isoformat()}"


def schedule(game_id: int, at: datetime, seconds: float) -> None:
    """The countdown task that takes this moment at its time; once per moment (a second one
    would do nothing, as would one for a moment the game no longer holds)."""
    if not cache.add(_task_key(game_id, at), 1, COUNTDOWN_AT_DRAW_SECONDS + 60):
        return
    try:
        current_app.send_task(
            "games.tasks.bot_moment",
            args=(game_id, at.isoformat()),
            countdown=seconds + 0.2,
            queue="deadlines",
        )
    except Exception:  # the broker being down loses nothing: the sweeper catches up
        log.warning("could not schedule the bots' moment of game %s", game_id)


def coming_moments(now: datetime) -> int:
    """The sweep's look ahead: a countdown task for each moment due within
    MOMENT_LOOKAHEAD_SECONDS (those drawn nearer have theirs already: ``schedule`` sends one
    per moment). Returns how many were looked at."""
    coming = Game.objects.filter(
        status=Game.Status.ACTIVE,
        bots_at__gt=now,
        bots_at__lte=now + timedelta(seconds=MOMENT_LOOKAHEAD_SECONDS),
    ).values_list("pk", "bots_at")
    count = 0
    for game_id, at in coming:
        assert at is not None  # bots_at__gt excludes a game without one
        schedule(game_id, at, (at - now).total_seconds())
        count += 1
    return count
