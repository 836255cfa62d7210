"""config/after_response.py: inside a request, deferred work runs once the answer is closed
(sent), in order, each effect on its own; outside a request, at once."""

from __future__ import annotations

import pytest
from django.http import HttpResponse
from django.test import RequestFactory

from config.after_response import AfterResponseMiddleware, after_response


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
