"""Per-request bookkeeping for signed-in players: their language, and when they were last seen."""

from __future__ import annotations

import zoneinfo
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

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
            if user.language and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES:
                request.COOKIES[settings.LANGUAGE_COOKIE_NAME] = user.language
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
            zone = zoneinfo.ZoneInfo(name) if name and user.is_authenticated else None
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


class RetiredBackendMiddleware:
    """Moves a session signed in by a retired backend to today's (before it is read)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        session = getattr(request, "session", None)
        if session is not None and session.get(BACKEND_SESSION_KEY) in RETIRED_BACKENDS:
            session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
        return self.get_response(request)
