"""The game socket: each connection gets its own seat's view, never anyone else's.

The group only ever carries "changed, revision N"; on that ping each consumer renders the
view for its own user. Moves sent over the socket go through the same service as HTTP;
errors go back to the sender only.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.models import User
from accounts.notifications import mark_present
from config.inputs import BadInput, parse_json
from games import selectors, services
from games.broadcast import group_name
from games.errors import GameError, StaleVersion
from games.models import Game

# A move is a small object; anything bigger or deeper is refused before it is parsed further.
MAX_FRAME_CHARS = 8192
MAX_FRAME_DEPTH = 8


def _load_payload(game_id: int, user: Any) -> dict[str, Any] | None:
    # The socket keeps the user of its handshake: re-read their standing on every send, so a
    # player banned (or deactivated) meanwhile stops receiving views at the next change.
    if user is None or not user.is_authenticated:
        return None
    user = User.objects.filter(pk=user.pk, is_active=True, banned_at__isnull=True).first()
    if user is None:
        return None
    game = Game.objects.filter(pk=game_id).prefetch_related("seats__user").first()
    if game is None or not selectors.can_view(game, user):
        return None
    return selectors.game_payload(game, user)


def _act(game_id: int, user: Any, content: dict[str, Any]) -> dict[str, Any]:
    if not User.objects.filter(pk=user.pk, is_active=True, banned_at__isnull=True).exists():
        return {"type": "error", "error": "You may not play.", "code": "forbidden"}
    try:
        services.act(
            user,
            game_id,
            content.get("version"),
            content.get("action"),
            str(content.get("key") or ""),
        )
    except StaleVersion as exc:
        return {"type": "error", "error": exc.message, "code": exc.code, "version": exc.version}
    except GameError as exc:
        return {"type": "error", "error": exc.message, "code": exc.code}
    return {"type": "ok"}


def _revision(game_id: int, user: Any) -> int | None:
    """The revision this user's seat can observe (a spectator's: the public one)."""
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if game is None:
        return None
    return game.revision_for(selectors.viewer_seat_index(game, user))


class GameConsumer(AsyncJsonWebsocketConsumer):
    """Presence is by heartbeat: the page sends ``{"type": "heartbeat"}`` every
    HEARTBEAT_SECONDS and the answer carries the game's revision, so a client that missed a
    ping notices within one beat. Closing the socket does not clear presence (a reload closes
    one socket and opens another); it lapses PRESENCE_SECONDS after the last beat."""

    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.group = group_name(self.game_id)
        # Join first, then read: a change committed in between is still announced to us.
        await self.channel_layer.group_add(self.group, self.channel_name)
        payload = await database_sync_to_async(_load_payload)(self.game_id, self.user)
        if payload is None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await self.close(code=4404)
            return
        self.seat = payload["seat"]
        await self.accept()
        await self._present()
        await self._send_state(payload)

    async def _present(self) -> None:
        if self.user is not None and self.user.is_authenticated:
            await database_sync_to_async(mark_present)(self.game_id, self.user.pk)

    async def _send_state(self, payload: dict[str, Any]) -> None:
        await self.send_json(
            {
                "type": "state",
                "version": payload["version"],
                "revision": payload["revision"],
                "game": payload,
            }
        )

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def game_changed(self, message: dict[str, Any]) -> None:
        seats = message.get("seats")
        if seats is not None and self.seat not in seats:
            return  # a change this seat cannot observe (a secret answer): nothing is sent
        payload = await database_sync_to_async(_load_payload)(self.game_id, self.user)
        if payload is None:
            await self.close(code=4404)
            return
        await self._send_state(payload)

    async def chat_posted(self, message: dict[str, Any]) -> None:
        # No text travels here: the page fetches the talk its reader may see over HTTP.
        await self.send_json({"type": "chat"})

    async def _heartbeat(self) -> None:
        await self._present()
        revision = await database_sync_to_async(_revision)(self.game_id, self.user)
        await self.send_json({"type": "heartbeat", "revision": revision})

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if text_data is None:
            await self.send_json(
                {"type": "error", "error": "Send a JSON object.", "code": "malformed"}
            )
            return
        if len(text_data) > MAX_FRAME_CHARS:
            await self.send_json(
                {"type": "error", "error": "Send a small JSON object.", "code": "too_large"}
            )
            return
        try:
            content = parse_json(text_data, max_depth=MAX_FRAME_DEPTH)
        except BadInput as exc:
            await self.send_json({"type": "error", "error": exc.message, "code": exc.code})
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict):
            await self.send_json(
                {"type": "error", "error": "Send a JSON object.", "code": "malformed"}
            )
            return
        if content.get("type") == "heartbeat":
            await self._heartbeat()
            return
        reply = await database_sync_to_async(_act)(self.game_id, self.user, content)
        await self.send_json(reply)
