"""The Content-Security-Policy every answer carries: scripts only from our own files.

Defence in depth behind the templates' escaping (a web attacker's review found no injection,
and no policy either): an injected ``<script>`` or ``onerror=`` would not run. Styles may be
inline (the avatars' colours are ``style`` attributes; Swagger UI sets styles), images may be
``data:`` URLs (Swagger UI's icons). The sockets are named with the page's own host: not every
browser counts ``ws:``/``wss:`` as ``'self'``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse

HEADER = "Content-Security-Policy"
FIXED = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'; worker-src 'self'; manifest-src 'self'"
)


def policy(host: str) -> str:
    return f"{FIXED}; connect-src 'self' wss://{host} ws://{host}"


class ContentPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if HEADER not in response:
            try:
                response[HEADER] = policy(request.get_host())
            except DisallowedHost:
                # the 400 for a refused Host (logged once, where it was refused): no socket
                # to name, and asking again logged the refusal a second time
                response[HEADER] = f"{FIXED}; connect-src 'self'"
        return response
