"""The Celery worker's lines go through the logging filters of config/settings LOGGING, as the
web's do: Celery replaces the root logger's handlers when a worker (or beat) starts, which left
its lines without the handler's filter that masks a link's key (config/secret_paths.py)."""

from __future__ import annotations

import pytest
from kombu import Connection

from config.celery_app import app as celery_app
from tests.games.worker import Worker, flush_broker, wait_for

pytestmark = pytest.mark.django_db(transaction=True)

KEY = "MgQ6k2-ZxJ9secretkey"


def test_the_workers_lines_carry_no_key_of_a_link(tmp_path, settings):
    flush_broker()
    worker = Worker(tmp_path)
    try:
        worker.start()
        # a message the worker cannot run is written out whole, its arguments included: a
        # line of the worker's own (celery.worker.consumer), not one a test wrote
        with Connection(settings.REDIS_URL) as broker:
            celery_app.send_task(
                "accounts.tasks.no_such_task",
                args=[f"https://fibbers.example/unsubscribe/{KEY}/"],
                connection=broker,
                queue="email",
            )
        assert wait_for(lambda: "no_such_task" in worker.log_path.read_text(), timeout=20)
    finally:
        worker.stop()

    written = worker.log_path.read_text()
    assert "Received unregistered task of type 'accounts.tasks.no_such_task'" in written, written
    assert KEY not in written, written[-3000:]
    assert "/unsubscribe/***/" in written
