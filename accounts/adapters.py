"""allauth policy: who may sign up, and how emails point back at the site."""

from __future__ import annotations

from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.mail import EmailMessage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from accounts.mailing import RLM, right_to_left_lines
from accounts.names import checked_username


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        return True

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Usernames are how friends find each other: keep them simple and case-insensitive unique.
        username = super().clean_username(username.strip(), shallow=shallow)
        # shown to everyone until a display name is set: the display name's rules (no
        # invisible filler, no mixed alphabets, nobody else's name in look-alike letters)
        return username if shallow else checked_username(username)

    def respond_user_inactive(self, request: HttpRequest, user: AbstractBaseUser) -> HttpResponse:
        # A banned player who signs in with the right password is told why, not only that the
        # account is "inactive" (they alone can reach this: it follows their own password).
        since = getattr(user, "banned_at", None)
        if since is not None:
            return render(request, "account/account_suspended.html", {"since": since}, status=403)
        return super().respond_user_inactive(request, user)

    def render_mail(
        self,
        template_prefix: str,
        email: str,
        context: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> EmailMessage:
        # allauth's own emails (verification, password reset) in Persian: as the game emails
        message = super().render_mail(template_prefix, email, context, headers=headers)
        if translation.get_language_bidi():
            message.subject = RLM + message.subject
            message.body = right_to_left_lines(message.body)
        return message
