"""After a commit, tell every socket watching a game (or a player's lists) that it changed.
Never send the state: each consumer renders what its own user may see."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import threading
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


# How long a committing thread lets its table's ping go first (see _Sender).
TABLE_PING_WAIT_SECONDS = 0.02


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
        wait=TABLE_PING_WAIT_SECONDS,
    )


def notify_users_changed(user_ids: Iterable[int]) -> None:
    """The My games list / invitations of these players may have changed. The ping names no
    game: each user socket re-reads its own list and sends a fresh stamp only if it moved."""
    for user_id in sorted(set(user_ids)):
        _send(user_group_name(user_id), {"type": "user.changed"})


def notify_chat(game_id: int) -> None:
    """Table talk changed: each socket fetches the talk its reader may see."""
    _send(group_name(game_id), {"type": "chat.posted"})


def _send(group: str, message: dict[str, Any], wait: float = 0) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if _shared_layer(layer):
        _sender().send(group, message, wait)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost ping costs a refresh, never a move
        log.exception("broadcast to %s failed", group)


def _shared_layer(layer: Any) -> bool:
    # The in-memory layer lives in one event loop of one process: it is sent to directly.
    return not layer.__class__.__name__.startswith("InMemory")


class _Sender:
    """One event loop per process, in a daemon thread, sends every ping in order (a table ping
    that its change waits for first).

    ``async_to_sync`` from a request's thread built an event loop and a new Redis connection
    for every ping (channels-redis keeps its connections per loop): a fifth of a move's time
    under load. Here the loop and its connection live on. A request does not wait for Redis,
    except briefly for a table's ping (``wait``), so that the change's remaining work (notices'
    tasks, the answer) does not compete with it: from the call to the ping in Redis, 2.55 ms
    p50 without the wait, 2.22 ms with it in bench/fanout.py (a ``group_send`` is three Redis
    round trips). A lost ping costs a refresh: the heartbeat's answer carries the revision."""

    def __init__(self) -> None:
        self.pid = os.getpid()
        self.loop = asyncio.new_event_loop()
        # (0 for a ping someone waits for, else 1; arrival number; group; message; its event):
        # a waited-for table ping goes before the players' list pings already queued, which a
        # change queues five or six at a time (in order among themselves).
        self.queue: asyncio.PriorityQueue[
            tuple[int, int, str, dict[str, Any], threading.Event | None]
        ] = asyncio.PriorityQueue()
        self.arrivals = itertools.count()
        threading.Thread(target=self._run, name="fibbers-broadcast", daemon=True).start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._drain())

    async def _drain(self) -> None:
        layer = get_channel_layer()
        while True:
            _, _, name, message, sent = await self.queue.get()
            # A connection left idle past the layer's socket_timeout fails once; the retry
            # gets a fresh one from the pool.
            for attempt in (1, 2):
                try:
                    await layer.group_send(name, message)
                    break
                except Exception:
                    if attempt == 2:
                        log.exception("broadcast failed for %s", name)
            if sent is not None:
                sent.set()

    def send(self, name: str, message: dict[str, Any], wait: float = 0) -> None:
        """Queues the ping; with ``wait``, returns once it is sent or after ``wait`` seconds
        (a slow Redis delays a move by at most that, never fails it)."""
        sent = threading.Event() if wait else None
        item = (0 if sent else 1, next(self.arrivals), name, message, sent)
        self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
        if sent is not None:
            sent.wait(wait)


_current: _Sender | None = None
_lock = threading.Lock()


def _sender() -> _Sender:
    global _current
    with _lock:
        # a pre-forked worker gets its own (a thread does not survive fork)
        if _current is None or _current.pid != os.getpid():
            _current = _Sender()
        return _current
