"""Every answer of the JSON API has the API's error shape, ``{"error", "code"}``.

ninja answers a method that no operation of a path takes with Django's plain-text "Method not
allowed", and a path under /api/ that matches nothing falls to the site's HTML 404 page: a
client reading ``code`` found neither. Answers the API made itself are JSON already and pass.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

API_PREFIX = "/api/"
SHAPES = {
    404: ("not_found", "Not found."),
    405: ("method_not_allowed", "This method is not allowed here."),
}


class ApiErrorShapeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        shape = SHAPES.get(response.status_code)
        if (
            shape is None
            or not request.path.startswith(API_PREFIX)
            or response.get("Content-Type", "").startswith("application/json")
        ):
            return response
        code, message = shape
        answer = JsonResponse({"error": message, "code": code}, status=response.status_code)
        if response.has_header("Allow"):
            answer["Allow"] = response["Allow"]
        return answer
