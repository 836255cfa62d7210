"""One email to one player, in their language, with the unsubscribe headers every game email
carries (RFC 8058 one-click)."""

from __future__ import annotations

import smtplib
import zoneinfo
from email.utils import make_msgid
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts import notifications
from accounts.models import User

SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
# what a mail server's answer, or its absence, raises (SMTPException is an OSError)
MAIL_ERRORS = (smtplib.SMTPException, OSError)


def mail_server() -> str:
    """Where the site's email goes, for a failure's log line: the SMTP server's host and
    port, or the backend's name."""
    if settings.EMAIL_BACKEND == SMTP_BACKEND:
        return f"{settings.EMAIL_HOST}:{settings.EMAIL_PORT}"
    return settings.EMAIL_BACKEND


def what_failed(exc: BaseException) -> str:
    """A send's failure for the log: its kind and the server's SMTP code(s), never its text:
    smtplib's refusal of an address carries the address."""
    codes: set[int] = set()
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = {code for code, _message in exc.recipients.values()}
    elif isinstance(exc, smtplib.SMTPResponseException):
        codes = {exc.smtp_code}
    return " ".join([type(exc).__name__, *(str(code) for code in sorted(codes))])


def user_zone(user: User) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


RLM = "\u200f"
# Every email of the site is sent by a machine, not a person: out-of-office answers and other
# automatic replies (RFC 3834; Exchange's own header) are not sent back for each of them.
AUTOMATED = {"Auto-Submitted": "auto-generated", "X-Auto-Response-Suppress": "All"}


def right_to_left_lines(text: str) -> str:
    """Each line opened with a right-to-left mark: mail clients set a plain-text line that
    opens with a Latin name, a number or a link left to right, its words out of order. Not the
    signature's separator, which they know by its exact text."""
    return "\n".join(
        line if line.strip() in ("", "--") else RLM + line for line in text.split("\n")
    )


def _site_host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "fibbers.localhost"


def message_id() -> str:
    """A new email's Message-ID on the site's name: Django's names the sending machine (its
    fully qualified host name, an internal one in production) in every email's headers."""
    return make_msgid(domain=_site_host())


def table_thread_id(game_id: int) -> str:
    """One Message-ID for a table, named in the References of each of its emails: a game
    played over days is one conversation in the reader's mail client, not one a move."""
    return f"<table-{game_id}@{_site_host()}>"


def send(
    user: User,
    subject: str,
    template: str,
    context: dict[str, Any],
    language: str = "",
    game_id: int | None = None,
) -> None:
    """``language``: the one the subject was written in, if not the reader's current one;
    ``game_id``: the table the email is about (its thread)."""
    token = notifications.unsubscribe_token(user)
    unsubscribe = absolute(reverse("unsubscribe", args=[token]))
    context = {
        **context,
        "user": user,
        "preferences_url": absolute(reverse("profile")),
        "unsubscribe_url": unsubscribe,
        "site_name": settings.SITE_NAME,
    }
    # the reader's language, and times on their clock (a deadline, a digest's "since")
    with (
        translation.override(language or user.language or settings.LANGUAGE_CODE),
        timezone.override(user_zone(user)),
    ):
        text: str = render_to_string(f"email/{template}.txt", context)
        html = render_to_string(f"email/{template}.html", context)
        # a Persian subject began with the Latin "[Fibbers]": mail clients set it left to right,
        # and so each line of the plain text that opens with a name, a number or a link
        mark = RLM if translation.get_language_bidi() else ""
    if mark:
        text = right_to_left_lines(text)
    message = EmailMultiAlternatives(
        subject=f"{mark}[{settings.SITE_NAME}] {subject}",
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "Message-ID": message_id(),
            **AUTOMATED,
            **({"References": table_thread_id(game_id)} if game_id is not None else {}),
        },
    )
    message.attach_alternative(html, "text/html")
    message.send()
