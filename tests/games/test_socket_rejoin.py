"""A table's socket hears moves again by itself after Redis lost its keys (a restart without
persistence): the groups went with them, and every open table heard moves only by its beat,
up to 20 s late, until its player reloaded (a play-through review, after its Redis database
was emptied). The beat that finds a change no ping announced re-joins the groups at once.
Over the real Redis channel layer, its group keys deleted as a restart loses them."""

from __future__ import annotations

import asyncio

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings

from games import services
from games.engines import registry
from games.models import Game
from tests.games.helpers import at_the_table, connect, seat_users

pytestmark = pytest.mark.django_db(transaction=True)


def _move(game_id: int) -> None:
    game = Game.objects.get(pk=game_id)
    engine = registry.get(game.engine)
    (seat,) = engine.waiting_for(game.state).seats
    user = seat_users(game)[seat]
    services.act(user, game.pk, game.version_for(seat), engine.legal_actions(game.state, seat)[0])


def _redis_forgets() -> None:
    """What a restart without persistence does to the channel layer: its groups are gone
    (only those keys: the worker's broker queues and cache live in the same database)."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    groups = list(client.scan_iter("asgi:group:*"))
    assert groups, "the sockets' groups are in Redis"
    client.delete(*groups)


def test_a_table_socket_rejoins_its_group_when_its_beat_finds_a_missed_move(started):
    game = started("cockroach-poker-royal")
    watcher = seat_users(game)[0]

    async def run() -> None:
        socket = await at_the_table(watcher, game.pk)
        await sync_to_async(_redis_forgets)()
        await sync_to_async(_move)(game.pk)
        assert await socket.receive_nothing(timeout=1), "the ping went to a forgotten group"
        await socket.send_json_to({"type": "heartbeat"})
        beat = await socket.receive_json_from(timeout=5)
        assert beat["type"] == "heartbeat"  # the page fetches the change from it

        await sync_to_async(_move)(game.pk)

        frame = await socket.receive_json_from(timeout=5)
        assert frame["type"] == "state" and frame["revision"] > beat["revision"]
        await socket.disconnect()

    asyncio.run(run())


def test_the_players_own_socket_rejoins_when_its_beat_finds_changed_lists(trio):
    alice, bob, _carol = trio

    async def run() -> None:
        socket, connected, _code = await connect(bob, "/ws/me/")
        assert connected
        first = await socket.receive_json_from(timeout=5)
        await sync_to_async(_redis_forgets)()
        await sync_to_async(services.game_create)(
            alice, engine="imperador", seats=3, invite=["bob"]
        )
        assert await socket.receive_nothing(timeout=1)
        await socket.send_json_to({"type": "heartbeat"})
        beat = await socket.receive_json_from(timeout=5)
        assert beat["stamp"] != first["stamp"]

        await sync_to_async(services.game_create)(
            alice, engine="imperador", seats=3, invite=["bob"]
        )

        pinged = await socket.receive_json_from(timeout=5)
        assert pinged["type"] == "lists" and pinged["stamp"] != beat["stamp"]
        await socket.disconnect()

    asyncio.run(run())


def test_a_socket_whose_session_signed_out_while_redis_forgot_is_closed_not_rejoined(started):
    """Signing out closes the session's sockets by a ping to its group, which a Redis
    restart loses with the others: the beat that finds the missed move must not put the
    socket back in its groups (a review of the change), but close it as the ping would."""
    from django.contrib.sessions.models import Session
    from django.test import Client

    from tests.games.test_watchers_and_sockets import _socket

    game = started("cockroach-poker-royal")
    watcher = seat_users(game)[0]
    browser = Client()
    browser.force_login(watcher)

    async def run() -> None:
        socket = _socket(browser, f"/ws/games/{game.pk}/")
        assert (await socket.connect(timeout=5))[0]
        await socket.receive_json_from(timeout=5)
        await sync_to_async(_redis_forgets)()
        # signed out (a sign-out deletes the session's row), its ping lost with the groups
        await sync_to_async(lambda: Session.objects.all().delete())()
        await sync_to_async(_move)(game.pk)

        await socket.send_json_to({"type": "heartbeat"})

        closed = await socket.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4401}
        await socket.disconnect()

    asyncio.run(run())
