"""gunicorn's logger with the keys in links masked (config/secret_paths.py) and the client's
address where the proxy's stood: the Procfile's web process runs with
``--logger-class config.gunicorn_logging.Logger``.

Masking the formatted line, not single atoms, covers any ``--access-log-format``: the request
line, the path, the Referer (a confirmation page's own files and form carry its URL there),
and the error log's "Error handling request <uri>".
"""

from __future__ import annotations

from typing import Any

from gunicorn import glogging

from config.secret_paths import MaskSecretPaths

MASK = MaskSecretPaths()
HEALTH_PATH = "/healthz"  # config.health.PATH (that module needs Django: not imported here)


class Logger(glogging.Logger):
    def setup(self, cfg: Any) -> None:
        super().setup(cfg)  # again on every reload (SIGHUP): the filter is added once
        for log in (self.access_log, self.error_log):
            if MASK not in log.filters:
                log.addFilter(MASK)

    def access(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> None:
        # a probe's "ok" every few seconds would bury the requests (config/health.py); its
        # 503s stay: they say when the site could not serve
        if environ.get("PATH_INFO") == HEALTH_PATH and getattr(resp, "status_code", None) == 200:
            return
        super().access(resp, req, environ, request_time)

    def atoms(self, resp: Any, req: Any, environ: dict[str, Any], request_time: Any) -> Any:
        # ``%(h)s`` was the socket's peer, the proxy (every line said 127.0.0.1): the client's
        # address as the request guard and the sign-in limits count it (TRUSTED_PROXY_COUNT)
        atoms = super().atoms(resp, req, environ, request_time)
        atoms["h"] = _client_address(environ) or atoms["h"]
        return atoms


def _client_address(environ: dict[str, Any]) -> str | None:
    from django.http import HttpRequest

    from config.guard import client_ip

    request = HttpRequest()
    request.META = environ
    return client_ip(request)
