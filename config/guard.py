"""The site's first line under abuse: bad text is a 400, a flooding client a 429, a database
that cannot take more work a 503 — never a 500.

``RequestGuardMiddleware`` runs before the session is read, so a refused request costs no
database connection: it identifies the client by its credential (the API token or the
session cookie, i.e. one signed-in player) and by its IP address, and keeps its counters in
the shared cache (Redis in production) so the limits hold across processes.

* in flight: at most ``inflight`` concurrent requests per credential and ``inflight_ip`` per
  address (a flood of parallel requests is what exhausts the connection pool);
* per minute: ``writes`` API calls and POSTs per credential, ``ip`` dynamic requests per
  address (fixed one-minute windows; Retry-After says when the window ends).

``server_error`` (the 500 handler) answers 503 with Retry-After when the error is the
database being out of reach: the pool's wait ran out, or a statement or lock timeout hit.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import RequestDataTooBig
from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, UnreadablePostError
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render
from django.utils import translation
from django.utils.translation import gettext_noop
from django.views import defaults
from psycopg_pool import PoolTimeout

from config.cache import REDIS_UNAVAILABLE
from config.inputs import BadInput, check_text, parse_json

logger = logging.getLogger(__name__)

DEFAULT_LIMITS = {"inflight": 8, "inflight_ip": 32, "writes": 300, "ip": 1200, "socket_opens": 30}
INFLIGHT_TTL = 120  # seconds: a counter a crashed worker never decremented heals by itself
BUSY_RETRY_AFTER = 2


def limits() -> dict[str, int]:
    return {**DEFAULT_LIMITS, **getattr(settings, "REQUEST_LIMITS", {})}


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def error_response(
    request: HttpRequest,
    status: int,
    code: str,
    message: str,
    retry_after: int | None = None,
    params: dict[str, Any] | None = None,
) -> HttpResponse:
    """An API client gets the API's ``Error`` body; a browser gets one plain line. Either in
    the reader's language (the API promises it): the guard answers before the session and
    the locale are read, so from the language cookie and Accept-Language."""
    response: HttpResponse
    with translation.override(_reader_language(request, status)):
        message = translation.gettext(message)
    if params:
        message = message % params
    if is_api(request):
        response = JsonResponse({"error": message, "code": code}, status=status)
    else:
        response = HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")
    if retry_after is not None:
        response["Retry-After"] = str(max(1, retry_after))
    response["Cache-Control"] = "no-store"
    return response


def guard_read(request: HttpRequest, raw: str) -> tuple[Any, ...]:
    """The token's cache entry as the guard read it with its counters, as the ``entry``
    argument of accounts.tokens' lookups (it spares them the cache's round trip); nothing
    when the guard read none for this token."""
    read = getattr(request, "token_cache_entry", None)
    return (read[1],) if read is not None and read[0] == raw.strip() else ()


def _reader_language(request: HttpRequest, status: int) -> str:
    """After the locale middleware (a 404, a 500): the language it chose, the player's own.
    Before it (the guard's refusals): the language cookie, else an API token's player's own
    language (a French player's program that sent ``Accept-Language: en`` read its 429s in
    English, its other errors in French), else Accept-Language."""
    language = getattr(request, "LANGUAGE_CODE", None)
    if language:
        return language
    raw = bearer_token(request)
    if raw and status < 500:  # a 503 is the database or Redis failing: not asked again
        from accounts.languages import reader_language
        from accounts.tokens import cached_owner

        # the token's cached entry only (the one the guard read with its counters, if it did):
        # a refusal that asked the database for each made-up token let a flood reach it past
        # the limits (and a 400 comes before they count)
        with contextlib.suppress(Exception):  # an answer about to be sent never fails on this
            owner = cached_owner(raw, *guard_read(request, raw))
            chosen = reader_language(request.COOKIES, owner)
            if chosen:
                return chosen
    return translation.get_language_from_request(request)


def client_ip(request: HttpRequest) -> str:
    # allauth's adapter knows the proxy setup (ALLAUTH_TRUSTED_PROXY_COUNT): same IPs as its limits.
    from allauth.account.adapter import get_adapter

    try:
        return get_adapter(request).get_client_ip(request)
    except Exception:  # no usable address header: the socket's peer is all there is
        return request.META.get("REMOTE_ADDR", "") or "unknown"


def bearer_token(request: HttpRequest) -> str:
    auth = request.headers.get("Authorization", "")
    return auth[7:].strip() if auth[:7].lower() == "bearer " else ""


def credential(request: HttpRequest) -> str | None:
    """The client's credential as a short digest (never the secret itself in a cache key)."""
    raw = bearer_token(request) or request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    return digest(raw) if raw else None


def check_inputs(request: HttpRequest) -> None:
    """Every text a client sends: query string, form fields, JSON bodies (raises BadInput)."""
    if request.method == "POST":
        # the body first: once request.POST has parsed a multipart body from the stream, the
        # body is gone for good, and the API (which reads it as JSON) answered 500
        request.body  # noqa: B018
    sources = [request.GET, request.POST] if request.method == "POST" else [request.GET]
    for query in sources:
        for key, values in query.lists():
            check_text(key)
            for value in values:
                check_text(value)
    if request.content_type == "application/json" and request.body:
        parse_json(request.body)


class RequestGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path.startswith("/" + settings.STATIC_URL.lstrip("/")):
            return self.get_response(request)
        try:
            check_inputs(request)
        except BadInput as exc:
            return error_response(request, 400, exc.code, exc.message, params=exc.params)
        except RequestDataTooBig:
            # past DATA_UPLOAD_MAX_MEMORY_SIZE (a move is well under 1 KB): say so, with the
            # status a client or proxy knows, rather than "not readable"
            return error_response(
                request, 413, "too_large", gettext_noop("The request body is too large.")
            )
        except (MultiPartParserError, UnreadablePostError):
            return error_response(
                request, 400, "bad_request", gettext_noop("The request body is not readable.")
            )
        who = credential(request)
        ip = client_ip(request)
        conf = limits()
        windows = [(f"ip:{ip}", conf["ip"])]
        if who and (is_api(request) or request.method == "POST"):
            windows.append((f"w:{who}", conf["writes"]))
        caps = [(f"if:ip:{ip}", conf["inflight_ip"])]
        if who:
            caps.append((f"if:{who}", conf["inflight"]))
        counters, entry = None, None
        if redis_client() is not None:
            token = bearer_token(request) if is_api(request) else ""
            # the token's cache entry rides with the counters: the API's authentication then
            # costs no round trip of its own (accounts/tokens.py)
            entry = token_cache_key(token) if token else None
            counters = _redis_counters(windows, caps, entry)
        if counters is not None:
            if entry is not None:
                request.token_cache_entry = (token, counters[3])  # type: ignore[attr-defined]
            return self._counted(request, counters, caps)
        if redis_client() is not None:
            # Redis just failed: the cache is the same Redis, so asking it again for each
            # counter would only wait out its timeout once more per key. Serve unlimited.
            return self._served(request)
        for key, limit in windows:
            wait = _window_exceeded(key, limit)
            if wait:
                return error_response(
                    request,
                    429,
                    "rate_limited",
                    gettext_noop("Too many requests. Slow down."),
                    wait,
                )
        with _in_flight(caps) as admitted:
            if not admitted:
                return error_response(
                    request,
                    429,
                    "too_many_parallel",
                    gettext_noop("Too many requests at once. Slow down."),
                    1,
                )
            return self._served(request)

    def _served(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if is_api(request):
            # API answers carry one seat's view (or say that a table exists): never cached
            # by a browser or a proxy, never shown to the next user of a shared machine.
            response["Cache-Control"] = "no-store"
        return response

    def _counted(
        self, request: HttpRequest, counters: tuple[int, list[str], bool, Any], caps: list
    ) -> HttpResponse:
        wait, taken, admitted, _entry = counters
        try:
            if wait:
                return error_response(
                    request,
                    429,
                    "rate_limited",
                    gettext_noop("Too many requests. Slow down."),
                    wait,
                )
            if not admitted:
                return error_response(
                    request,
                    429,
                    "too_many_parallel",
                    gettext_noop("Too many requests at once. Slow down."),
                    1,
                )
            return self._served(request)
        finally:
            _release(taken)


# --- counters in Redis: one pipeline on the way in, one on the way out ----------------------
# Django's cache API costs two or three round trips per counter (add, exists, incrby, and
# decr again): sixteen per request here, more than the SQL of a move. With Redis, every
# counter of a request is one pipelined INCR (+ EXPIRE), and the in-flight ones one DECR.

_redis: Any = None


def redis_client() -> Any:
    """A client of the cache's Redis (settings.REDIS_URL), or None when there is none."""
    global _redis
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return None
    if _redis is None:
        import redis

        _redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    return _redis


def token_cache_key(token: str) -> str | None:
    from accounts.tokens import cache_key

    return cache_key(token)


def _redis_counters(
    windows: list[tuple[str, int]],
    caps: list[tuple[str, int]],
    read: str | None = None,
    period: int = 60,
) -> tuple[int, list[str], bool, bytes | None] | None:
    """(seconds to wait or 0, in-flight keys taken, admitted, the value at key ``read``);
    None if Redis failed."""
    now = time.time()
    window = int(now // period)
    keys = [f"guard:rl:{key}:{window}" for key, _limit in windows]
    flight = [f"guard:{key}" for key, _cap in caps]
    try:
        pipe = redis_client().pipeline(transaction=False)
        for key in keys:
            pipe.incr(key)
            pipe.expire(key, period + 5)
        for key in flight:
            pipe.incr(key)
            pipe.expire(key, INFLIGHT_TTL)
        if read is not None:
            pipe.get(read)
        replies = pipe.execute()
    except Exception:  # Redis is down: serve rather than refuse everyone
        warn_unavailable("rate-limit counters unavailable")
        return None
    value = replies.pop() if read is not None else None
    counts = replies[0::2]
    wait = 0
    for (_key, limit), count in zip(windows, counts[: len(keys)], strict=True):
        if count > limit:
            wait = int((window + 1) * period - now) + 1
    admitted = all(
        count <= cap for (_key, cap), count in zip(caps, counts[len(keys) :], strict=True)
    )
    return wait, flight, admitted, value


_last_trace: dict[str, float] = {}
TRACE_EVERY_SECONDS = 60


def warn_unavailable(what: str, log: logging.Logger = logger) -> None:
    """Redis down: one line a request, its traceback once a minute (every request logged
    three tracebacks, 1,900 in four minutes of an outage: outage review). The sockets say it
    the same way (games/consumers.py), on their own logger."""
    now = time.monotonic()
    traced = now - _last_trace.get(what, -TRACE_EVERY_SECONDS) >= TRACE_EVERY_SECONDS
    if traced:
        _last_trace[what] = now
    log.warning(what, exc_info=traced)


def _release(keys: list[str]) -> None:
    if not keys:
        return
    with contextlib.suppress(Exception):
        pipe = redis_client().pipeline(transaction=False)
        for key in keys:
            pipe.decr(key)
        pipe.execute()


def _window_exceeded(key: str, limit: int, period: int = 60) -> int:
    """Counts one request in the current window; seconds to wait if over the limit, else 0."""
    now = time.time()
    window = int(now // period)
    cache_key = f"guard:rl:{key}:{window}"
    try:
        cache.add(cache_key, 0, timeout=period + 5)
        count = cache.incr(cache_key)
    except Exception:  # the cache is down: serve rather than refuse everyone
        warn_unavailable("rate-limit cache unavailable")
        return 0
    if count <= limit:
        return 0
    return int((window + 1) * period - now) + 1


def digest(raw: str) -> str:
    """A credential as the counters' keys carry it (never the secret itself)."""
    return hashlib.sha256(raw.encode()).hexdigest()[:24]


def socket_write_exceeded(who: str) -> int:
    """Counts a move sent over a socket in the same per-minute window as the client's HTTP
    writes (``who``: the credential's digest, as ``credential`` makes it); seconds to wait if
    over the limit, else 0."""
    limit = limits()["writes"]
    if redis_client() is not None:
        counted = _redis_counters([(f"w:{who}", limit)], [])
        if counted is not None:
            return counted[0]
    return _window_exceeded(f"w:{who}", limit)


def socket_opens_exceeded(client: str) -> int:
    """Counts one socket opened by ``client`` (an API token); seconds to wait if over the
    limit a minute, else 0."""
    return _window_exceeded(f"ws:{client}", limits()["socket_opens"])


@contextlib.contextmanager
def _in_flight(caps: list[tuple[str, int]]) -> Iterator[bool]:
    taken: list[str] = []
    admitted = True
    try:
        for key, cap in caps:
            cache_key = f"guard:{key}"
            try:
                cache.add(cache_key, 0, timeout=INFLIGHT_TTL)
                count = cache.incr(cache_key)
            except Exception:
                warn_unavailable("in-flight cache unavailable")
                continue
            taken.append(cache_key)
            if count > cap:
                admitted = False
                break
        yield admitted
    finally:
        for cache_key in taken:
            with contextlib.suppress(Exception):
                cache.decr(cache_key)


def database_unavailable(exc: BaseException | None) -> bool:
    """The pool's wait ran out, or statement_timeout/lock_timeout cancelled the work: the
    request may succeed later (Django wraps psycopg's errors in its own OperationalError)."""
    return isinstance(exc, PoolTimeout | OperationalError)


def cache_unavailable(exc: BaseException | None) -> bool:
    """Redis is down or hung: what still needs it (allauth's sign-in limits) may succeed
    later, as after a busy database (an outage review saw sign-in answer 500)."""
    return isinstance(exc, REDIS_UNAVAILABLE)


def busy_response(request: HttpRequest) -> HttpResponse:
    return error_response(
        request,
        503,
        "busy",
        gettext_noop("The site is busy. Try again in a moment."),
        BUSY_RETRY_AFTER,
    )


def server_error(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """handler500: called inside Django's except block, so the exception is still at hand."""
    exc = sys.exc_info()[1]
    if database_unavailable(exc) or cache_unavailable(exc):
        return busy_response(request)
    if is_api(request):
        return error_response(
            request, 500, "server_error", gettext_noop("Something went wrong on our side.")
        )
    return defaults.server_error(request)


class SaidNotFound(Http404):
    """A 404 whose message is written for the reader (translated, naming nothing they may
    not know): the page shows it instead of the generic words."""


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler404: the generic page, with the reader's own message when there is one."""
    if is_api(request):
        return error_response(request, 404, "not_found", gettext_noop("Not found."))
    said = str(exception.args[0]) if isinstance(exception, SaidNotFound) and exception.args else ""
    return render(request, "404.html", {"said": said}, status=404)
