"""A new-table form makes one table, however often it is sent.

A double click on "Create table", or the form sent again from the back button, made a second
table and sent every invited friend a second invitation. The form carries a key of its own;
the first request to claim it in the shared cache makes the table, and another request with
that key and the same settings is sent to that table (waiting a moment if the first is still
making it). The same page sent with other settings is another table.
"""

from __future__ import annotations

import hashlib
import time
from typing import Any

from django.core.cache import cache

KEEP_SECONDS = 3600  # a form reopened from the back button an hour later still knows its table
WAIT_SECONDS = 5.0  # for the first request of a double click to finish its table
POLL_SECONDS = 0.05


def settings_of(post: Any) -> str:
    """What the form asks for (without its token and key): two sends of one form agree."""
    fields = sorted(
        (name, sorted(post.getlist(name)))
        for name in post
        if name not in ("csrfmiddlewaretoken", "key")
    )
    return hashlib.sha256(repr(fields).encode()).hexdigest()


def _name(user_id: int, key: str) -> str:
    return f"new-table:{user_id}:{hashlib.sha256(key.encode()).hexdigest()[:32]}"


def claim(user_id: int, key: str, asked: str) -> bool:
    """True for the first request with this form's key: it makes the table."""
    return cache.add(_name(user_id, key), {"asked": asked}, KEEP_SECONDS)


def made(user_id: int, key: str, asked: str, game_id: int) -> None:
    cache.set(_name(user_id, key), {"asked": asked, "game": game_id}, KEEP_SECONDS)


def failed(user_id: int, key: str) -> None:
    """The table was refused (the form is shown again with why): the key may try again."""
    cache.delete(_name(user_id, key))


def outcome(user_id: int, key: str, asked: str) -> tuple[str, int | None]:
    """What became of the first request with this key: ("made", its table), ("making", None)
    when it is still at it after WAIT_SECONDS, ("other", None) when it asked for other
    settings, ("failed", None) when it made none (this request may try in its turn)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        found = cache.get(_name(user_id, key))
        if not isinstance(found, dict):
            return "failed", None
        if found.get("asked") != asked:
            return "other", None
        if found.get("game") is not None:
            return "made", int(found["game"])
        if time.monotonic() > deadline:
            return "making", None
        time.sleep(POLL_SECONDS)
