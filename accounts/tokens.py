"""Personal API tokens: ``Authorization: Bearer fib_…`` resolves to a player.

Only the SHA-256 digest of a token is stored, so a database leak reveals no usable token.
Tokens are 32 random bytes, so looking the digest up directly is safe against guessing.

A resolved token is kept in the shared cache (keyed by its digest, never the token) for
``CACHE_SECONDS``: an API move then costs no SQL to authenticate, and with Redis no round trip
of its own either: the request guard reads the entry in its counters' pipeline
(``cache_key``, config/guard.py). Revoking a token, banning or
unbanning a player, and any save of the player's row drop the entry at once (``forget``), so a
revoked token or a banned player is refused on the next request, in every process.
"""

from __future__ import annotations

import contextlib
import pickle
from typing import Any

from django.conf import settings
from django.core.cache import cache

from accounts import services
from accounts.models import ApiToken, User

MAX_TOKEN_LENGTH = 200
CACHE_SECONDS = 300
_NOT_READ: Any = object()


def _key(digest: str) -> str:
    return f"apitoken:{digest}"


def cache_key(raw: str) -> str | None:
    """The shared cache's own key (prefix and version included) of a token's entry, for the
    request guard to read with its counters; None for what cannot be a token."""
    raw = raw.strip()
    if not raw or len(raw) > MAX_TOKEN_LENGTH or not _cache_is_the_guards_redis():
        return None
    return cache.make_and_validate_key(_key(ApiToken.hash(raw)))


def _cache_is_the_guards_redis() -> bool:
    # the guard reads settings.REDIS_URL: an entry read there is this cache's only if the
    # cache lives there too (a test's local-memory cache does not)
    conf = settings.CACHES.get("default", {})
    return "Redis" in conf.get("BACKEND", "") and conf.get("LOCATION") == settings.REDIS_URL


class OwnerSuspended(Exception):
    """A live token whose owner a moderator banned: the API says so rather than
    "unauthorised" (which reads as a token to fix)."""


def user_for_token(raw: str, entry: Any = _NOT_READ) -> User | None:
    """The active, unbanned owner of a live (unrevoked) token, or None; notes the use.
    ``entry``: the token's cache entry as the request guard read it (the stored bytes, or
    None when there was none), which spares the cache's own round trip."""
    try:
        return token_owner(raw, entry)
    except OwnerSuspended:
        return None


def token_owner(raw: str, entry: Any = _NOT_READ) -> User | None:
    """``user_for_token``, but a banned owner raises ``OwnerSuspended``: told from the same
    read (a second query once refused cost every banned request one more round trip)."""
    token = _live(raw, entry)
    return token.user if token is not None else None


def live_token(raw: str, entry: Any = _NOT_READ) -> ApiToken | None:
    """``user_for_token``'s token (with its ``user``), for a socket that must close when it is
    revoked."""
    try:
        return _live(raw, entry)
    except OwnerSuspended:
        return None


def cached_owner(raw: str, entry: Any = _NOT_READ) -> User | None:
    """``user_for_token`` from the cache alone: never the database, nor a use noted. For the
    request guard's refusals, which must cost the database nothing (config/guard.py): a token
    not in the cache (made up, or unused for CACHE_SECONDS) has no owner here."""
    found = _cached(raw, entry)
    token = found[1] if found is not None else None
    if token is None or token.revoked_at is not None:
        return None
    user = token.user  # cached with the token (select_related)
    return user if user.is_active and user.banned_at is None else None


def _cached(raw: object, entry: Any) -> tuple[str, ApiToken | None] | None:
    """The token's digest and its cached copy (None: not in the cache, or the cache is down);
    None for a value no token can be. ``entry``: as the request guard read it, if it did."""
    if not isinstance(raw, str):
        return None
    raw = raw.strip()
    if not raw or len(raw) > MAX_TOKEN_LENGTH:
        return None
    digest = ApiToken.hash(raw)
    token: Any = _decoded(entry) if entry is not _NOT_READ else _NOT_READ
    if token is _NOT_READ:
        try:
            token = cache.get(_key(digest))
        except Exception:  # the cache is down: the database still knows (see _live)
            token = None
    return digest, token if isinstance(token, ApiToken) else None


def _live(raw: object, entry: Any) -> ApiToken | None:
    found = _cached(raw, entry)
    if found is None:
        return None
    digest, token = found
    if token is None:
        token = (
            ApiToken.objects.select_related("user")
            .filter(digest=digest, revoked_at__isnull=True)
            .first()
        )
        if token is None:
            return None
        _remember(token)
    user = token.user
    if user.banned_at is not None:
        raise OwnerSuspended
    if not user.is_active:
        return None
    before = token.last_used_at
    services.api_token_touch(token)
    if token.last_used_at != before:
        _remember(token)  # the cached copy carries the use, so the next minute writes nothing
    return token


def _decoded(entry: Any) -> Any:
    """A guard-read entry as ``cache.get`` would give it; ``_NOT_READ`` for anything else."""
    if entry is None:
        return None
    try:
        token = pickle.loads(entry)  # what Django's Redis cache stores for an object
    except Exception:
        return _NOT_READ
    return token if isinstance(token, ApiToken) else _NOT_READ


def _remember(token: ApiToken) -> None:
    # no cache: every request reads the token row, as before
    with contextlib.suppress(Exception):
        cache.set(_key(token.digest), token, CACHE_SECONDS)


def forget(digests: list[str]) -> None:
    """Drops cached tokens (revoked, or their owner changed); called after commit."""
    if digests:
        # a cache that is down: the entry expires within CACHE_SECONDS
        with contextlib.suppress(Exception):
            cache.delete_many([_key(d) for d in digests])


def forget_user(user_id: int) -> None:
    forget(list(ApiToken.objects.filter(user_id=user_id).values_list("digest", flat=True)))


def token_from_authorization(header: str | None) -> str | None:
    """The token in an ``Authorization: Bearer <token>`` header value, if any."""
    if not header:
        return None
    scheme, _sep, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
