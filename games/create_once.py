"""A new-table form makes one table, however often it is sent.

A double click on "Create table", or the form sent again from the back button, made a second
table and sent every invited friend a second invitation. The form carries a key of its own;
the first request to claim it in the shared cache makes the table, and another request with
that key and the same settings is sent to that table (waiting a moment if the first is still
making it; if the first was refused, the next tries in its turn). The same page sent with
other settings is another table, guarded the same way.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.core.cache import cache

KEEP_SECONDS = 3600  # a form reopened from the back button an hour later still knows its table
WAIT_SECONDS = 5.0  # for the first request of a double click to finish its table
POLL_SECONDS = 0.05
MAKING = 0


def settings_of(post: Any) -> str:
    """What the form asks for (without its token and key): two sends of one form agree."""
    fields = sorted(
        (name, sorted(post.getlist(name)))
        for name in post
        if name not in ("csrfmiddlewaretoken", "key")
    )
    return hashlib.sha256(repr(fields).encode()).hexdigest()


def _name(user_id: int, key: str, asked: str) -> str:
    # the settings are part of the name: the same page sent with other settings (back to the
    # form after a table) is another table, guarded in its turn
    digest = hashlib.sha256(f"{key}\n{asked}".encode()).hexdigest()[:32]
    return f"new-table:{user_id}:{digest}"


def claim(user_id: int, key: str, asked: str) -> bool:
    """True for the first request with this form's key and settings: it makes the table."""
    return cache.add(_name(user_id, key, asked), MAKING, KEEP_SECONDS)


def made(user_id: int, key: str, asked: str, game_id: int) -> None:
    cache.set(_name(user_id, key, asked), game_id, KEEP_SECONDS)


def failed(user_id: int, key: str, asked: str) -> None:
    """The table was refused (the form is shown again with why): the key may try again."""
    cache.delete(_name(user_id, key, asked))


def outcome(user_id: int, key: str, asked: str) -> tuple[str, int | None]:
    """What became of the request that claimed this key and settings: ("made", its table),
    ("making", None) when it is still at it after WAIT_SECONDS, ("failed", None) when it made
    none (this request may claim it in its turn)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = cache.get(_name(user_id, key, asked))
        if found is None:
            return "failed", None
        if found != MAKING:
            return "made", int(found)
        if time.monotonic() > deadline:
            return "making", None
        time.sleep(POLL_SECONDS)
