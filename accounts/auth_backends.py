"""Sign-in: allauth's backend, asking about each login once.

allauth's login form passes an email address both as ``email`` and as ``username`` (some
sites' usernames look like addresses). Its backend then checked a registered address's
password twice, and Django's ModelBackend before it hashed once more for the unknown
username: a wrong password took one hash longer for a registered address than for an
unknown one (0.55–0.70 s against 0.37–0.43 s), which told anyone who has an account
here, undoing allauth's own care on the sign-up and reset pages. Here every failed login
costs one hash, whatever was typed. (allauth's backend is a ModelBackend: permissions and
the admin's username login work as before.)
"""

from __future__ import annotations

from typing import Any

from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend
from django.http import HttpRequest


class AuthenticationBackend(AllauthBackend):
    def authenticate(self, request: HttpRequest | None, **credentials: Any) -> Any:
        if credentials.get("email") and credentials.get("username") == credentials["email"]:
            # the username path tries the text as an address first: once is enough
            credentials = {k: v for k, v in credentials.items() if k != "email"}
        return super().authenticate(request, **credentials)
