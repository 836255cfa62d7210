"""WebSocket routes: game ids are numbers; anything else is refused at the handshake."""

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import path, re_path

from games.consumers import GameConsumer, UserConsumer


class NoSuchSocket(AsyncWebsocketConsumer):
    """Every other path: a clean refusal (URLRouter alone raises, which is a handshake 500)."""

    async def connect(self) -> None:
        await self.close(code=4404)


websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameConsumer.as_asgi()),
    path("ws/me/", UserConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
