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

from games.layer_batch import group_send_many

log = logging.getLogger(__name__)


# How long a committing thread lets its table's ping go first (see _Sender).
TABLE_PING_WAIT_SECONDS = 0.02
# Queued sends taken into one exchange with Redis at most (a change queues one, of four to
# seven pings).
MAX_BATCH = 32


def group_name(game_id: int) -> str:
    return f"game-{game_id}"


def user_group_name(user_id: int) -> str:
    return f"user-{user_id}"


def notify_game_changed(
    game_id: int,
    revision: int,
    seats: list[int] | None = None,
    version: int = 0,
    users: Iterable[int] = (),
) -> None:
    """``seats``: only these seats could observe the change (None: everybody); the other
    sockets stay silent, so a secret answer makes no frame arrive anywhere else.
    ``revision``/``version`` are the game's totals (a secret answer steps only the version):
    consumers use them to tell whether a read they share is fresh; no client sees them.
    ``users``: players whose lists the change may alter, pinged in the same batch, after it."""
    _send(
        [
            (
                group_name(game_id),
                {"type": "game.changed", "revision": revision, "seats": seats, "version": version},
            ),
            *_user_pings(users),
        ],
        wait=TABLE_PING_WAIT_SECONDS,
    )


def notify_users_changed(user_ids: Iterable[int]) -> None:
    """The My games list / invitations of these players may have changed."""
    _send(_user_pings(user_ids))


def _user_pings(user_ids: Iterable[int]) -> list[tuple[str, dict[str, Any]]]:
    # The ping names no game: each user socket re-reads its own list and sends a fresh stamp
    # only if it moved.
    return [(user_group_name(u), {"type": "user.changed"}) for u in sorted(set(user_ids))]


def notify_chat(game_id: int) -> None:
    """Table talk changed: each socket fetches the talk its reader may see."""
    _send([(group_name(game_id), {"type": "chat.posted"})])


def _send(pings: list[tuple[str, dict[str, Any]]], wait: float = 0) -> None:
    layer = get_channel_layer()
    if layer is None or not pings:
        return
    if _shared_layer(layer):
        _sender().send(pings, wait)
        return
    try:
        async_to_sync(group_send_many)(layer, pings)
    except Exception:  # a lost ping costs a refresh, never a move
        log.exception("broadcast to %s failed", [group for group, _ in pings])


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
        # (0 for pings someone waits for, else 1; arrival number; pings; its event): a change's
        # waited-for pings go before the players' list pings already queued.
        self.queue: asyncio.PriorityQueue[
            tuple[int, int, list[tuple[str, dict[str, Any]]], threading.Event | None]
        ] = asyncio.PriorityQueue()
        self.arrivals = itertools.count()
        threading.Thread(target=self._run, name="fibbers-broadcast", daemon=True).start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._drain())

    async def _drain(self) -> None:
        layer = get_channel_layer()
        while True:
            # What is queued goes together: one exchange with Redis for the batch
            # (games/layer_batch.py), in the queue's order.
            batch = [await self.queue.get()]
            while len(batch) < MAX_BATCH and not self.queue.empty():
                batch.append(self.queue.get_nowait())
            pings = [ping for _, _, item_pings, _ in batch for ping in item_pings]
            # A connection left idle past the layer's socket_timeout fails once; the retry
            # gets a fresh one from the pool.
            for attempt in (1, 2):
                try:
                    await group_send_many(layer, pings)
                    break
                except Exception:
                    if attempt == 2:
                        log.exception("broadcast failed for %s", [group for group, _ in pings])
            for *_, sent in batch:
                if sent is not None:
                    sent.set()

    def send(self, pings: list[tuple[str, dict[str, Any]]], wait: float = 0) -> None:
        """Queues the pings; with ``wait``, returns once they are sent or after ``wait``
        seconds (a slow Redis delays a move by at most that, never fails it)."""
        sent = threading.Event() if wait else None
        item = (0 if sent else 1, next(self.arrivals), pings, sent)
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
