"""Uses a signed-in player's preferred language unless they chose one for this session."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

LANGUAGE_SESSION_KEY = "_language"


class UserLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        # Runs before LocaleMiddleware, which reads the language cookie.
        user = getattr(request, "user", None)
        if (
            user is not None
            and user.is_authenticated
            and user.language
            and "django_language" not in request.COOKIES
        ):
            request.COOKIES["django_language"] = user.language
        return self.get_response(request)
