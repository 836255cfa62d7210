"""Personal API tokens: ``Authorization: Bearer fib_…`` resolves to a player.

Only the SHA-256 digest of a token is stored, so a database leak reveals no usable token.
Tokens are 32 random bytes, so looking the digest up directly is safe against guessing.
"""

from __future__ import annotations

from accounts import services
from accounts.models import ApiToken, User

MAX_TOKEN_LENGTH = 200


def user_for_token(raw: str) -> User | None:
    """The active, unbanned owner of a live (unrevoked) token, or None; notes the use."""
    if not isinstance(raw, str):
        return None
    raw = raw.strip()
    if not raw or len(raw) > MAX_TOKEN_LENGTH:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=ApiToken.hash(raw), revoked_at__isnull=True)
        .first()
    )
    if token is None:
        return None
    user = token.user
    if not user.is_active or user.banned_at is not None:
        return None
    services.api_token_touch(token)
    return user


def token_from_authorization(header: str | None) -> str | None:
    """The token in an ``Authorization: Bearer <token>`` header value, if any."""
    if not header:
        return None
    scheme, _sep, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
