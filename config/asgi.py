"""ASGI entry point: HTTP goes to Django, WebSockets to the games' consumers."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
django_asgi_app = get_asgi_application()

# Imported after Django is set up: the routing pulls in models.
from channels.auth import AuthMiddleware  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from channels.sessions import CookieMiddleware, SessionMiddleware  # noqa: E402

from accounts.middleware import RetiredBackendSocketMiddleware  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from games.socket_tokens import BearerOrBrowser  # noqa: E402

sockets = URLRouter(websocket_urlpatterns)
# Channels' AuthMiddlewareStack, with sessions of retired sign-in backends moved first; a
# program's socket with an API token goes round it (games/socket_tokens.py)
application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": BearerOrBrowser(
            sockets,
            AllowedHostsOriginValidator(
                CookieMiddleware(
                    SessionMiddleware(RetiredBackendSocketMiddleware(AuthMiddleware(sockets)))
                )
            ),
        ),
    }
)
