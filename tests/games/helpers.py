"""Drives whole games through the service layer, the pages and the API."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any, TypeVar

from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games import services
from games.engines import registry
from games.engines.core import Waiting
from games.models import Game, Seat
from games.replays import rebuild
from games.routing import websocket_urlpatterns
from games.services.change import GameChange, same_wait

# What differs between two renderings of the same page without meaning anything: tokens, and
# the server's time at rendering (the clock's offset correction).
CSRF = re.compile(
    r'name="csrfmiddlewaretoken" value="[^"]*"|name="key" value="[^"]*"|csrftoken=[^;"]*'
    r'|data-now="[^"]*"'
)


def strip_tokens(html: str) -> str:
    return CSRF.sub("", html)


def app_for(user: Any) -> Any:
    """The site's socket routes with ``user`` signed in (the session middleware's part)."""
    router = URLRouter(websocket_urlpatterns)

    async def app(scope, receive, send):
        return await router({**scope, "user": user}, receive, send)

    return app


async def connect(user: Any, path: str) -> tuple[WebsocketCommunicator, bool, int | None]:
    communicator = WebsocketCommunicator(app_for(user), path)
    connected, code = await communicator.connect()
    return communicator, connected, code


async def refused_with(user: Any, path: str) -> int | None:
    """The code a refused socket closes with: accepted, then closed before any frame (a close
    before the accept reaches a browser as a bare failure, 1006, without the code, and the
    page tried again for good). None when the socket is kept: its first frame arrives."""
    communicator = WebsocketCommunicator(app_for(user), path)
    connected, _code = await communicator.connect()
    assert connected
    output = await communicator.receive_output(timeout=5)
    await communicator.disconnect()  # refused or not, the consumer ends cleanly
    return output["code"] if output["type"] == "websocket.close" else None


async def at_the_table(user: Any, game_id: int) -> WebsocketCommunicator:
    """The table page's socket, open and beating as the page's does: what makes a player
    present (its first heartbeat answered, so the beat was taken)."""
    socket, connected, _code = await connect(user, f"/ws/games/{game_id}/")
    assert connected
    assert (await socket.receive_json_from(timeout=5))["type"] == "state"
    await socket.send_json_to({"type": "heartbeat"})
    assert (await socket.receive_json_from(timeout=5))["type"] == "heartbeat"
    return socket


def seat_users(game: Game) -> dict[int, Any]:
    return {
        s.index: s.user for s in Seat.objects.filter(game=game, is_bot=False).select_related("user")
    }


def next_human_move(game: Game, rng: random.Random) -> tuple[int, dict[str, Any]] | None:
    """A sensible legal move for a human seat the game waits on, chosen by the engine's bot."""
    engine = registry.get(game.engine)
    humans = seat_users(game)
    waiting = engine.waiting_for(game.state)
    owed = [s for s in waiting.seats if s in humans and engine.legal_actions(game.state, s)]
    if not owed:
        return None
    seat = rng.choice(owed)
    return seat, engine.bot_action(game.state, seat, rng)


def a_move_that_ends_the_turn(game: Game, seat: int) -> dict:
    """A legal move after which the game no longer waits on this turn (a peek does not end
    an answer: the pass that follows is part of the same turn)."""
    engine = registry.get(game.engine)
    before = engine.waiting_for(game.state)
    for action in engine.legal_actions(game.state, seat):
        after, _events = engine.apply(game.state, seat, action)
        if not same_wait(before, engine.waiting_for(after)):
            return action
    raise AssertionError("every move keeps the turn")


def form_fields(action: dict[str, Any], version: int, key: str) -> dict[str, str]:
    fields = {"type": action["type"], "version": str(version), "key": key}
    fields.update({f"f_{k}": json.dumps(v) for k, v in action.items() if k != "type"})
    return fields


def assert_replays(game: Game) -> None:
    game.refresh_from_db()
    assert json.dumps(rebuild(game), sort_keys=True) == json.dumps(game.state, sort_keys=True)


def to_the_show_of_hands(game: Game) -> Waiting:
    """An Imperador game of people played until its first show of hands opens (the emperor's
    first announcement always opens one); returns that wait."""
    engine = registry.get(game.engine)
    users = seat_users(game)
    for _move in range(10):
        waiting = engine.waiting_for(game.state)
        if waiting.window == "hands":
            assert len(waiting.seats) >= 2
            return waiting
        (seat,) = waiting.seats
        action = engine.legal_actions(game.state, seat)[0]
        services.act(users[seat], game.pk, game.version_for(seat), action)
        game.refresh_from_db()
    raise AssertionError("no show of hands opened")


def bots_moment_now(game: Game, rng: random.Random) -> bool:
    """What the game's next bots' moment does (games/services/bot_time.py), taken now rather
    than at its drawn time: for tests that play on without waiting for the clock."""
    with GameChange(game.pk) as change:
        return change.take_bot_moment(rng)


