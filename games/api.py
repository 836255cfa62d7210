"""The JSON API (OpenAPI schema at /api/openapi.json): the same actions the pages offer.

Authentication: a personal API token (``Authorization: Bearer fib_…``) or the session cookie
(with the CSRF token for writes). Every error is ``{"error", "code"}`` (the ``Error`` schema);
a stale version adds ``"version"`` and ``"game"``, an invalid body ``"detail"``; anyone who may
not see a table gets 404. Throttled clients get 429, a busy database 503, both with Retry-After
(config/guard.py). Every status an operation can answer is in the schema (checked by
schemathesis in tests/games/test_api_schema.py).
"""

from __future__ import annotations

from typing import Any, cast

import orjson
from django.http import Http404, HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from ninja import NinjaAPI, Query, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.renderers import JSONRenderer
from ninja.responses import NinjaJSONEncoder, Status
from ninja.security import APIKeyCookie, HttpBearer
from pydantic import Field, StrictInt

from accounts.languages import reader_language
from accounts.models import User
from games import selectors, services
from games.catalog import registry as catalog
from games.engines.registry import ENGINES
from games.errors import (
    AccountSuspended,
    GameError,
    GameNotFound,
    KeyReused,
    NotAllowed,
    StaleVersion,
)
from games.models import Game, Pace, Seat


class ApiRequest(HttpRequest):
    """The request of an operation: ninja sets ``auth``, the player its authentication found
    (``TokenAuth`` or ``SessionAuth``). Read by the type checker only."""

    auth: User


class TokenAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        from accounts.tokens import OwnerSuspended, token_owner
        from config.guard import guard_read

        try:
            user = token_owner(token, *guard_read(request, token))
        except OwnerSuspended:
            raise AccountSuspended() from None
        if user is not None:
            request.user = user
            # as for a signed-in page: the session's middleware never saw a token
            language = reader_language(request.COOKIES, user)
            if language:
                translation.activate(language)
                request.LANGUAGE_CODE = language
        return user


class OrjsonRenderer(JSONRenderer):
    """orjson: a move's answer carries a view and up to hundreds of legal actions; orjson
    encodes them several times faster than the standard library. Anything orjson does not
    know natively falls back to ninja's encoder (the stdlib one's ``default``)."""

    def render(self, request: HttpRequest, data: Any, *, response_status: int) -> Any:
        return orjson.dumps(data, default=_ENCODER.default)


_ENCODER = NinjaJSONEncoder()  # what orjson does not know natively (dates, lazy text)


def _game_answer(request: ApiRequest, game: Game, **extra: Any) -> HttpResponse:
    """The game as the caller may see it, encoded as it is: letting ninja validate
    ``selectors.game_payload`` against ``GameOut`` again copied every legal action through
    pydantic on every game answer (tests/games/test_api_schema.py holds the answers to the
    schema). The payload's ``revision`` serves the pages and sockets; the API leaves it out,
    as ninja's validation did."""
    body = selectors.game_payload(game, request.auth)
    del body["revision"]
    body.update(extra)
    return HttpResponse(
        orjson.dumps(body, default=_ENCODER.default),
        content_type="application/json; charset=utf-8",
    )


class SessionAuth(APIKeyCookie):
    """The signed-in session; ninja checks the CSRF token on unsafe methods."""

    param_name = "sessionid"

    def _get_key(self, request: HttpRequest) -> str | None:
        # No signed-in session, nothing to protect from forgery: a request with a bad, revoked
        # or missing token is unauthorised (401), not a failed CSRF check (403)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return super()._get_key(request)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = getattr(request, "user", None)
        return user if user is not None and user.is_authenticated and user.is_active else None


