"""Thin Celery wrappers: deadlines live in PostgreSQL; these only call the services."""

from __future__ import annotations

import logging

from celery import shared_task

from games import services

log = logging.getLogger(__name__)


@shared_task(acks_late=True, ignore_result=True)
def sweep_expired_deadlines() -> int:
    """Beat: applies every expired deadline. Running it twice is harmless (version check)."""
    applied = 0
    for game_id, version in services.expired_game_ids():
        try:
            applied += services.apply_deadline(game_id, version)
        except Exception:
            log.exception("deadline of game %s failed", game_id)
    return applied


@shared_task(acks_late=True, ignore_result=True)
def apply_deadline(game_id: int, version: int) -> bool:
    """Fast path for seconds-long waits; does nothing if the game moved on."""
    return services.apply_deadline(game_id, version)


def schedule_deadline(game_id: int, version: int, seconds: float) -> None:
    try:
        apply_deadline.apply_async((game_id, version), countdown=seconds + 0.2)
    except Exception:  # the broker being down must not lose a move: the sweeper catches up
        log.warning(
            "could not schedule the deadline of game %s; the sweeper will apply it", game_id
        )


@shared_task(acks_late=True, ignore_result=True)
def send_reminders() -> int:
    """Beat: one reminder per wait at about 80% of the allowed time."""
    from games.services.notify import send_due_reminders

    return send_due_reminders()
