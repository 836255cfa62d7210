"""The game socket: each connection gets its own seat's view, never anyone else's.

The group only ever carries "changed, version N"; on that ping each consumer renders the
view for its own user. Moves sent over the socket go through the same service as HTTP;
errors go back to the sender only.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from accounts.models import User
from accounts.notifications import mark_absent, mark_present
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


class GameConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        self.user = self.scope.get("user")
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        payload = await database_sync_to_async(_load_payload)(self.game_id, self.user)
        if payload is None:
            await self.close(code=4404)
            return
        self.group = group_name(self.game_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self._present()
        await self.send_json({"type": "state", "version": payload["version"], "game": payload})

    async def _present(self) -> None:
        # An open table means no email about it (refreshed with every change it shows).
        if self.user is not None and self.user.is_authenticated:
            await database_sync_to_async(mark_present)(self.game_id, self.user.pk)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            if self.user is not None and self.user.is_authenticated:
                await database_sync_to_async(mark_absent)(self.game_id, self.user.pk)

    async def game_changed(self, message: dict[str, Any]) -> None:
        payload = await database_sync_to_async(_load_payload)(self.game_id, self.user)
        if payload is None:
            await self.close(code=4404)
            return
        await self._present()
        await self.send_json({"type": "state", "version": payload["version"], "game": payload})

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
        reply = await database_sync_to_async(_act)(self.game_id, self.user, content)
        await self.send_json(reply)
