"""The deadline sweeper: applies every due deadline, one game per short transaction.

Due games are claimed with ``SELECT … FOR UPDATE SKIP LOCKED``, so sweepers running side by
side (and a move holding a game's lock) never wait on each other. A game whose deadline fails
is retried with backoff and flagged for staff after a few failures; it never stops the others.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet
from django.utils import timezone

from games.models import Game
from games.services import bot_time
from games.services.play import apply_bot_moment, apply_deadline

log = logging.getLogger(__name__)

FLAG_AFTER_FAILURES = 3  # the admin lists these games as stuck
MAX_BACKOFF_SECONDS = 3600
MOMENT_RETRY_SECONDS = 60  # a bots' moment that failed is tried again this much later
SWEEP_BUDGET_SECONDS = 45.0  # less than the beat's expiry: a sweep never overlaps itself for long


def _deadline_due(now: datetime) -> Q:
    return Q(deadline_at__lte=now) & (Q(sweep_after__isnull=True) | Q(sweep_after__lte=now))


def _moment_lost(now: datetime) -> Q:
    # a moment is taken by its countdown task at its own time; the sweep takes only those
    # whose task was lost, never one on its beat (bot_time)
    return Q(bots_at__lte=now - timedelta(seconds=bot_time.MOMENT_GRACE_SECONDS))


def due_games(now: datetime | None = None) -> QuerySet[Game]:
    """Active games with a deadline due (and not backing off), or a bots' moment overdue."""
    now = now or timezone.now()
    return Game.objects.filter(_deadline_due(now) | _moment_lost(now), status=Game.Status.ACTIVE)


def backoff(failures: int) -> timedelta:
    return timedelta(seconds=min(MAX_BACKOFF_SECONDS, 10 * 2 ** max(0, failures - 1)))


def sweep_due(budget_seconds: float = SWEEP_BUDGET_SECONDS) -> int:
    """Applies due deadlines (and lost bots' moments) until none is left or the budget is
    spent, then hands the bots' coming moments to their countdown tasks; returns how many
    deadlines it applied."""
    applied = 0
    seen: set[int] = set()
    stop_at = time.monotonic() + budget_seconds
    while time.monotonic() < stop_at:
        with transaction.atomic():
            now = timezone.now()
            claimed = (
                due_games(now)
                .exclude(pk__in=seen)
                .select_for_update(skip_locked=True, no_key=True)
                # healthy games first: a game that keeps failing never delays the others
                .order_by("sweep_failures", "deadline_at")
                # which of the two made it due, read with the claim
                .annotate(deadline=ExpressionWrapper(_deadline_due(now), BooleanField()))
                .values_list("pk", "deadline")
                .first()
            )
            if claimed is None:
                break
            game_id, deadline_due = claimed
            seen.add(game_id)
            # each its own savepoint, its own failure: a failing moment never holds back a
            # deadline, nor the other way round
            if deadline_due:
                try:
                    applied += apply_deadline(game_id)
                except Exception:
                    log.exception("deadline of game %s failed", game_id)
                    _record_failure(game_id)
            try:
                apply_bot_moment(game_id, overdue=timedelta(seconds=bot_time.MOMENT_GRACE_SECONDS))
            except Exception:
                log.exception("the bots' moment of game %s failed", game_id)
                Game.objects.filter(pk=game_id).update(
                    bots_at=timezone.now() + timedelta(seconds=MOMENT_RETRY_SECONDS)
                )
    bot_time.coming_moments(timezone.now())
    return applied


def _record_failure(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    failures = game.sweep_failures + 1
    Game.objects.filter(pk=game_id).update(
        sweep_failures=failures, sweep_after=timezone.now() + backoff(failures)
    )
