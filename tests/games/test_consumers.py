"""The game socket over the real Redis channel layer: own view only, errors only to the sender."""

from __future__ import annotations

import asyncio
import os
import random

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from games import services
from games.engines import registry
from games.models import Game
from tests.games.helpers import connect as connect_to
from tests.games.helpers import next_human_move, refused_with, seat_users

pytestmark = pytest.mark.django_db(transaction=True)

IDLE_SECONDS = float(os.environ.get("SOCKET_IDLE_SECONDS", "65"))


async def connect(user, game_id):
    return await connect_to(user, f"/ws/games/{game_id}/")


def test_each_seat_gets_only_its_own_view_and_a_fresh_one_after_any_move(started):
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    engine = registry.get(game.engine)

    async def scenario():
        sockets = {}
        for seat, user in users.items():
            communicator, connected, _ = await connect(user, game.pk)
            assert connected
            first = await communicator.receive_json_from(timeout=5)
            assert first["game"]["seat"] == seat
            assert first["game"]["view"] == engine.view(game.state, seat)
            sockets[seat] = communicator
        seat, action = await sync_to_async(next_human_move)(game, random.Random(1))
        await sync_to_async(services.act)(users[seat], game.pk, game.version_for(seat), action)
        fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
        for index, communicator in sockets.items():
            message = await communicator.receive_json_from(timeout=5)
            assert message["version"] == fresh.version
            assert message["game"]["view"] == engine.view(fresh.state, index)
            await communicator.disconnect()

    asyncio.run(scenario())


def test_a_stranger_is_refused_and_errors_reach_only_the_sender(started, make_user):
    game = started("imperador")
    users = seat_users(game)
    stranger = make_user("mallory")

    async def scenario():
        assert await refused_with(stranger, f"/ws/games/{game.pk}/") == 4404
        a, _, _ = await connect(users[0], game.pk)
        b, _, _ = await connect(users[1], game.pk)
        await a.receive_json_from(timeout=5)
        await b.receive_json_from(timeout=5)
        await a.send_json_to({"version": 0, "action": {"type": "forged"}})
        reply = await a.receive_json_from(timeout=5)
        assert reply["type"] == "error" and reply["code"]
        assert await b.receive_nothing(timeout=0.5)
        await a.send_to(text_data="not json at all")
        assert (await a.receive_json_from(timeout=5))["code"] == "malformed"
        await a.disconnect()
        await b.disconnect()

    asyncio.run(scenario())


@pytest.mark.skipif(IDLE_SECONDS <= 0, reason="idle soak disabled")
@pytest.mark.slow
def test_an_idle_socket_still_hears_the_next_move_after_a_minute(started):
    """channels-redis with redis-py 8 dropped idle consumers every ~5 s without an explicit
    socket_timeout; this keeps a socket idle for over a minute on the real Redis layer."""
    game = started("cockroach-poker-royal")
    users = seat_users(game)

    async def scenario():
        communicator, connected, _ = await connect(users[0], game.pk)
        assert connected
        await communicator.receive_json_from(timeout=5)
        await asyncio.sleep(IDLE_SECONDS)
        seat, action = await sync_to_async(next_human_move)(game, random.Random(2))
        await sync_to_async(services.act)(users[seat], game.pk, game.version_for(seat), action)
        message = await communicator.receive_json_from(timeout=10)
        assert message["type"] == "state" and message["version"] > game.version
        await communicator.disconnect()

    asyncio.run(scenario())


def test_a_hello_after_the_connects_own_state_is_not_answered_with_it_again(started):
    """A reconnecting page says hello with the revision it held; the socket has just sent
    the current state on connect. It sent it again, and the page fetched its parts twice."""
    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]

    async def scenario():
        communicator, connected, _ = await connect(alice, game.pk)
        assert connected
        first = await communicator.receive_json_from(timeout=5)
        assert first["type"] == "state"
        await communicator.send_json_to({"type": "hello", "revision": first["revision"] - 1})
        answer = await communicator.receive_json_from(timeout=5)
        assert answer["type"] == "heartbeat" and answer["revision"] == first["revision"]
        await communicator.disconnect()

    asyncio.run(scenario())


def test_a_hello_says_when_the_talk_has_a_line_newer_than_the_pages(started):
    """A line posted between a page's render and its socket's join (or while the socket was
    away) was announced to nobody there: the page never showed it (a journey under load)."""
    from games.services import chat

    game = started("cockroach-poker-royal")
    users = seat_users(game)
    line = chat.post(users[1], game.pk, "Nice bluff!")  # before alice's socket joins

    async def answers(shown):
        communicator, connected, _ = await connect(users[0], game.pk)
        assert connected
        first = await communicator.receive_json_from(timeout=5)
        await communicator.send_json_to(
            {"type": "hello", "revision": first["revision"], "chat": shown}
        )
        frames = [await communicator.receive_json_from(timeout=5)]
        if not await communicator.receive_nothing(timeout=1):
            frames.append(await communicator.receive_json_from(timeout=5))
        await communicator.disconnect()
        return [frame["type"] for frame in frames]

    assert asyncio.run(answers(0)) == ["heartbeat", "chat"]  # the page showed no line
    assert asyncio.run(answers(line.seq)) == ["heartbeat"]  # it showed the newest


def test_a_frame_for_a_socket_that_just_closed_does_not_end_the_consumer():
    """Daphne raises when a frame is sent on a socket closed meanwhile; raised on, it ended
    the consumer before ``disconnect``, which left the dead channel in its groups."""
    from games.consumers import GameConsumer

    consumer = GameConsumer()

    async def closed(_message):
        raise RuntimeError("Attempt to send on a closed protocol")

    consumer.base_send = closed
    asyncio.run(consumer.send_json({"type": "state"}))  # no exception


def test_a_refused_socket_move_is_told_in_the_players_language(started):
    """A Czech player's socket move was refused in English (review, 2026-12-01): the socket's
    answers speak the player's language, as the pages do."""
    game = started("mogel-motte")
    user = seat_users(game)[0]
    user.language = "cs"
    user.save(update_fields=["language"])

    async def scenario():
        socket, connected, _ = await connect(user, game.pk)
        assert connected
        await socket.receive_json_from(timeout=5)
        await socket.send_json_to({"version": game.version_for(0), "action": {"type": "fly"}})
        reply = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return reply

    reply = asyncio.run(scenario())

    assert reply["type"] == "error" and reply["code"] == "unknown_action"
    with translation.override("cs"):
        said = translation.gettext("'%(kind)s' is not an action in this game.") % {"kind": "fly"}
    assert reply["error"] == said != "'fly' is not an action in this game."
