"""Sockets for programs: a WebSocket opened with ``Authorization: Bearer fib_…`` is the token
owner's, as the JSON API's requests are, so a bot hears of a move instead of polling.

Browsers cannot send that header on a WebSocket, so a page on another site cannot forge such a
socket; and a token's socket reads no cookie and no session, so it cannot ride a signed-in
browser either. That is why it skips the Origin check the browsers' sockets need (programs
send no Origin). Everything else is the browsers' way (config/asgi.py). A bad, revoked or
banned token is refused (closed with 4401 as soon as it opens), as is (4429) a token that opened more than
``socket_opens`` sockets this minute (config/guard.py); revoking the token closes its open
sockets (``broadcast.token_saved``)."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async

from accounts import tokens
from config import guard

REFUSED = 4401  # the close code of a refused or revoked token (as a signed-out session's)
TOO_MANY = 4429  # more sockets opened this minute than the limit (guard.socket_opens_exceeded)


def token_group_name(token_id: int) -> str:
    return f"apitoken-{token_id}"


def bearer(scope: dict[str, Any]) -> str | None:
    """The raw token of an ``Authorization: Bearer`` header ("" if empty), else None. Another
    scheme is a browser's: behind HTTP Basic auth (a staging site), browsers send its
    credentials with every handshake, and their sockets must still go the browsers' way."""
    for name, value in scope.get("headers") or []:
        if name.lower() == b"authorization":
            scheme, _, raw = value.decode("latin-1").partition(" ")
            return raw.strip() if scheme.lower() == "bearer" else None
    return None


class BearerOrBrowser:
    """Routes a socket with an Authorization header to ``token_app`` with the token's user
    (or none), every other socket to ``browser_app``."""

    def __init__(self, token_app: Any, browser_app: Any) -> None:
        self.token_app = token_app
        self.browser_app = browser_app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        raw = bearer(scope)
        if raw is None:
            return await self.browser_app(scope, receive, send)
        token = await database_sync_to_async(tokens.live_token)(raw) if raw else None
        if token is None:
            return await _refuse(receive, send, REFUSED)
        opens_exceeded = sync_to_async(guard.socket_opens_exceeded, thread_sensitive=False)
        if await opens_exceeded(f"token:{token.pk}"):
            return await _refuse(receive, send, TOO_MANY)
        scope = {
            **scope,
            "user": token.user,
            "api_token_id": token.pk,
            "credential": guard.digest(raw),  # its moves count with the token's API writes
            "cookies": {},
        }
        scope.pop("session", None)
        return await self.token_app(scope, receive, send)


async def _refuse(receive: Any, send: Any, code: int) -> None:
    """Accepted, then closed with ``code`` at once: a close before the accept reaches the
    program as a bare HTTP 403, which does not say whether the token or the rate was wrong.
    Nothing is sent in between."""
    await receive()  # the handshake's websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": code})