def play_one_step(game: Game, users: dict[int, Any], rng: random.Random) -> None:
    """One human move chosen by the engine's bot, or, when only bots owe, their moment."""
    move = next_human_move(game, rng)
    if move is None:
        assert bots_moment_now(game, rng), "the game waits on nobody"
        return
    seat, action = move
    services.act(users[seat], game.pk, game.version_for(seat), action)


Choose = Callable[[dict[str, Any], int, random.Random], dict[str, Any]]


def miss_turns(
    game: Game,
    missing: set[int],
    monkeypatch: Any,
    until: Callable[[Game], bool],
    seed: int = 1,
    moves: int = 600,
    choose: Choose | None = None,
) -> Game:
    """The players of ``missing`` let their turns run out (the clock moves past each wait's
    own deadline and its task runs) until ``until(game)`` holds between two changes; the
    others play (``choose(state, seat, rng)`` choosing for them, the engine's bot by
    default), and bots' moments come at once. The clock stays where it got to."""
    from datetime import timedelta

    from django.utils import timezone

    rng = random.Random(seed)
    engine = registry.get(game.engine)
    users = seat_users(game)
    for _ in range(moves):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE, "the game ended first"
        if until(game):
            return game
        bots = set(Seat.objects.filter(game=game, is_bot=True).values_list("index", flat=True))
        waiting = engine.waiting_for(game.state)
        playing = [
            s
            for s in waiting.seats
            if s not in missing and s not in bots and engine.may_act(game.state, s)
        ]
        if playing:
            seat = playing[0]
            action = (choose or engine.bot_action)(game.state, seat, rng)
            services.act(users[seat], game.pk, game.version_for(seat), action)
        elif set(waiting.seats) <= bots:
            assert bots_moment_now(game, rng), "the bots owe but did nothing"
        else:
            assert game.deadline_at is not None
            later = game.deadline_at + timedelta(seconds=1)
            monkeypatch.setattr(timezone, "now", lambda later=later: later)
            assert services.apply_deadline(game.pk)
    raise AssertionError(f"seats {sorted(missing)} missed turns, and still not that")


def miss_until_the_bot_plays(
    game: Game,
    missing: set[int],
    monkeypatch: Any,
    seed: int = 1,
    moves: int = 600,
    choose: Choose | None = None,
) -> Game:
    """The real way to a seat the bot plays: the players of ``missing`` let their turns run
    out (``miss_turns``) until the bot has taken their seats."""

    def handed_over(game: Game) -> bool:
        bots = Seat.objects.filter(game=game, is_bot=True).values_list("index", flat=True)
        return missing <= set(bots)

    return miss_turns(game, missing, monkeypatch, handed_over, seed, moves, choose)


def play_to_the_end(game: Game, seed: int = 1) -> Game:
    """Plays the humans' moves with the engine's bot until the game is over; when only bots
    owe (a window), their moment comes at once."""
    rng = random.Random(seed)
    users = seat_users(game)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        play_one_step(game, users, rng)
    game.refresh_from_db()
    assert game.is_over, "the game did not end"
    return game


Found = TypeVar("Found")


def play_until(
    table: Callable[[], Game],
    found: Callable[[Game], Found | None],
    *,
    seed: int,
    tables: int = 40,
    moves: int = 400,
) -> Found:
    """Plays the humans' moves (the engine's bot choosing for them), at table after table
    made by ``table()``, until ``found`` answers something for a game as it stands between
    two moves; when only bots owe, their moment comes at once."""
    rng = random.Random(seed)
    for _table in range(tables):
        game = table()
        users = seat_users(game)
        for _move in range(moves):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            hit = found(game)
            if hit is not None:
                return hit
            play_one_step(game, users, rng)
    raise AssertionError(f"not found at {tables} tables")


def turn_game(started: Any, **options: Any) -> Game:
    """A started Cockroach Poker Royal table whose current wait is a human's turn (a deal may
    open on something else: dealt again, up to ten times)."""
    for _ in range(10):
        game = started("cockroach-poker-royal", **options)
        if registry.get(game.engine).waiting_for(game.state).kind == "turn":
            return game
    raise AssertionError("no turn to wait on")


def engine_state_where(
    slug: str, players: int, wanted: Callable[[dict[str, Any]], bool], seeds: int = 300
) -> dict[str, Any]:
    """A state of the engine's own making where ``wanted`` holds, played by its bots from fixed
    seeds: for rare moments (a fox holder at a show of hands, an emperor taking from a liar)
    that a test cannot wait for in real play, since the service's deal cannot be seeded."""
    engine = registry.get(slug)
    for seed in range(seeds):
        rng, state = random.Random(seed), engine.setup(players, {}, seed)
        for _ in range(3000):
            if engine.result(state) is not None:
                break
            if wanted(state):
                return state
            seat = next(
                s for s in engine.waiting_for(state).seats if engine.legal_actions(state, s)
            )
            state, _events = engine.apply(state, seat, engine.bot_action(state, seat, rng))
    raise AssertionError("no such state")
