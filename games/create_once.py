"""A new-table form makes one table, however often it is sent.

A double click on "Create table", or the form sent again from the back button, made a second
table and sent every invited friend a second invitation. The form carries a key of its own;
the first request to claim it in the shared cache makes the table, and any other request with
that key is sent to that table (waiting a moment if the first is still making it).
"""

from __future__ import annotations

import time

from django.core.cache import cache

KEEP_SECONDS = 3600  # a form reopened from the back button an hour later still knows its table
WAIT_SECONDS = 5.0  # for the first request of a double click to finish its table
POLL_SECONDS = 0.05
MAKING = 0


def _name(user_id: int, key: str) -> str:
    return f"new-table:{user_id}:{key}"


def claim(user_id: int, key: str) -> bool:
    """True for the first request with this form's key: it makes the table."""
    return cache.add(_name(user_id, key), MAKING, KEEP_SECONDS)


def made(user_id: int, key: str, game_id: int) -> None:
    cache.set(_name(user_id, key), game_id, KEEP_SECONDS)


def failed(user_id: int, key: str) -> None:
    """The table was refused (the form is shown again with why): the key may try again."""
    cache.delete(_name(user_id, key))


def table_made(user_id: int, key: str) -> int | None:
    """The table the first request with this key made; None if it made none (in time)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = cache.get(_name(user_id, key))
        if found is None or found != MAKING:
            return found
        if time.monotonic() > deadline:
            return None
        time.sleep(POLL_SECONDS)
