"""A resting worker and beat say nothing at INFO.

Beat sends its sweeps every 10–60 s (CELERY_BEAT_SCHEDULE), and at INFO each one was three
lines (beat's "Sending due task", the worker's "received" and "succeeded"): 45 lines a minute,
about 65,000 a day from a site with nothing to do, in which the lines that matter drowned.
Those lines of the beat's own tasks go to DEBUG. A sweep that did something (a count above 0:
deadlines applied, emails taken, tables expired) keeps its "succeeded" line at INFO; failures,
retries and time limits (other messages, WARNING and above) and every other task's lines (a
countdown deadline, a bots' moment, a push) are untouched.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from celery import Celery
from celery.app import trace

SENDING = "Scheduler: Sending due task %s (%s)"  # celery.beat.Scheduler.apply_entry's line
# what a sweep returns when it found nothing to do (a beat task's saferepr'd result)
NOTHING_DONE = frozenset({"0", "None"})
# the loggers that write the three lines (celery.beat, .worker.strategy, .app.trace)
LOGGERS = ("celery.beat", "celery.worker.strategy", "celery.app.trace")


class QuietBeatTasks(logging.Filter):
    def __init__(self, app: Celery) -> None:
        super().__init__()
        self.app = app
        self._names: frozenset[str] | None = None

    def beat_tasks(self) -> frozenset[str]:
        # read on first use: the app's configuration (Django's settings) is loaded by then
        if self._names is None:
            schedule = self.app.conf.beat_schedule or {}
            self._names = frozenset(entry["task"] for entry in schedule.values())
        return self._names

    def routine(self, record: logging.LogRecord) -> bool:
        args = record.args
        if record.msg == SENDING:
            return isinstance(args, tuple) and len(args) == 2 and args[1] in self.beat_tasks()
        if not isinstance(args, Mapping) or args.get("name") not in self.beat_tasks():
            return False
        if record.msg == trace.LOG_RECEIVED:
            return True  # its "succeeded" or failure line says what became of it
        return record.msg == trace.LOG_SUCCESS and args.get("return_value") in NOTHING_DONE

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not self.routine(record):
            return True
        # lowered, not dropped: a worker or beat run with --loglevel=DEBUG still shows them
        if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
            return False
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return True


def install(app: Celery) -> None:
    """On the loggers themselves, not on a handler: Celery replaces the root logger's
    handlers when a worker or beat starts (and again in each pool process)."""
    quiet = QuietBeatTasks(app)
    for name in LOGGERS:
        logging.getLogger(name).addFilter(quiet)
