"""Who may watch a table (one rule on API, page, events and socket), and a socket that holds
under hostile frames and follows its user's standing."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test import Client

from accounts.services import friendship_create, user_ban, user_block
from games import services
from games.models import Game
from tests.games.helpers import connect as connect_to
from tests.games.helpers import next_human_move, seat_users
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def watched(started, make_user):
    """A started table (alice, bob, carol) and dave, a friend of carol only."""
    game = started("cockroach-poker-royal")
    dave = make_user("dave")
    friendship_create(dave, game.seats.get(index=2).user)
    return game, dave


def _answers(game: Game, user) -> dict[str, int]:
    client = Client()
    client.force_login(user)
    return {
        "api": client.get(f"/api/games/{game.pk}").status_code,
        "events": client.get(f"/api/games/{game.pk}/events").status_code,
        "page": client.get(f"/games/{game.pk}/").status_code,
    }


def _socket_code(user, game: Game) -> int | None:
    async def scenario():
        communicator, connected, code = await connect(user, game.pk)
        await communicator.disconnect()  # refused or not, the consumer ends cleanly
        return None if connected else code

    return asyncio.run(scenario())


def test_a_friend_of_a_player_may_watch(watched):
    game, dave = watched
    assert _answers(game, dave) == {"api": 200, "events": 200, "page": 200}
    assert _socket_code(dave, game) is None


@pytest.mark.parametrize("direction", ["blocked_by_player", "blocked_a_player"])
def test_a_block_with_any_seated_player_hides_the_table_everywhere(watched, direction):
    game, dave = watched
    alice = game.seats.get(index=0).user
    if direction == "blocked_by_player":
        user_block(alice, dave)  # alice blocked dave: carol's friendship must not let him watch
    else:
        user_block(dave, alice)
    assert _answers(game, dave) == {"api": 404, "events": 404, "page": 404}
    assert _socket_code(dave, game) == 4404


def test_a_non_numeric_socket_path_is_refused_not_a_server_error(watched):
    game, _dave = watched
    user = game.seats.get(index=0).user

    async def scenario():
        for path in ("/ws/games/abc/", "/ws/games/1/x/", "/ws/elsewhere/"):
            communicator, connected, code = await connect_to(user, path)
            assert not connected and code == 4404, path
            await communicator.disconnect()  # let the refused consumer end cleanly

    asyncio.run(scenario())


def test_hostile_frames_get_an_error_frame_and_the_socket_stays_open(watched):
    game, _dave = watched
    user = game.seats.get(index=0).user

    async def scenario():
        communicator, connected, _ = await connect(user, game.pk)
        assert connected
        await communicator.receive_json_from(timeout=5)
        frames = {
            "too_deep": '{"a":' * 100 + "1" + "}" * 100,
            # Deeper than the interpreter's own JSON recursion limit, still under the size bound.
            "too_deep ": "[" * 4000 + "]" * 4000,
            "too_large": json.dumps({"version": 1, "action": {"type": "x" * 10000}}),
            "control_characters": json.dumps({"version": 1, "action": {}, "key": "a\x00b"}),
        }
        for code, frame in frames.items():
            await communicator.send_to(text_data=frame)
            reply = await communicator.receive_json_from(timeout=5)
            assert reply["type"] == "error" and reply["code"] == code.strip()
        # Still open and still answering.
        await communicator.send_to(text_data=json.dumps({"version": 0, "action": {}}))
        assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
        await communicator.disconnect()

    asyncio.run(scenario())


def _close_this_threads_connection() -> None:
    connection.close()  # resolved in the calling thread: that thread's own connection


def test_a_banned_players_socket_closes_at_the_next_change(watched, admin_user):
    game, dave = watched
    users = seat_users(game)

    async def scenario():
        communicator, connected, _ = await connect(dave, game.pk)
        assert connected
        await communicator.receive_json_from(timeout=5)
        await sync_to_async(user_ban)(admin_user, dave, "abuse")
        seat, action = await sync_to_async(next_human_move)(game, random.Random(3))
        await sync_to_async(services.act)(users[seat], game.pk, game.version, action)
        closed = await communicator.receive_output(timeout=5)
        assert closed["type"] == "websocket.close", closed
        # what the server sends after a close: the consumer ends by its own path, not by the
        # loop cancelling it at the end of asyncio.run (once seen hanging there in a full run)
        await communicator.disconnect()
        # the helper thread's connection would outlive the test and hold the test database
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())
