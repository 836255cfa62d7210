"""The JSON API (OpenAPI schema at /api/openapi.json): the same actions the pages offer.

Authentication: a personal API token (``Authorization: Bearer fib_…``) or the session cookie
(with the CSRF token for writes). Errors are ``{"error", "code"}``; a stale version adds
``"version"``; anyone who may not see a table gets 404.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import NinjaAPI, Schema
from ninja.responses import Status
from ninja.security import APIKeyCookie, HttpBearer

from games import selectors, services
from games.errors import GameError, GameNotFound, StaleVersion
from games.models import Game, Pace


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        from accounts.tokens import user_for_token

        user = user_for_token(token)
        if user is not None:
            request.user = user
        return user


class SessionAuth(APIKeyCookie):
    """The signed-in session; ninja checks the CSRF token on unsafe methods."""

    param_name = "sessionid"

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = getattr(request, "user", None)
        return user if user is not None and user.is_authenticated and user.is_active else None


api = NinjaAPI(
    title="Fibbers API",
    version="1",
    auth=[TokenAuth(), SessionAuth()],
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs",
)


@api.exception_handler(GameError)
def game_error(request: HttpRequest, exc: GameError) -> Any:
    body: dict[str, Any] = {"error": exc.message, "code": exc.code}
    if isinstance(exc, StaleVersion):
        body["version"] = exc.version
        game = Game.objects.filter(pk=getattr(request, "_fibbers_game_id", None)).first()
        if game is not None:
            body["game"] = selectors.game_payload(game, request.auth)
    return api.create_response(request, body, status=exc.status)


class CreateIn(Schema):
    game: str
    seats: int
    pace: str = Pace.DAILY
    move_seconds: int | None = None
    window_seconds: int | None = None
    bots: int = 0
    invite: list[str] = []
    join_policy: str = Game.JoinPolicy.INVITED
    allow_spectators: bool = True
    options: dict[str, Any] = {}


class ActionIn(Schema):
    version: int
    action: dict[str, Any]
    key: str = ""


class Created(Schema):
    id: int


class Error(Schema):
    error: str
    code: str


def _visible(request: HttpRequest, game_id: int) -> Game:
    game = Game.objects.prefetch_related("seats__user").filter(pk=game_id).first()
    if game is None or not selectors.can_view(game, request.auth):
        raise GameNotFound()
    return game


@api.post("/games", response={201: Created, 400: Error}, summary="Create a table")
def create_game(request: HttpRequest, body: CreateIn) -> Any:
    game = services.game_create(
        request.auth,
        engine=body.game,
        seats=body.seats,
        pace=body.pace,
        move_seconds=body.move_seconds,
        window_seconds=body.window_seconds,
        bots=body.bots,
        invite=body.invite,
        join_policy=body.join_policy,
        allow_spectators=body.allow_spectators,
        options=body.options,
    )
    return Status(201, {"id": game.pk})


@api.post("/games/{game_id}/join", summary="Take a seat (invited, or a friend of the creator)")
def join_game(request: HttpRequest, game_id: int) -> Any:
    _visible(request, game_id)
    services.game_join(request.auth, game_id)
    return selectors.game_payload(_visible(request, game_id), request.auth)


@api.post("/games/{game_id}/start", summary="Start the game (creator); empty seats go to bots")
def start_game(request: HttpRequest, game_id: int) -> Any:
    _visible(request, game_id)
    services.game_start(request.auth, game_id)
    return selectors.game_payload(_visible(request, game_id), request.auth)


@api.get("/games/{game_id}", summary="The game as the caller may see it")
def get_game(request: HttpRequest, game_id: int) -> Any:
    return selectors.game_payload(_visible(request, game_id), request.auth)


@api.post(
    "/games/{game_id}/actions",
    summary="Make a move",
    description="400 illegal action, 409 stale version (the body carries the current game).",
)
def post_action(request: HttpRequest, game_id: int, body: ActionIn) -> Any:
    _visible(request, game_id)
    request._fibbers_game_id = game_id  # type: ignore[attr-defined]
    services.act(request.auth, game_id, body.version, body.action, body.key)
    return selectors.game_payload(_visible(request, game_id), request.auth)


@api.get("/games/{game_id}/events", summary="The event log as the caller's seat may see it")
def get_events(request: HttpRequest, game_id: int, after: int = 0) -> Any:
    return {"events": selectors.events_for(_visible(request, game_id), request.auth, after)}
