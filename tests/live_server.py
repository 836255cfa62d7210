"""Live servers for tests and benches: Daphne (ASGI: HTTP + WebSockets) on a free loopback port.

One module for the browser tests, the flood test and ``bench/fanout.py``. Nothing here imports
Django at import time (a bench configures it itself); ``server_env`` reads the test run's
database and Redis, so a subprocess serves exactly what the test process sees.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
START_SECONDS = 60
DAPHNE = [sys.executable, "-m", "daphne", "-b", "127.0.0.1"]
# What a test sets for its own process only. A browser test sets DJANGO_ALLOW_ASYNC_UNSAFE
# (Playwright's sync API runs an event loop in the test's thread, and the test's ORM calls
# between browser steps are plain blocking calls); a server or worker inheriting it would
# hide the SynchronousOnlyOperation that production raises for a sync ORM call made from an
# async context (a consumer, an async view or middleware).
TEST_PROCESS_ONLY = frozenset({"DJANGO_ALLOW_ASYNC_UNSAFE"})


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """The database this (Django-configured) process uses, as a URL for a subprocess."""
    from django.db import connection

    db = connection.settings_dict
    user = db["USER"] or "postgres"
    return f"postgres://{user}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def second_connection() -> Any:
    """A connection of its own to the test database (autocommit), beside Django's: what
    another process sees, or a transaction that another one waits for."""
    import psycopg
    from django.db import connection

    s = connection.settings_dict
    return psycopg.connect(
        host=s["HOST"],
        port=s["PORT"] or 5432,
        user=s["USER"],
        password=s["PASSWORD"],
        dbname=s["NAME"],
        autocommit=True,
    )


def inherited_env() -> dict[str, str]:
    """This process's environment, less what only the test process itself may have."""
    return {name: value for name, value in os.environ.items() if name not in TEST_PROCESS_ONLY}


def production_env(**extra: str) -> dict[str, str]:
    """Environment for a subprocess on the production settings (their logging, their checks),
    with what they require set, on this test's Redis database."""
    import secrets

    from django.conf import settings

    return {
        **inherited_env(),
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "REDIS_URL": settings.REDIS_URL,
        "ALLOWED_HOSTS": "fibbers.example",
        "SITE_URL": "https://fibbers.example",
        "EMAIL_HOST": "smtp.fibbers.example",
        "DEFAULT_FROM_EMAIL": "noreply@fibbers.example",
        **extra,
    }


def server_env(**extra: str) -> dict[str, str]:
    """Environment for a server or worker subprocess on the test database and test Redis."""
    from django.conf import settings

    return {
        **inherited_env(),
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        **extra,
    }


def celery_worker_command(schedule: Path, loglevel: str = "INFO") -> list[str]:
    """A Celery worker with its embedded beat, as the tests and benches run it: one process
    (solo pool) on the deadline and email queues, no gossip, mingle or event heartbeats. At
    INFO the beat's idle sweeps are not logged (config/task_logs.py): DEBUG shows them."""
    return [
        *(sys.executable, "-m", "celery", "-A", "config", "worker", "--beat", "--pool=solo"),
        *("-Q", "deadlines,email", "-l", loglevel, "--schedule", str(schedule)),
        *("--without-heartbeat", "--without-gossip", "--without-mingle"),
    ]


def stop(proc: subprocess.Popen | None, grace: float = 5) -> None:
    """SIGTERM to the server's process group, then SIGKILL: Daphne does not exit on SIGTERM
    while sync views are in flight (their threads wait on the stopped event loop)."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(grace)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(10)


def start_daphne(
    env: Mapping[str, str], log_path: Path, verbosity: int = 1
) -> tuple[subprocess.Popen, str]:
    """Starts Daphne (``config.asgi``) in its own session; returns it and its base URL once it
    accepts connections. ``verbosity`` 0 leaves out the access log (a bench's load)."""
    port = free_port()
    with log_path.open("wb") as log:
        proc = subprocess.Popen(
            [*DAPHNE, "-p", str(port), "-v", str(verbosity), "config.asgi:application"],
            cwd=ROOT,
            env=dict(env),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl-C reaches the caller, which stops the server itself
        )
    deadline = time.monotonic() + START_SECONDS
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"Daphne exited:\n{log_path.read_text(errors='replace')[-3000:]}")
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), 1).close()
            return proc, f"http://127.0.0.1:{port}"
        if time.monotonic() > deadline:
            stop(proc)
            raise RuntimeError(f"Daphne not up:\n{log_path.read_text(errors='replace')[-3000:]}")
        time.sleep(0.1)


@contextlib.contextmanager
def daphne(env: Mapping[str, str], log_path: Path, verbosity: int = 1) -> Iterator[str]:
    """Daphne for the duration of the block; yields its base URL (``http://127.0.0.1:port``)."""
    proc, base = start_daphne(env, log_path, verbosity)
    try:
        yield base
    finally:
        stop(proc)


def closed_port() -> int:
    """A loopback port where nothing listens: a service that is down (a mail server, Redis)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
