"""Per-request bookkeeping for signed-in players: their language, and when they were last seen."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.languages import reader_language
from accounts.services import user_touch_last_seen

LANGUAGE_SESSION_KEY = "_language"


class UserLanguageMiddleware:
    """Uses a signed-in player's preferred language unless they chose one with the cookie.

    It also records ``last_seen_at`` (the friends page's online placeholder), writing at most
    once a minute per player.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Runs before LocaleMiddleware, which reads the language cookie.
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = reader_language(request.COOKIES, user)
            if language:  # LocaleMiddleware, next, reads it
                request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = language
            user_touch_last_seen(user)
        return self.get_response(request)


class UserTimeZoneMiddleware:
    """Each signed-in player's request runs in their own time zone (pages show their times)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        name = getattr(user, "time_zone", "") if user is not None else ""
        try:
            zone = (
                zoneinfo.ZoneInfo(name)
                if name and user is not None and user.is_authenticated
                else None
            )
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            zone = None
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


# The sign-in backends of earlier releases, whose paths live on in the sessions they signed
# in: Django drops a session whose backend is no longer configured, so without this a
# release would sign every player out (and drop a Live game's sockets mid-turn).
RETIRED_BACKENDS = frozenset(
    {
        "django.contrib.auth.backends.ModelBackend",
        "allauth.account.auth_backends.AuthenticationBackend",
    }
)


def move_retired_backend(session: Any) -> bool:
    """Moves a session signed in by a retired backend to today's; True if it did."""
    if session.get(BACKEND_SESSION_KEY) not in RETIRED_BACKENDS:
        return False
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    return True


class RetiredBackendMiddleware:
    """HTTP: the move, before the session's user is read (the session saves itself)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None:
            move_retired_backend(session)
        return self.get_response(request)


def _move_and_save(session: Any) -> None:
    if move_retired_backend(session):
        session.save()


class RetiredBackendSocketMiddleware(BaseMiddleware):
    """WebSockets: the same move, before Channels reads the user. After a release every
    socket reconnects without a page load first; refused, a Live table froze mid-turn."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        session = scope.get("session")
        if session is not None:
            await database_sync_to_async(_move_and_save)(session)
        return await super().__call__(scope, receive, send)
