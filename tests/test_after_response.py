"""config/after_response.py: inside a request, deferred work runs once the answer is closed
(sent), in order, each effect on its own; outside a request, at once."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.core.signals import request_finished
from django.db import close_old_connections
from django.http import HttpResponse
from django.test import RequestFactory

from config.after_response import AfterResponseMiddleware, after_response


@contextmanager
def _no_database_on_close() -> Iterator[None]:
    """Closing an answer sends ``request_finished``, whose ``close_old_connections`` checks an
    open database connection; a test without a database left one open by an earlier test in the
    process would then fail on pytest-django's guard. Django's test client steps aside the same
    way while it closes an answer."""
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_finished.connect(close_old_connections)


def test_outside_a_request_it_runs_at_once():
    done: list[str] = []
    after_response(lambda: done.append("now"))
    assert done == ["now"]


def test_in_a_request_it_waits_for_the_answer_to_be_closed_and_keeps_the_order():
    done: list[str] = []

    def fail() -> None:
        raise RuntimeError("a lost ping")

    def view(request):
        after_response(lambda: done.append("first"))
        after_response(fail)
        after_response(lambda: done.append("second"))
        done.append("view")
        return HttpResponse("ok")

    response = AfterResponseMiddleware(view)(RequestFactory().get("/"))
    assert done == ["view"]
    after_response(lambda: done.append("after the request"))  # its context is gone
    with _no_database_on_close():
        response.close()  # what the server does once the answer is sent
    assert done == ["view", "after the request", "first", "second"]


def test_a_request_that_raises_runs_what_it_left_before_the_error_goes_on():
    done: list[str] = []

    def view(request):
        after_response(lambda: done.append("ping"))
        raise ValueError("boom")

    with pytest.raises(ValueError):
        AfterResponseMiddleware(view)(RequestFactory().get("/"))
    assert done == ["ping"]
