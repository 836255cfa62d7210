"""gunicorn's logger with the keys in links masked (config/secret_paths.py): the Procfile's web
process runs with ``--logger-class config.gunicorn_logging.Logger``.

Masking the formatted line, not single atoms, covers any ``--access-log-format``: the request
line, the path, the Referer (a confirmation page's own files and form carry its URL there),
and the error log's "Error handling request <uri>".
"""

from __future__ import annotations

from typing import Any

from gunicorn import glogging

from config.secret_paths import MaskSecretPaths

MASK = MaskSecretPaths()


class Logger(glogging.Logger):
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)  # again on every reload (SIGHUP): the filter is added once
        for log in (self.access_log, self.error_log):
            if MASK not in log.filters:
                log.addFilter(MASK)
