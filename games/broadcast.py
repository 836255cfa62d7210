"""After a commit, tell every socket watching a game that it changed. Never send the state:
each consumer renders its own seat's view."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def notify_game_changed(game_id: int, revision: int, seats: list[int] | None = None) -> None:
    """``seats``: only these seats could observe the change (None: everybody); the other
    sockets stay silent, so a secret answer makes no frame arrive anywhere else."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(game_id), {"type": "game.changed", "revision": revision, "seats": seats}
        )
    except Exception:  # a lost ping costs a refresh, never a move
        log.exception("broadcast failed for game %s", game_id)


def notify_chat(game_id: int) -> None:
    """Table talk changed: each socket fetches the talk its reader may see."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(group_name(game_id), {"type": "chat.posted"})
    except Exception:  # a lost ping costs a refresh, never a message
        log.exception("chat broadcast failed for game %s", game_id)
