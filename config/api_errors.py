"""Every answer of the JSON API has the API's error shape, ``{"error", "code"}``.

ninja answers a method that no operation of a path takes with Django's plain-text "Method not
allowed": a client reading ``code`` found none. (A path under /api/ that matches nothing gets
the shape from ``guard.page_not_found``.) Answers the API made itself are JSON and pass.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_noop

from config.guard import error_response, is_api


class ApiErrorShapeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code != 405
            or not is_api(request)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        shaped = error_response(
            request, 405, "method_not_allowed", gettext_noop("This method is not allowed here.")
        )
        response.content = shaped.content
        response["Content-Type"] = shaped["Content-Type"]  # the other headers (Allow) stay
        return response
