"""A request for a Host not in ALLOWED_HOSTS is one WARNING line, without a traceback.

Django logs each on ``django.security.DisallowedHost`` at ERROR with the traceback of the
middleware that asked for the host (15 lines): scanners that try the server's address or
another name are no error of the site's, and their tracebacks buried the real ones. Django's
documentation suggests silencing that logger; a line is kept so a wrong ALLOWED_HOSTS (every
visitor refused) still shows, with the client's address as the limits count it.
"""

from __future__ import annotations

import logging

from config.guard import client_ip


class RefusedHost(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not logging.getLogger(record.name).isEnabledFor(logging.WARNING):
            return False  # LOG_LEVEL=ERROR: it let the record in as an ERROR
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info, record.exc_text = None, None
        request = getattr(record, "request", None)  # Django passes it (extra)
        if request is not None:
            record.msg, record.args = f"{record.getMessage()} (from {client_ip(request)})", None
        return True
