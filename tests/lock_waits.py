"""Crossings made deterministic: a test holds a lock in one thread, starts the request that
must queue behind it in another, and lets the first go only once PostgreSQL shows the second
waiting (or the second has finished without needing the lock)."""

from __future__ import annotations

import threading
import time

from django.db import connection, connections

POLL_SECONDS = 0.05


def waiting_for_a_lock() -> int:
    """How many connections to the test database wait for a lock now."""
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
            [connection.settings_dict["NAME"]],
        )
        return cursor.fetchone()[0]


def until_queued(
    thread: threading.Thread | None = None, waiting: int = 1, polls: int = 100
) -> None:
    """Returns once ``waiting`` connections wait for a lock, or ``thread`` has finished (it
    needed no lock), or after ``polls`` looks 50 ms apart: the caller's assertions say which."""
    for _poll in range(polls):
        if (thread is not None and not thread.is_alive()) or waiting_for_a_lock() >= waiting:
            return
        time.sleep(POLL_SECONDS)