DESCRIPTION = """
**Authentication**: `Authorization: Bearer fib_…` with a token from your profile (or the
signed-in session, with its CSRF token for writes). A missing, wrong or revoked token: 401
`unauthorized`.

**Playing**: `GET /api/games` lists your tables (your move first); `GET /api/games/{id}` gives
your view, your `legal_actions` and `version`; `POST /api/games/{id}/actions` sends one of
them with that `version` and a fresh `key`. Act when `legal_actions` is not empty:
`waiting_for.seats` names every seat a reaction window asked, including those that have
already answered (who has answered stays secret). Some moves are never owed: in Mogel
Motte `cheat` and the guard's `accuse` are legal at almost any time, so a bot should play them
sparingly. To hear of your tables, poll `GET /api/games` (every 30 s or more is plenty at the
daily pace), or open a WebSocket with the same header: `/ws/me/` sends `{"type": "lists",
"stamp", "unread"}` whenever your list of tables changes (then `GET /api/games`) or your count
of unread notifications does, and a game's socket pushes the game itself.

**WebSocket**: `wss://…/ws/games/{id}/` with `Authorization: Bearer fib_…` (no cookie and no
Origin needed). It sends `{"type": "state", "version", "game"}` (the `game` as `GET
/api/games/{id}` has it, with `legal_actions`) on connect and after every change you may see;
send `{"version", "action", "key"}` to move (answer `{"type": "ok"}` or an error as above) and
`{"type": "heartbeat"}` now and then to show you are at the table. A bad, revoked or banned
token closes it with code 4401, a table you may not see with 4404.

**Errors** are `{"error", "code"}`, the `error` in your language, the `code` stable:
`malformed` (no JSON object), `invalid` (with `detail`), `unauthorized`, `not_found` (also a
table you may not see), `stale_version` (409, with `version` and the current `game`),
`key_reused`, `account_suspended` (403: a moderator banned the token's owner), `too_late` (an answer to a
window that closed: a race, a slap, a show of hands; a turn move made on an old version is
`stale_version`), `already_answered`, `not_your_turn`, `not_active`, and the
engines' own (`not_in_hand`, `bad_target`, …). A refused request changes nothing.

**Limits**: per client 8 requests in flight and 300 calls a minute (per IP 32 and 1,200):
429 `too_many_parallel` or `rate_limited` with `Retry-After` (seconds). A token opens at most 30
sockets a minute (more close at once with code 4429); moves sent over a socket count with the
token's calls (`rate_limited`, with `retry_after`); its heartbeats and hellos, 10 at once, then
one a second (`rate_limited`, with `retry_after`; refused 30 times in a minute, the socket closes
with 4429). A heartbeat closes the socket (4401) once its token is revoked or its owner banned.
A busy database: 503
with `Retry-After`. Invitations to tables that never start: 5 an hour to one player, 40 in
all (`invitation_limit`); friend requests: 30 an hour. At most 10 of your tables wait for
players at once (`too_many_unstarted_tables`: start or cancel one first). At most 5 of your
tables against bots only (a Learn table, a table started with every other seat a bot) are in
play at once (`too_many_bot_tables`: finish one first); tables with other players are not
counted.
"""

api = NinjaAPI(
    title="Fibbers API",
    version="1",
    description=DESCRIPTION,
    auth=[TokenAuth(), SessionAuth()],
    urls_namespace="api",
    openapi_url="/openapi.json",
    docs_url="/docs",
    renderer=OrjsonRenderer(),
)


def _error(request: HttpRequest, status: int, code: str, message: str, **extra: Any) -> Any:
    return api.create_response(request, {"error": message, "code": code, **extra}, status=status)


@api.exception_handler(GameError)
def game_error(request: HttpRequest, exc: GameError) -> Any:
    extra: dict[str, Any] = {}
    if isinstance(exc, StaleVersion | KeyReused):
        # the current game comes with it: a bot need not read it again before its next move
        game_id = getattr(request, "_fibbers_game_id", None)
        game = Game.objects.filter(pk=game_id).first() if game_id is not None else None
        if game is not None:
            # raised by an operation (post_action): its authentication set request.auth
            extra["game"] = selectors.game_payload(game, cast(ApiRequest, request).auth)
            del extra["game"]["revision"]  # the pages' counter; GameOut has none
        version = getattr(exc, "version", None)
        if version is None and game is not None:
            version = extra["game"]["version"]
        if version is not None:
            extra["version"] = version
    return _error(request, exc.status, exc.code, exc.message, **extra)


# ninja's own errors answer {"detail": …}; every API error has the one Error shape instead.
@api.exception_handler(AuthenticationError)
def unauthorized(request: HttpRequest, exc: AuthenticationError) -> Any:
    response = _error(request, 401, "unauthorized", _("Sign in, or send an API token."))
    response["WWW-Authenticate"] = 'Bearer realm="api"'  # RFC 6750
    return response


