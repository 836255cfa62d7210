"""A real Celery worker (with beat) in a subprocess, on the real Redis and the test database."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time
from pathlib import Path

import redis
from django.conf import settings

from tests.live_server import celery_worker_command, server_env

ROOT = Path(__file__).resolve().parents[2]


def _own_group_dying_with_parent() -> None:
    """The worker leads its own process group (its embedded beat is a child: killing only
    the worker left beat orphaned, publishing into the test broker), and gets SIGKILL if
    pytest dies (Linux PR_SET_PDEATHSIG)."""
    os.setsid()
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGKILL)


class Worker:
    def __init__(
        self,
        log_dir: Path,
        sweep_seconds: float = 1.0,
        extra_env: dict[str, str] | None = None,
        loglevel: str = "INFO",
    ) -> None:
        self.log_path = log_dir / "celery-worker.log"
        self.schedule = log_dir / "beat-schedule"
        self.sweep_seconds = sweep_seconds
        self.extra_env = extra_env or {}
        self.loglevel = loglevel
        self.process: subprocess.Popen | None = None
        self._mark = 0

    def env(self) -> dict[str, str]:
        return server_env(SWEEP_SECONDS=str(self.sweep_seconds), **self.extra_env)

    def start(self, timeout: float = 30) -> None:
        self.spawn()
        self.wait_ready(timeout)

    def spawn(self) -> None:
        """Starts the worker without waiting for it. Call it from the test's own thread: the
        kernel sends PR_SET_PDEATHSIG's signal when the *thread* that forked the child ends,
        so a worker spawned from a helper thread was killed as soon as that thread finished
        (the journeys ran without one for a long time)."""
        log = self.log_path.open("a")
        self._mark = self.log_path.stat().st_size
        self.process = subprocess.Popen(
            celery_worker_command(self.schedule, self.loglevel),
            cwd=ROOT,
            env=self.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_own_group_dying_with_parent,
        )

    def wait_ready(self, timeout: float = 30) -> None:
        assert self.process is not None, "spawn() first"
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"worker died:\n{self.log_path.read_text()[-3000:]}")
            if " ready." in self.log_path.read_text()[self._mark :]:
                return
            time.sleep(0.2)
        raise RuntimeError(f"worker not ready:\n{self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: the worker dies mid-whatever, as a crashed machine would."""
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)  # the worker and its beat
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(15)
        self.kill()  # whatever of the group is left, beat included


def flush_broker() -> None:
    redis.Redis.from_url(settings.REDIS_URL).flushdb()


def wait_for(predicate, timeout: float = 20, interval: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return predicate()
