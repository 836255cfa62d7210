"""``GET /healthz``: is this process able to serve? For a load balancer's, an orchestrator's or a
supervisor's probe, sent straight to a web process (``http://127.0.0.1:8000/healthz``).

200 when the database and Redis both answer, 503 when either does not; the body names each
part and its state (``{"database": "ok", "redis": "unavailable"}``), never an error's text (it
can carry a host, a user or a password from the URL). Without REDIS_URL (``make run``'s
embedded defaults) only the database is checked.

``HealthCheckMiddleware`` comes first in MIDDLEWARE and answers before everything else, so a
probe is cheap and cannot be refused for what is no fault of the site: no session, template,
cache or rate limit (a probe every second from one address would otherwise count against the
request guard's per-address limits), no HTTPS redirect (a probe speaks plain http to gunicorn)
and no Host check (a probe names 127.0.0.1, not ALLOWED_HOSTS). One ``SELECT 1`` and one Redis
``PING`` a probe. gunicorn's access log leaves out its 200s (config/gunicorn_logging.py).
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from psycopg_pool import PoolTimeout

from config.cache import REDIS_UNAVAILABLE
from config.guard import redis_client

PATH = "/healthz"
OK, UNAVAILABLE = "ok", "unavailable"


def database_state() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except (DatabaseError, PoolTimeout):
        return UNAVAILABLE
    return OK


def redis_state() -> str | None:
    """The Redis the cache, the channel layer and the Celery broker share (REDIS_URL)."""
    client = redis_client()
    if client is None:
        return None
    try:
        client.ping()
    except REDIS_UNAVAILABLE:
        return UNAVAILABLE
    return OK


def health() -> HttpResponse:
    parts = {"database": database_state()}
    redis = redis_state()
    if redis is not None:
        parts["redis"] = redis
    healthy = all(state == OK for state in parts.values())
    response = JsonResponse(parts, status=200 if healthy else 503)
    response["Cache-Control"] = "no-store"  # a cached "ok" would hide an outage
    return response


class HealthCheckMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info == PATH and request.method in {"GET", "HEAD"}:
            return health()
        return self.get_response(request)
