"""The worker's and beat's lines through the same filters as every other process's.

Django applies LOGGING (config/settings/base.py) and its ``console`` handler carries the
filters, ``secret_paths`` first (a link's key becomes ``***``, config/secret_paths.py). When a
worker or beat starts, Celery replaces the root logger's handlers, and the ``celery.task``
logger's, with its own, and the filters went with the old ones: a message the worker could not
run was written out whole, arguments included, so an unsubscribe link passed to a task reached
the log with its key (a deploy review; tests/test_worker_logging.py). Celery's own handlers stay
(its format and ``--loglevel``); each gets the console handler's filters, built from LOGGING.
Filters on loggers (``refused_host``) were never lost: Celery only replaces handlers.
"""

from __future__ import annotations

import logging
from typing import Any

from celery import signals
from django.conf import settings
from django.utils.module_loading import import_string


def console_filters() -> list[logging.Filter]:
    """Fresh instances of the filters LOGGING gives its console handler."""
    specs = settings.LOGGING.get("filters", {})
    names = settings.LOGGING.get("handlers", {}).get("console", {}).get("filters", [])
    return [import_string(specs[name]["()"])() for name in names]


def add_console_filters(logger: logging.Logger, **_: Any) -> None:
    filters = console_filters()
    for handler in logger.handlers:
        for new in filters:
            # once each: Celery may set a logger up again (a pool process)
            if not any(type(old) is type(new) for old in handler.filters):
                handler.addFilter(new)


class ChosenOnConnectionLoss(logging.Filter):
    """Celery's 7-line CPendingDeprecationWarning on every broker loss, which it writes even
    when worker_cancel_long_running_tasks_on_connection_loss is set (the choice and its
    reasons: config/settings/base.py); other warnings pass."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        return not (
            "CPendingDeprecationWarning" in message
            and "worker_cancel_long_running_tasks_on_connection_loss" in message
        )


def install() -> None:
    # a warning is a line of the py.warnings logger in a worker (logging.captureWarnings)
    logging.getLogger("py.warnings").addFilter(ChosenOnConnectionLoss())
    # the root logger (the worker's, beat's and every module's lines) and the task logger
    # (celery.task: not propagating, handlers of its own)
    signals.after_setup_logger.connect(add_console_filters, weak=False)
    signals.after_setup_task_logger.connect(add_console_filters, weak=False)
