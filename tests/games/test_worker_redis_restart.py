"""The Celery worker lives through a Redis restart (an outage review): under celery/kombu
5.7.0 it exited at once with "Unrecoverable error: AttributeError('NoneType' object has no
attribute 'hostname')" every time Redis went away holding messages it had taken and not yet
acknowledged, and no deadline or email moved until someone restarted it. A real worker (with
beat) on a Redis of the test's own, which the test stops and starts again as a restart does."""

from __future__ import annotations

import socket
import subprocess
import time
from pathlib import Path

import pytest
from kombu import Connection

from config.celery_app import app as celery_app
from tests.games.worker import Worker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

SWEEP = "games.tasks.sweep_expired_deadlines"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def _redis(port: int, folder: Path) -> subprocess.Popen:
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1"]
    command += ["--save", "", "--appendonly", "no", "--dir", str(folder)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert wait_for(lambda: _answers(port), timeout=10), "redis-server did not start"
    return server


def _log(worker: Worker) -> str:
    return worker.log_path.read_text() if worker.log_path.exists() else ""


def _received(worker: Worker) -> int:
    """Sweeps received and not run: the countdown ones the worker holds."""
    log = _log(worker)
    return log.count("] received") - log.count("] succeeded")


def test_a_running_task_is_not_killed_when_the_broker_goes():
    """worker_cancel_long_running_tasks_on_connection_loss, and why: config/settings/base.py.
    A worker started before Redis waits for it."""
    assert celery_app.conf.worker_cancel_long_running_tasks_on_connection_loss is False
    assert celery_app.conf.broker_connection_retry_on_startup is True


def test_the_worker_keeps_working_after_redis_restarts(tmp_path):
    port = _free_port()
    url = f"redis://127.0.0.1:{port}/0"
    server = _redis(port, tmp_path)
    # DEBUG: the sweeps it counts (received, succeeded: 0) are not logged at INFO
    worker = Worker(tmp_path, sweep_seconds=1.0, extra_env={"REDIS_URL": url}, loglevel="DEBUG")
    try:
        worker.start()
        assert wait_for(lambda: _log(worker).count(SWEEP) >= 2, timeout=20), "beat and worker run"
        # messages the worker holds unacknowledged when the broker goes (a fast wait's
        # countdown task waits in the worker until its time): it restores them on its way
        # back, where 5.7.0 failed
        with Connection(url) as broker:
            for _n in range(5):
                celery_app.send_task(SWEEP, connection=broker, queue="deadlines", countdown=120)
        assert wait_for(lambda: _received(worker) >= 5, timeout=10)
        server.terminate()
        server.wait(10)
        time.sleep(3)  # the worker notices the broker gone
        server = _redis(port, tmp_path)
        before = _log(worker).count(SWEEP)

        assert wait_for(lambda: _log(worker).count(SWEEP) > before + 1, timeout=40), _log(worker)[
            -3000:
        ]
        assert worker.process is not None and worker.process.poll() is None, "still running"
        # its loss said once, without Celery's 7 lines about a setting we have set
        assert "worker_cancel_long_running_tasks_on_connection_loss" not in _log(worker)
        assert "consumer: Connection to broker lost" in _log(worker)
    finally:
        worker.stop()
        server.terminate()
        server.wait(10)
