"""Email as files: the embedded default's mailbox (and the browser journeys').

Django's own file backend appends every message of one connection to one file; here each
message is its own ``.eml`` file (time, recipient and subject in the name), written under a
temporary name and renamed, so whoever watches the folder never reads half a message. The
text part stays 8-bit, so a verification link is readable with any text viewer.
"""

from __future__ import annotations

import os
import re
import time
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend

_UNSAFE = re.compile(r"[^A-Za-z0-9@._-]+")


def _slug(text: str, limit: int) -> str:
    return _UNSAFE.sub("-", text).strip("-.")[:limit] or "message"


class FileEmailBackend(BaseEmailBackend):
    """One file per message in ``EMAIL_FILE_PATH`` (created if missing)."""

    def __init__(self, file_path: str | os.PathLike | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        path = file_path or getattr(settings, "EMAIL_FILE_PATH", None)
        if not path:
            raise ImproperlyConfigured("FileEmailBackend needs EMAIL_FILE_PATH.")
        self.path = Path(path)

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        sent = 0
        for message in email_messages:
            if not message.recipients():
                continue
            self.path.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%Y%m%d-%H%M%S") + f"-{time.time_ns() % 1_000_000_000:09d}"
            name = (
                f"{stamp}-{_slug(message.recipients()[0], 60)}-{_slug(str(message.subject), 60)}"
                f"-{uuid.uuid4().hex[:6]}.eml"
            )
            data = message.message().as_bytes(linesep="\n")
            temporary = self.path / f".{name}.part"
            temporary.write_bytes(data)
            temporary.rename(self.path / name)
            sent += 1
        return sent
