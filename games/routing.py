"""WebSocket routes: game ids are numbers; anything else is refused at the handshake."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.urls import path, re_path

from games.consumers import GameConsumer, UserConsumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """Every other path: a clean refusal (URLRouter alone raises, which is a handshake 500)."""

    async def connect(self) -> None:
        await self.close(code=4404)


def _bench_patterns() -> list:
    """bench/fanout.py's bare echo, only with BENCH_ENDPOINTS (never in production)."""
    if not settings.BENCH_ENDPOINTS:
        return []
    from games.bench import EchoConsumer

    return [path("ws/bench/<slug:name>/", EchoConsumer.as_asgi())]


websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
    *_bench_patterns(),
    re_path(r"", NoSuchSocket.as_asgi()),
]
