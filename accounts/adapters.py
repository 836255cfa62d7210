"""allauth policy: who may sign up, and how emails point back at the site."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django.http import HttpRequest


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        return True

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Usernames are how friends find each other: keep them simple and case-insensitive unique.
        return super().clean_username(username.strip(), shallow=shallow)
