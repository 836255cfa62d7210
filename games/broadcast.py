"""After a commit, tell every socket watching a game (or a player's lists) that it changed.
Never send the state: each consumer renders what its own user may see."""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any

from channels.layers import get_channel_layer
from django.db import transaction

from config.after_response import after_response
from games.layer_batch import group_send_many
from games.socket_tokens import token_group_name

log = logging.getLogger(__name__)

# After a failed send, this process sends no pings for this long: with Redis stalled, each
# change would otherwise wait out the ping's timeout (games/layer_batch.py), a move over a
# socket on Channels' one sync thread. Sockets notice what they missed by their heartbeat.
PAUSE_AFTER_FAILURE_SECONDS = 2.0
_paused_until = 0.0  # time.monotonic()


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
        ]
    )


SOCKETS_ID = "fibbers_sockets"  # in the session: its sockets' group (not its key, which changes)


def sockets_id(session: Any) -> tuple[str, bool]:
    """The id of a session's sockets' group, made on first use; (id, made now)."""
    found = session.get(SOCKETS_ID)
    if isinstance(found, str) and found:
        return found, False
    session[SOCKETS_ID] = secrets.token_hex(16)
    return session[SOCKETS_ID], True


def session_group_name(sockets_id: str) -> str:
    """The sockets opened by one browser session."""
    return "session-" + hashlib.sha256(sockets_id.encode()).hexdigest()[:40]


def session_started(sender: Any, request: Any = None, **kwargs: Any) -> None:
    """``user_logged_in``: the session gets its sockets' id with the sign-in's own save (a
    socket that had to make it would save the session beside the pages' requests)."""
    if request is not None and hasattr(request, "session"):
        sockets_id(request.session)


def session_ended(sender: Any, request: Any = None, **kwargs: Any) -> None:
    """``user_logged_out``: the sockets that session opened close (a table socket kept
    playing moves and receiving the seat's hand after its player had signed out)."""
    found = getattr(request, "session", {}).get(SOCKETS_ID)
    if isinstance(found, str) and found:
        _send([(session_group_name(found), {"type": "session.ended"})])


def account_group_name(user_id: int) -> str:
    """Every socket a player has open, in any browser."""
    return f"account-{user_id}"


def password_changed(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """allauth's ``password_changed`` and ``password_set``: the sockets of the player's other
    sessions close. Those sessions are signed out by the new password at their next request,
    but a socket outlived them, still playing and receiving the seat's hand: after changing a
    password one suspects was seen, whoever held it kept watching (review, 2026-12-01)."""
    found = getattr(request, "session", {}).get(SOCKETS_ID)
    keep = session_group_name(found) if isinstance(found, str) and found else None
    _close_sockets(user, keep)


def password_reset(sender: Any, request: Any = None, user: Any = None, **kwargs: Any) -> None:
    """allauth's ``password_reset``: every socket of the player closes (the reset came from a
    mailed link, not from a session that stays)."""
    _close_sockets(user, None)


def account_closed(user: Any) -> None:
    """A closed account: every socket of the player closes, in every browser (the one that
    closed it is signed out; another's table socket stayed open until that table changed)."""
    _close_sockets(user, None)


def token_saved(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``post_save`` of an API token: once revoked, the sockets it opened close (after the
    commit, as the token's cache entry is dropped)."""
    if instance.revoked_at is not None:
        token_deleted(sender, instance)


def token_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    """``post_delete`` of an API token (a closed account's tokens are deleted): its sockets
    close."""
    group = token_group_name(instance.pk)
    message = {"type": "credentials.changed", "keep": None}
    transaction.on_commit(lambda: _send([(group, message)]))


def _close_sockets(user: Any, keep: str | None) -> None:
    if user is not None and user.pk is not None:
        _send([(account_group_name(user.pk), {"type": "credentials.changed", "keep": keep})])


def notify_users_changed(user_ids: Iterable[int]) -> None:
    """The My games list / invitations of these players may have changed."""
    _send(_user_pings(user_ids))


def _user_pings(user_ids: Iterable[int]) -> list[tuple[str, dict[str, Any]]]:
    # The ping names no game: each user socket re-reads its own list and sends a fresh stamp
    # only if it moved.
    return [(user_group_name(u), {"type": "user.changed"}) for u in sorted(set(user_ids))]


def notify_chat(game_id: int, seated: bool | None) -> None:
    """Table talk changed: each socket whose reader may read it fetches the talk. ``seated``:
    only the players' sockets (True), only the spectators' (False), or both (None): a line
    one audience cannot read sends nothing to the other's sockets (a spectator's line pinged
    every player, who learnt when, and how much, the spectators talked)."""
    _send([(group_name(game_id), {"type": "chat.posted", "seated": seated})])


def _send(pings: list[tuple[str, dict[str, Any]]]) -> None:
    """Sends the pings from this thread, in one exchange with Redis (games/layer_batch.py):
    after a commit, the table hears of the change before the notices' tasks are queued. In a
    request, once its answer is sent (config/after_response.py): the mover waits for no ping."""
    after_response(lambda: _send_now(pings))


def _send_now(pings: list[tuple[str, dict[str, Any]]]) -> None:
    global _paused_until
    layer = get_channel_layer()
    if layer is None or not pings:
        return
    if time.monotonic() < _paused_until:
        return  # Redis failed a moment ago: not one more request waits for it
    try:
        group_send_many(layer, pings)
    except Exception:  # a lost ping costs a refresh, never a move
        _paused_until = time.monotonic() + PAUSE_AFTER_FAILURE_SECONDS
        log.exception("broadcast to %s failed", [group for group, _ in pings])
