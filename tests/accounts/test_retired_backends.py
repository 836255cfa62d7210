"""Sessions signed in by sign-in backends of earlier releases stay signed in, over HTTP and
over a WebSocket opened before any page (every socket reconnects after a release)."""

from __future__ import annotations

import asyncio

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.sessions.models import Session
from django.test import Client

pytestmark = pytest.mark.django_db(transaction=True)

RETIRED = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]


@pytest.mark.parametrize("backend", RETIRED)
def test_a_socket_opened_first_under_a_retired_backend_is_let_in(alice, backend):
    from config.asgi import application

    client = Client()
    client.force_login(alice, backend=backend)
    key = client.cookies[settings.SESSION_COOKIE_NAME].value

    async def opens() -> bool:
        socket = WebsocketCommunicator(
            application,
            "/ws/me/",
            headers=[
                (b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode()),
                (b"origin", b"http://localhost"),
                (b"host", b"localhost"),
            ],
        )
        connected, _code = await socket.connect(timeout=5)
        await socket.disconnect()
        return connected

    assert asyncio.run(opens())
    stored = Session.objects.get(session_key=key).get_decoded()
    assert stored[BACKEND_SESSION_KEY] == settings.AUTHENTICATION_BACKENDS[0]
