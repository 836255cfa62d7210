"""After a commit, tell every socket watching a game (or a player's lists) that it changed.
Never send the state: each consumer renders what its own user may see."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def user_group_name(user_id: int) -> str:
    return f"user-{user_id}"


def notify_game_changed(
    game_id: int, revision: int, seats: list[int] | None = None, version: int = 0
) -> None:
    """``seats``: only these seats could observe the change (None: everybody); the other
    sockets stay silent, so a secret answer makes no frame arrive anywhere else.
    ``revision``/``version`` are the game's totals (a secret answer steps only the version):
    consumers use them to tell whether a read they share is fresh; no client sees them."""
    _send(
        group_name(game_id),
        {"type": "game.changed", "revision": revision, "seats": seats, "version": version},
    )


def notify_users_changed(user_ids: Iterable[int]) -> None:
    """The My games list / invitations of these players may have changed. The ping names no
    game: each user socket re-reads its own list and sends a fresh stamp only if it moved."""
    for user_id in sorted(set(user_ids)):
        _send(user_group_name(user_id), {"type": "user.changed"})


def _send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost ping costs a refresh, never a move
        log.exception("broadcast to %s failed", group)


def notify_chat(game_id: int) -> None:
    """Table talk changed: each socket fetches the talk its reader may see."""
    _send(group_name(game_id), {"type": "chat.posted"})
