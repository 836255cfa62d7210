"""The table sockets' read on the event loop (games/live_read.py): the same game as the ORM
reads, one connection per server process while a table socket is open, and a broken
connection costs no frame."""

from __future__ import annotations

import asyncio
import random

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from games import live_read, services
from games.models import Game
from tests.games.helpers import next_human_move, seat_users
from tests.games.test_consumers import connect
from tests.games.test_table_read import fields

pytestmark = pytest.mark.django_db(transaction=True)


def sockets_connections() -> list[int]:
    """The server processes' loop-read connections to this database, by backend pid."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE application_name = %s AND datname = %s",
            [live_read.APPLICATION_NAME, connection.settings_dict["NAME"]],
        )
        return [row[0] for row in cursor.fetchall()]


def test_the_loop_read_builds_what_the_orm_reads(started):
    game = started("cockroach-poker-royal")

    async def read():
        return await live_read.reader.game_with_seats(
            game.pk
        ), await live_read.reader.game_with_seats(10**9)

    read_game, missing = asyncio.run(read())
    assert missing is None
    orm = Game.objects.prefetch_related("seats__user").get(pk=game.pk)
    assert fields(read_game) == fields(orm)
    assert [fields(s) for s in read_game.seats.all()] == [
        fields(s) for s in sorted(orm.seats.all(), key=lambda s: s.index)
    ]
    assert [fields(s.user) for s in read_game.seats.all()] == [
        fields(s.user) for s in sorted(orm.seats.all(), key=lambda s: s.index)
    ]


def test_one_connection_while_a_table_socket_is_open_and_none_after(started):
    game = started("imperador")
    users = seat_users(game)

    async def scenario():
        sockets = []
        for user in users.values():
            communicator, connected, _ = await connect(user, game.pk)
            assert connected
            await communicator.receive_json_from(timeout=5)
            sockets.append(communicator)
        seat, action = await sync_to_async(next_human_move)(game, random.Random(2))
        await sync_to_async(services.act)(users[seat], game.pk, game.version_for(seat), action)
        for communicator in sockets:
            assert (await communicator.receive_json_from(timeout=5))["type"] == "state"
        during = await sync_to_async(sockets_connections)()
        for communicator in sockets[:-1]:
            await communicator.disconnect()
        one_left = await sync_to_async(sockets_connections)()
        await sockets[-1].disconnect()
        after = await sync_to_async(sockets_connections)()
        return during, one_left, after

    during, one_left, after = asyncio.run(scenario())
    assert len(during) == 1  # three sockets, one ping: one connection, one read
    assert one_left == during
    assert after == []


def test_a_broken_connection_costs_no_frame(started):
    """The database ends the loop read's connection between two moves: the next ping is
    still answered (read on the sync thread), and the one after reconnects."""
    game = started("imperador")
    users = seat_users(game)

    def terminate() -> None:
        with connection.cursor() as cursor:
            for pid in sockets_connections():
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])

    async def move_and_hear(sockets, rng) -> None:
        fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
        seat, action = await sync_to_async(next_human_move)(fresh, rng)
        await sync_to_async(services.act)(users[seat], game.pk, fresh.version_for(seat), action)
        after = await sync_to_async(Game.objects.get)(pk=game.pk)
        told = [i for i in sockets if after.revision_for(i) > fresh.revision_for(i)]
        assert told  # a move someone could observe
        for index in told:  # a secret answer reaches only the seats that can observe it
            message = await sockets[index].receive_json_from(timeout=5)
            assert message["type"] == "state" and message["revision"] == after.revision_for(index)

    async def scenario():
        rng = random.Random(3)
        sockets = {}
        for seat, user in users.items():
            communicator, connected, _ = await connect(user, game.pk)
            assert connected
            await communicator.receive_json_from(timeout=5)
            sockets[seat] = communicator
        await move_and_hear(sockets, rng)
        first = await sync_to_async(sockets_connections)()
        await sync_to_async(terminate)()
        await move_and_hear(sockets, rng)  # the read fails on the loop, then on the thread
        await move_and_hear(sockets, rng)
        second = await sync_to_async(sockets_connections)()
        for communicator in sockets.values():
            await communicator.disconnect()
        return first, second

    first, second = asyncio.run(scenario())
    assert len(first) == 1 and len(second) == 1 and first != second
