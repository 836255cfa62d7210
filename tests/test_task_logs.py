"""A resting worker and beat log nothing at INFO; real work, failures and other tasks do.

An idle production worker and beat wrote 45 lines a minute (the beat's sweeps: sent, received,
succeeded: 0). Tasks run here through Celery's own tracer (``apply``) and beat's own
``apply_entry``; the "received" line is the worker's format and logger (celery.worker.strategy).
"""

from __future__ import annotations

import logging

import pytest
from celery.app import trace
from celery.beat import ScheduleEntry, Scheduler

from config.celery_app import app
from games import services, tasks

pytestmark = pytest.mark.django_db


def lines(caplog: pytest.LogCaptureFixture, task: str, level: int = logging.INFO) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= level and task in r.getMessage()]


@pytest.fixture
def info(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.INFO)  # the Procfile's --loglevel=INFO
    return caplog


def test_an_idle_sweep_says_nothing_at_info(info):
    tasks.sweep_expired_deadlines.apply()  # nothing is due: it returns 0
    tasks.check_live_pace.apply()

    assert lines(info, "games.tasks.") == []


def test_beat_sending_its_sweeps_says_nothing_at_info(info):
    class Sender(Scheduler):
        def apply_async(self, entry, producer=None, advance=True, **kwargs):  # no broker here
            return None

    beat = Sender(app, lazy=True)
    for name, entry in app.conf.beat_schedule.items():
        beat.apply_entry(ScheduleEntry(name=name, task=entry["task"], app=app))

    assert [r.getMessage() for r in info.records if r.name == "celery.beat"] == []


def test_the_worker_receiving_a_sweep_says_nothing_at_info(info):
    receipt = {"id": "1", "name": "accounts.tasks.send_due_emails", "args": "()", "kwargs": "{}"}
    logging.getLogger("celery.worker.strategy").info(trace.LOG_RECEIVED, receipt)
    other = {**receipt, "name": "games.tasks.apply_deadline"}
    logging.getLogger("celery.worker.strategy").info(trace.LOG_RECEIVED, other)

    assert lines(info, "send_due_emails") == []
    assert lines(info, "apply_deadline") == ["Task games.tasks.apply_deadline[1] received"]


def test_a_sweep_that_did_work_says_so_at_info(info, monkeypatch):
    monkeypatch.setattr(services, "sweep_due", lambda: 3)  # three deadlines applied

    tasks.sweep_expired_deadlines.apply()

    [line] = lines(info, "sweep_expired_deadlines")
    assert "succeeded" in line and line.endswith(": 3")


def test_a_failing_sweep_is_an_error(info, monkeypatch):
    def broken() -> int:
        raise RuntimeError("database gone")

    monkeypatch.setattr(services, "sweep_due", broken)

    tasks.sweep_expired_deadlines.apply()

    [line] = lines(info, "sweep_expired_deadlines", logging.ERROR)
    assert "database gone" in line


def test_other_tasks_keep_their_lines_even_when_they_did_nothing(info, monkeypatch):
    monkeypatch.setattr(services, "apply_deadline", lambda game_id, wait_seq: False)

    tasks.apply_deadline.apply(args=(1, 1))  # a countdown deadline: real work, kept at INFO

    [line] = lines(info, "apply_deadline")
    assert "succeeded" in line


def test_the_quiet_lines_are_lowered_to_debug_not_lost(caplog):
    caplog.set_level(logging.DEBUG)  # --loglevel=DEBUG

    tasks.sweep_expired_deadlines.apply()

    assert lines(caplog, "sweep_expired_deadlines") == []
    [line] = lines(caplog, "sweep_expired_deadlines", logging.DEBUG)
    assert line.endswith(": 0")
