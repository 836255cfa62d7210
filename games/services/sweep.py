"""The deadline sweeper: applies every due deadline, one game per short transaction.

Due games are claimed with ``SELECT … FOR UPDATE SKIP LOCKED``, so sweepers running side by
side (and a move holding a game's lock) never wait on each other. A game whose deadline fails
is retried with backoff and flagged for staff after a few failures; it never stops the others.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.models import Game
from games.services.play import apply_bot_moment, apply_deadline

log = logging.getLogger(__name__)

FLAG_AFTER_FAILURES = 3  # the admin lists these games as stuck
MAX_BACKOFF_SECONDS = 3600
SWEEP_BUDGET_SECONDS = 45.0  # less than the beat's expiry: a sweep never overlaps itself for long


def due_games():
    """Active games with a deadline or a bots' moment due."""
    now = timezone.now()
    return Game.objects.filter(
        Q(deadline_at__lte=now) | Q(bots_at__lte=now), status=Game.Status.ACTIVE
    ).filter(Q(sweep_after__isnull=True) | Q(sweep_after__lte=now))


def backoff(failures: int) -> timedelta:
    return timedelta(seconds=min(MAX_BACKOFF_SECONDS, 10 * 2 ** max(0, failures - 1)))


def sweep_due(budget_seconds: float = SWEEP_BUDGET_SECONDS) -> int:
    """Applies due deadlines until none is left (or the budget is spent); returns how many."""
    applied = 0
    seen: set[int] = set()
    stop_at = time.monotonic() + budget_seconds
    while time.monotonic() < stop_at:
        with transaction.atomic():
            game_id = (
                due_games()
                .exclude(pk__in=seen)
                .select_for_update(skip_locked=True, no_key=True)
                # healthy games first: a game that keeps failing never delays the others
                .order_by("sweep_failures", "deadline_at")
                .values_list("pk", flat=True)
                .first()
            )
            if game_id is None:
                break
            seen.add(game_id)
            try:
                # each its own savepoint: a failure rolls back
                applied += apply_deadline(game_id)
                apply_bot_moment(game_id)
            except Exception:
                log.exception("deadline of game %s failed", game_id)
                _record_failure(game_id)
    return applied


def _record_failure(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    failures = game.sweep_failures + 1
    Game.objects.filter(pk=game_id).update(
        sweep_failures=failures, sweep_after=timezone.now() + backoff(failures)
    )
