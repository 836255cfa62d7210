"""Keys in links stay out of the logs: a password reset's key, an email confirmation's, an
unsubscribe link's token.

Each is the whole authorisation of its link (a reset key sets a new password, a confirmation
key verifies an address, a token unsubscribes a player from every email), and each was
written whole into gunicorn's access log, as the request's path and as the Referer of the
requests its page made, and into Django's lines about a request (a 404's, a CSRF refusal's
path), where whoever reads the logs could use it. Here the key becomes ``***`` and the rest of
the line stays. The shapes are allauth's URLs (allauth/account/urls.py) and ours
(accounts/urls.py); tests/test_secret_paths.py masks the real, reversed ones. No Django here:
gunicorn's master process imports this before any settings exist.
"""

from __future__ import annotations

import logging
import re

MASK = "***"
# a key runs to the next path, query or fragment separator (or the log line's quote or space);
# allauth's reset form moves the key into the session and comes back as "<uid>-set-password/",
# which is no key and stays readable
KEYED_PATHS = re.compile(
    r"(/password/reset/key/[0-9A-Za-z]+-(?!set-password/)|/confirm-email/|/unsubscribe/)"
    r"[^/?#\s\"]+"
)


def mask(text: str) -> str:
    return KEYED_PATHS.sub(rf"\g<1>{MASK}", text)


class MaskSecretPaths(logging.Filter):
    """For a handler (every record it writes) or a logger (gunicorn's): the formatted message
    with its keys masked, kept as the record's message."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True
