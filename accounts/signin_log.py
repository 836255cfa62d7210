"""Failed sign-ins in the log: the account tried and the client's address, so an operator sees
a brute force (allauth's limit refuses it for a while; nothing said so, nor from where).

The address is the one the request guard and allauth's limits count (config.guard.client_ip:
TRUSTED_PROXY_COUNT's hop of X-Forwarded-For). The login is what was typed, quoted (repr: no
line of its own can be forged in the log); the password is never read here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest

from config.guard import client_ip

log = logging.getLogger(__name__)

LOGIN_FIELDS = ("username", "email", "phone")  # allauth passes the typed login under these
LONGEST_LOGIN = 254  # an email address's longest: what is longer is cut, not logged whole


def typed_login(credentials: Mapping[str, Any]) -> str:
    login = next((str(credentials[k]) for k in LOGIN_FIELDS if credentials.get(k)), "")
    return login[:LONGEST_LOGIN]


def _what(request: HttpRequest, what: str) -> str:
    # a signed-in player confirming their password (closing the account) is not a sign-in
    user = getattr(request, "user", None)
    return "password check" if user is not None and user.is_authenticated else what


def failed(request: HttpRequest, credentials: Mapping[str, Any]) -> None:
    log.warning(
        "%s failed for %r from %s",
        _what(request, "sign-in"),
        typed_login(credentials),
        client_ip(request),
    )


def refused(request: HttpRequest, credentials: Mapping[str, Any]) -> None:
    """allauth's login_failed limit turned it away before the password was checked."""
    log.warning(
        "%s refused (too many failed attempts) for %r from %s",
        _what(request, "sign-in"),
        typed_login(credentials),
        client_ip(request),
    )


def code_failed(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """allauth.mfa's authentication_failed: a wrong second-factor code (a staff member's TOTP)
    after the right password, which only someone who has the password reaches."""
    if request is None:
        return
    what = "second-factor code check" if kwargs.get("reauthentication") else "second-factor code"
    log.warning("%s failed for %r from %s", what, user.get_username(), client_ip(request))
