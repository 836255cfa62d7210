"""allauth policy: who may sign up, and how emails point back at the site."""

from __future__ import annotations

import contextlib
import logging
from typing import Any
from urllib.parse import urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import signin_log
from accounts.mailing import (
    AUTOMATED,
    MAIL_ERRORS,
    RLM,
    absolute,
    mail_server,
    message_id,
    right_to_left_lines,
    user_zone,
    what_failed,
)
from accounts.models import User
from accounts.names import checked_username

log = logging.getLogger(__name__)
# allauth's words for a mail sent, which a failed send must not leave behind it
SENT_MESSAGES = {"account/messages/email_confirmation_sent.txt"}
UNKNOWN_ACCOUNT = "account/email/unknown_account"
SUSPENDED_ACCOUNT = "account/email/account_suspended"


def on_site(context: dict[str, Any]) -> dict[str, Any]:
    """allauth's links (``activate_url``, ``password_reset_url``, ``signup_url``) on the site's
    own address, as every game email's: allauth builds them from the request's Host, whichever
    of the allowed names it came on."""
    return {
        key: absolute(urlsplit(value)._replace(scheme="", netloc="").geturl())
        if key.endswith("_url") and isinstance(value, str) and urlsplit(value).netloc
        else value
        for key, value in context.items()
    }


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request: HttpRequest) -> bool:
        return True

    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Usernames are how friends find each other: keep them simple and case-insensitive unique.
        username = super().clean_username(username.strip(), shallow=shallow)
        # shown to everyone until a display name is set: the display name's rules (no
        # invisible filler, no mixed alphabets, nobody else's name in look-alike letters)
        return username if shallow else checked_username(username)

    def pre_authenticate(self, request: HttpRequest, **credentials: Any) -> None:
        try:
            super().pre_authenticate(request, **credentials)  # allauth's login_failed limit
        except ValidationError:
            signin_log.refused(request, credentials)
            raise

    def authentication_failed(self, request: HttpRequest, **credentials: Any) -> None:
        # allauth's hook for a wrong login or password (its form shows the error); the log
        # says which account and from where (accounts/signin_log.py), never the password
        signin_log.failed(request, credentials)
        super().authentication_failed(request, **credentials)

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
        message = super().render_mail(
            template_prefix,
            email,
            context,
            headers={**(headers or {}), **AUTOMATED, "Message-ID": message_id()},
        )
        if translation.get_language_bidi():
            message.subject = RLM + message.subject
            message.body = right_to_left_lines(message.body)
        return message

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # allauth finds no account for a suspended one's address (it looks for active ones)
        # and wrote "no such account, sign up": untrue. Its owner is told the account is
        # suspended instead; an email goes out either way, and the page answers as for any.
        suspended = self._suspended_holder(email) if template_prefix == UNKNOWN_ACCOUNT else None
        if suspended is not None:
            template_prefix = SUSPENDED_ACCOUNT
            context = {**context, "user": suspended, "since": suspended.banned_at}
        # sent while the visitor waits: a mail server that refuses or is down answered a 500,
        # and its error (the address in it) went to the log. The account or the change stands;
        # the visitor is told to ask for the email again.
        try:
            # in the language the account's holder chose, as the game emails: not the one of
            # the browser that asked (a borrowed computer's, a stranger's who typed the address)
            with (
                translation.override(self._reader_language(email, context)),
                timezone.override(user_zone(suspended))
                if suspended is not None
                else contextlib.nullcontext(),
            ):
                super().send_mail(template_prefix, email, on_site(context))
        except MAIL_ERRORS as exc:
            log.warning(
                "account email %s not sent via %s: %s",
                template_prefix,
                mail_server(),
                what_failed(exc),
            )
            request = getattr(self, "request", None)
            if request is not None:
                request.account_mail_failed = True
                messages.error(
                    request,
                    _("We could not send you the email just now. Try again in a few minutes."),
                )

    @staticmethod
    def _suspended_holder(email: str) -> User | None:
        """The suspended (banned, not closed) account with this address, if any."""
        return User.objects.filter(
            email__iexact=email, banned_at__isnull=False, closed_at__isnull=True
        ).first()

    @staticmethod
    def _reader_language(email: str, context: dict[str, Any]) -> str | None:
        """The language of the account the email goes to (a reset's, a confirmation's, or the
        one whose address somebody tried to sign up with); without one, the page's own."""
        user = context.get("user")
        if not isinstance(user, User):
            user = User.objects.filter(email__iexact=email, closed_at__isnull=True).first()
        return (user.language if user is not None else "") or translation.get_language()

    def add_message(
        self,
        request: HttpRequest,
        level: int,
        message_template: str | None = None,
        message_context: dict[str, Any] | None = None,
        extra_tags: str = "",
        message: str | None = None,
    ) -> None:
        # allauth says "Confirmation email sent" after send_mail, which may have just failed
        if getattr(request, "account_mail_failed", False) and message_template in SENT_MESSAGES:
            return
        super().add_message(
            request, level, message_template, message_context, extra_tags, message=message
        )