# config.inputs says the same of a body it cannot parse; said in the reader's language (the
# token's owner's, found before the body is read), as every other refusal of a move is
UNREADABLE = gettext_noop("Send a JSON object.")


@api.exception_handler(ValidationError)
def invalid(request: HttpRequest, exc: ValidationError) -> Any:
    about_body = all(list(e.get("loc", []))[:1] == ["body"] for e in exc.errors)
    if about_body and not _json_object(request.body):
        # no body, or JSON that is no object ([], null, 1): unreadable, as a broken body is,
        # not a list of missing fields
        return _error(request, 400, "malformed", _(UNREADABLE))
    detail = [
        {"loc": _location(e.get("loc", [])), "msg": str(e.get("msg", ""))} for e in exc.errors
    ]
    return _error(request, 422, "invalid", _("The request is not valid."), detail=detail)


def _json_object(body: bytes) -> bool:
    try:
        return isinstance(orjson.loads(body), dict)
    except orjson.JSONDecodeError:
        return False


def _location(loc: Any) -> list[Any]:
    """ninja names the body parameter after the place: ["body", "body", "version"] reads as
    ["body", "version"]."""
    loc = list(loc)
    return loc[1:] if loc[:2] == ["body", "body"] else loc


@api.exception_handler(HttpError)
def http_error(request: HttpRequest, exc: HttpError) -> Any:
    if exc.status_code == 400 and str(exc).startswith("Cannot parse request body"):
        # a form-encoded or otherwise non-JSON body: the code a broken JSON body gets
        return _error(request, 400, "malformed", _(UNREADABLE))
    code = {400: "bad_request", 403: "forbidden", 405: "method_not_allowed"}.get(
        exc.status_code, "error"
    )
    return _error(request, exc.status_code, code, str(exc))


@api.exception_handler(Http404)
def not_found(request: HttpRequest, exc: Http404) -> Any:
    return _error(request, 404, "not_found", _("Not found."))


def _one_of(values: Any, about: str, default: Any = ...) -> Any:
    """A string field whose allowed values the schema lists (the service says which it takes,
    in the reader's language, when another comes)."""
    return Field(default, description=about, json_schema_extra={"enum": sorted(values)})


class CreateIn(Schema):
    game: str = _one_of(ENGINES, "The game's slug.")
    seats: StrictInt = Field(description="Seats at the table, bots included (each game's range).")
    pace: str = _one_of(
        Pace.values,
        "Time per move: live 60 s, fast 1 h, daily 24 h, relaxed 3 days, or custom "
        "(with move_seconds).",
        Pace.DAILY,
    )
    move_seconds: StrictInt | None = Field(
        None, description="Seconds per move: with the custom pace only (15 s to 14 days)."
    )
    window_seconds: StrictInt | None = Field(
        None, ge=5, description="Seconds of a reaction window (default: the pace's own)."
    )
    bots: StrictInt = 0
    invite: list[str] = []
    join_policy: str = _one_of(
        Game.JoinPolicy.values, "Who may take a seat.", Game.JoinPolicy.INVITED
    )
    allow_spectators: bool = True
    spectator_chat: str = _one_of(
        Game.SpectatorChat.values, "Spectators' table talk.", Game.SpectatorChat.READ
    )
    start_when_full: bool = Field(
        False,
        description="Start by itself when the last seat is taken (not at the live pace, which "
        "waits for everyone to be ready).",
    )
    options: dict[str, Any] = {}


class ActionIn(Schema):
    version: StrictInt  # false, "0" and 0.0 are no version (the socket refused them already)
    action: dict[str, Any]
    key: str = Field(
        "",
        description="Makes a retry safe: the same key with the same move plays it once. Each "
        "seat has its own keys.",
        json_schema_extra={"maxLength": 64},  # longer: 400 bad_key, in the reader's language
    )


class InviteIn(Schema):
    invite: list[str]


class Created(Schema):
    id: int


class Error(Schema):
    """Every error the API answers; some carry more (a stale version: version and game)."""

    error: str
    code: str
    version: int | None = None
    game: dict[str, Any] | None = None
    detail: list[dict[str, Any]] | None = None


