"""Work a request leaves for after its answer has gone out.

A move's socket pings (one exchange with Redis) and its push tasks tell *other* players;
the player who moved waits for none of them. Inside a request, ``after_response`` keeps such
work until the server has sent the answer (Django closes a response once it is sent, under
WSGI and ASGI alike, and the test client does the same), then runs it in the order it came;
anywhere else (a socket consumer, a Celery task, a shell) it runs at once. A change calls it
from ``transaction.on_commit``, so nothing is told of a change that did not commit.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar

from django.http import HttpRequest, HttpResponse

log = logging.getLogger(__name__)

Effect = Callable[[], None]
_pending: ContextVar[list[Effect] | None] = ContextVar("after_response", default=None)


def after_response(effect: Effect) -> None:
    """Runs ``effect`` once the current request's answer is sent, or now outside a request."""
    pending = _pending.get()
    if pending is None:
        effect()
    else:
        pending.append(effect)


def _run(effects: list[Effect]) -> None:
    while effects:
        effect = effects.pop(0)
        try:
            effect()
        except Exception:  # one failed effect never keeps the others from running
            log.exception("after-response effect failed")


class AfterResponseMiddleware:
    """Outermost but for the security headers: every view and middleware inside it may defer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        pending: list[Effect] = []
        token = _pending.set(pending)
        try:
            response = self.get_response(request)
        except BaseException:
            _pending.reset(token)
            _run(pending)  # no answer will be closed: what the request left runs now
            raise
        _pending.reset(token)
        if pending:
            # Django's own list of what close() calls (private: not in django-stubs)
            response._resource_closers.append(lambda: _run(pending))  # type: ignore[attr-defined]
        return response
