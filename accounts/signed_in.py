"""The request a view behind ``login_required`` is given: its user is a player, not anonymous.

Read by the type checker only: such a view is handed Django's own request."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import User


class SignedInRequest(HttpRequest):
    user: User