class GameOut(Schema):
    """The game as the caller may see it (selectors.game_payload)."""

    id: int
    game: str
    status: str
    version: int
    seat: int | None
    players: list[str]
    view: dict[str, Any] | None
    legal_actions: list[dict[str, Any]]
    waiting_for: dict[str, Any] | None
    deadline: str | None
    result: dict[str, Any] | None


class MoveOut(GameOut):
    """A move's answer: the game, and whether its key had already made this very move (then
    nothing new was played)."""

    replayed: bool


class GameLine(Schema):
    """A table in the caller's lists: what My games shows of it."""

    id: int
    game: str
    status: str
    players: list[str]
    deadline: str | None = Field(description="When the current wait ends (games in play).")
    winners: list[str] | None = Field(description="Finished games: who won.")


class GamesOut(Schema):
    """The caller's tables, as My games lists them. ``older``: pass it as ``before`` for the
    next page of finished games (null: no more)."""

    your_move: list[GameLine] = Field(description="In play, waiting on you: most urgent first.")
    waiting_on_others: list[GameLine]
    gathering: list[GameLine] = Field(description="Tables you sit at, before the start.")
    invitations: list[GameLine] = Field(description="Tables you are invited to (join them).")
    finished: list[GameLine]
    older: int | None = None


class EventsOut(Schema):
    """One page of the log; ``next``: pass it as ``after`` for the next page (null: the end)."""

    events: list[dict[str, Any]] = Field(default_factory=list)
    next: int | None = None


# Statuses every operation may answer: bad input or text (400), no credentials (401), CSRF
# (403), a table hidden from the caller (404), a body of the wrong shape (422), throttled
# (429), database busy (503).
ERRORS = {400: Error, 401: Error, 403: Error, 404: Error, 422: Error, 429: Error, 503: Error}
WRITE_ERRORS = {**ERRORS, 409: Error}


def _visible(request: ApiRequest, game_id: int) -> Game:
    game = selectors.visible_game(game_id, request.auth)
    if game is None:
        raise GameNotFound()
    return game


@api.post("/games", response={201: Created, **WRITE_ERRORS}, summary="Create a table")
def create_game(request: ApiRequest, body: CreateIn) -> Any:
    engine = ENGINES.get(body.game)
    picks = engine is not None and set(engine.start_options) & set(body.options or {})
    if picks and engine is not None and not engine.creator_picks_start:
        raise GameError(catalog.start_drawn_message(body.game), "start_drawn")
    if body.move_seconds is not None and body.pace != Pace.CUSTOM:
        # a preset's time is its own: a client's seconds would be dropped without a word
        raise GameError(_("Seconds per move go with the custom pace only."), "bad_pace")
    if body.start_when_full and body.pace == Pace.LIVE:
        # the form's box is on by default and means nothing there; a client that asks for it
        # explicitly is told rather than given a table that waits for Ready
        raise GameError(
            _("A Live table starts when everyone is ready, not when its last seat is taken."),
            "live_starts_when_ready",
        )
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
        spectator_chat=body.spectator_chat,
        start_when_full=body.start_when_full,
        options=body.options,
    )
    made = api.create_response(request, {"id": game.pk}, status=201)
    made["Location"] = f"/api/games/{game.pk}"  # where to read it
    return made


@api.post(
    "/games/{game_id}/join",
    response={200: GameOut, **WRITE_ERRORS},
    summary="Take a seat (invited, or a friend of the creator)",
)
def join_game(request: ApiRequest, game_id: int) -> Any:
    _visible(request, game_id)
    services.game_join(request.auth, game_id)
    return _game_answer(request, _visible(request, game_id))


@api.post(
    "/games/{game_id}/invite",
    response={200: GameOut, **WRITE_ERRORS},
    summary="Invite more friends before the start (creator)",
)
def invite_more(request: ApiRequest, game_id: int, body: InviteIn) -> Any:
    _visible(request, game_id)
    services.game_invite(request.auth, game_id, body.invite)
    return _game_answer(request, _visible(request, game_id))


