"""The benchmark's floor: the least a move could cost the database, served by the same stack.

``POST /bench/floor/<game_id>/`` locks the game row, steps its version and appends one event —
one locked read, one write, one insert, nothing else — in one transaction. bench/api_moves.py
runs it side by side with real moves. config/urls.py mounts these URLs only when
``BENCH_ENDPOINTS`` is on; they are token-less and CSRF-exempt, so never turn it on in
production. Point it at a dedicated (aborted) game row, never at a real table.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import transaction
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from games.models import Event, Game

FLOOR_ACTION = {"type": "floor"}


@csrf_exempt
@require_POST
def floor(request: HttpRequest, game_id: int) -> JsonResponse:
    with transaction.atomic():
        rows = list(
            Game.objects.select_for_update(no_key=True)
            .filter(pk=game_id)
            .values_list("version", flat=True)
        )
        if not rows:
            return JsonResponse({"error": "no such game"}, status=404)
        version = rows[0] + 1
        Game.objects.filter(pk=game_id).update(version=version)
        Event.objects.create(game_id=game_id, seq=version, action=FLOOR_ACTION)
    return JsonResponse({"id": game_id, "version": version})


@require_GET
def bare(request: HttpRequest) -> JsonResponse:
    """A request's cost on this stack with no work of its own (every middleware, no database):
    bench/api_moves.py's bare phase, the least any GET between two moves could cost."""
    return JsonResponse({"ok": True})


app_name = "bench"
urlpatterns = [
    path("floor/<int:game_id>/", floor, name="floor"),
    path("bare/", bare, name="bare"),
]


class EchoConsumer(AsyncJsonWebsocketConsumer):
    """bench/fanout.py's bare fan-out: joins ``bench-<name>`` and forwards each group message
    as it is. No database, no rendering: what a Channels ping alone costs on this stack."""

    async def connect(self) -> None:
        self.group = f"bench-{self.scope['url_route']['kwargs']['name']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def bench_ping(self, message: dict[str, Any]) -> None:
        await self.send_json({"type": "ping", "n": message["n"]})
