"""Thin Celery wrappers: deadlines live in PostgreSQL; these only call the services.

Deadline tasks run on the ``deadlines`` queue, emails on ``email`` (config.settings routes
them), so a slow mail server never delays a deadline.
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from games import services
from games.errors import GameNotFound


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=55, time_limit=60)
def sweep_expired_deadlines() -> int:
    """Beat: applies every expired deadline. Running it twice is harmless (each wait once)."""
    return services.sweep_due()


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=25, time_limit=30)
def apply_deadline(game_id: int, wait_seq: int) -> bool:
    """Fast path for short waits; does nothing if the game has moved on to another wait."""
    try:
        return services.apply_deadline(game_id, wait_seq)
    except GameNotFound:  # deleted since (a superuser, in the admin): nothing to time out
        return False


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=25, time_limit=30)
def bot_moment(game_id: int, at: str) -> bool:
    """Fast path for a bots' moment that is soon; does nothing once the game drew another."""
    try:
        return services.apply_bot_moment(game_id, datetime.fromisoformat(at))
    except GameNotFound:  # deleted since
        return False


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=55, time_limit=60)
def send_reminders() -> int:
    """Beat: one reminder per wait at about 80% of the allowed time."""
    return services.send_due_reminders()


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=25, time_limit=30)
def check_live_pace() -> int:
    """Beat: a table at the Live pace whose players left falls back to its own pace."""
    return services.live_check_all()


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=55, time_limit=60)
def expire_unstarted_tables() -> int:
    """Beat, every minute: tables nobody started in UNSTARTED_TABLE_DAYS are cancelled, and the
    creators of those in their last day are told (twice is harmless: each happens once)."""
    services.warn_unstarted_tables()
    return services.expire_unstarted_tables()