@api.post(
    "/games/{game_id}/leave",
    response={204: None, **WRITE_ERRORS},
    summary="Leave a table before the start (the creator cancels it instead: /cancel)",
)
def leave_game(request: ApiRequest, game_id: int) -> Any:
    _visible(request, game_id)
    services.game_leave(request.auth, game_id)
    return Status(204, None)


@api.post(
    "/games/{game_id}/cancel",
    response={204: None, **WRITE_ERRORS},
    summary="Cancel a table before the start (creator); everyone at it is told",
)
def cancel_game(request: ApiRequest, game_id: int) -> Any:
    _visible(request, game_id)
    services.game_cancel(request.auth, game_id)
    return Status(204, None)


@api.post(
    "/games/{game_id}/quit",
    response={200: GameOut, **WRITE_ERRORS},
    summary="Leave a game in play: the bot plays your seat to the end",
)
def quit_game(request: ApiRequest, game_id: int) -> Any:
    _visible(request, game_id)
    services.game_quit(request.auth, game_id)
    return _game_answer(request, _visible(request, game_id))


@api.post(
    "/games/{game_id}/start",
    response={200: GameOut, **WRITE_ERRORS},
    summary="Start the game (creator); empty seats go to bots",
)
def start_game(request: ApiRequest, game_id: int) -> Any:
    _visible(request, game_id)
    services.game_start(request.auth, game_id)
    return _game_answer(request, _visible(request, game_id))


@api.get(
    "/games",
    response={200: GamesOut, **ERRORS},
    summary="Your tables: your move, waiting on others, gathering players, invitations, finished",
)
def list_games(request: ApiRequest, before: int | None = None) -> Any:
    invitations = list(selectors.invitations_for(request.auth))
    games = selectors.my_games(request.auth, before, also=[i.game for i in invitations])
    return {
        "your_move": [_line(g) for g in games.mine],
        "waiting_on_others": [_line(g) for g in games.others],
        "gathering": [_line(g) for g in games.lobby],
        "invitations": [_line(i.game) for i in invitations],
        "finished": [_line(g) for g in games.finished],
        "older": games.older,
    }


def _line(game: Game) -> dict[str, Any]:
    # selectors.my_games read them
    rows = game.seat_rows  # type: ignore[attr-defined]
    return {
        "id": game.pk,
        "game": game.engine,
        "status": game.status,
        "players": [Seat.label(*row) for row in rows],
        "deadline": game.deadline_at.isoformat() if game.deadline_at else None,
        "winners": selectors.winner_names(game) or None,
    }


@api.get(
    "/games/{game_id}",
    response={200: GameOut, **ERRORS},
    summary="The game as the caller may see it",
)
def get_game(request: ApiRequest, game_id: int) -> Any:
    game = _visible(request, game_id)
    if services.apply_if_expired(game):  # never an expired window shown as open
        game = _visible(request, game_id)
    return _game_answer(request, game)


@api.post(
    "/games/{game_id}/actions",
    response={200: MoveOut, **WRITE_ERRORS},
    summary="Make a move",
    description="400 illegal action, 409 stale version (the body carries the current game) or "
    "a key that already made another move (key_reused). The same key with the same move "
    "again answers the game with replayed: true and plays nothing.",
)
def post_action(request: ApiRequest, game_id: int, body: ActionIn) -> Any:
    request._fibbers_game_id = game_id  # type: ignore[attr-defined]
    try:
        result = services.act(request.auth, game_id, body.version, body.action, body.key)
    except NotAllowed:
        _visible(request, game_id)  # whoever may not see the table gets 404, not 403
        raise
    # The change read the game and its seats with the lock: the answer needs no other read.
    return _game_answer(
        request, selectors.with_seats(result.game, result.seats), replayed=result.replayed
    )


@api.get(
    "/games/{game_id}/events",
    response={200: EventsOut, **ERRORS},
    summary="The event log as the caller's seat may see it, a page at a time",
)
def get_events(
    request: ApiRequest,
    game_id: int,
    after: int = 0,
    limit: int = Query(selectors.EVENTS_PAGE, ge=1, le=selectors.EVENTS_PAGE_MAX),
) -> Any:
    events, cursor = selectors.events_page(_visible(request, game_id), request.auth, after, limit)
    return {"events": events, "next": cursor}
