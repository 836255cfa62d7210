"""A batch of group pings in one exchange with Redis delivers what ``group_send`` would:
the same messages to the same channels, in the batch's order, with the layer's capacity and
expiry rules (games/layer_batch.py). Against the real Redis of the test settings."""

from __future__ import annotations

import asyncio
import socket
import time
import uuid

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from redis.asyncio.connection import AbstractConnection as AsyncConnection
from redis.connection import AbstractConnection as SyncConnection

from games.layer_batch import group_send_many

pytestmark = pytest.mark.skipif(not settings.REDIS_URL, reason="needs Redis")


def _layer(**options) -> RedisChannelLayer:
    return RedisChannelLayer(
        hosts=[settings.REDIS_URL], prefix=f"test-batch-{uuid.uuid4().hex[:8]}", **options
    )


async def _inbox(layer, channel: str) -> list[dict]:
    """Everything waiting for ``channel``, in the order it is received."""
    received = []
    while True:
        try:
            message = await asyncio.wait_for(layer.receive(channel), timeout=0.3)
        except TimeoutError:
            return received
        received.append({k: v for k, v in message.items() if k != "__asgi_channel__"})


def _run(scenario):
    return asyncio.run(scenario())


async def send_many(layer, pings) -> int:
    # the batch is sent from a thread, as a committing request sends it
    return await sync_to_async(group_send_many, thread_sensitive=False)(layer, pings)


def ping(n: int) -> dict:
    return {"type": "x.ping", "n": n}


def test_each_channel_gets_its_groups_messages_in_the_batchs_order():
    layer = _layer()

    async def scenario():
        # two sockets of one process share a Redis key: their messages name them apart
        a, b, c = [await layer.new_channel() for _ in range(3)]
        await layer.group_add("table", a)
        await layer.group_add("table", b)
        await layer.group_add("user-1", b)
        await layer.group_add("user-2", c)
        over = await send_many(
            layer,
            [("table", ping(1)), ("user-1", ping(2)), ("nobody", ping(3)), ("table", ping(4))],
        )
        inboxes = [await _inbox(layer, channel) for channel in (a, b, c)]
        await layer.flush()
        return over, inboxes

    over, (a, b, c) = _run(scenario)
    assert over == 0
    assert a == [ping(1), ping(4)]
    assert b == [ping(1), ping(2), ping(4)]
    assert c == []


def test_the_same_pings_through_group_send_arrive_the_same():
    pings = [("g", ping(1)), ("h", ping(2)), ("g", ping(3))]

    async def deliver(batched: bool) -> list[list[dict]]:
        layer = _layer()
        channels = [await layer.new_channel() for _ in range(2)]
        await layer.group_add("g", channels[0])
        await layer.group_add("h", channels[0])
        await layer.group_add("h", channels[1])
        if batched:
            await send_many(layer, pings)
        else:
            for group, message in pings:
                await layer.group_send(group, message)
                await asyncio.sleep(0.001)  # group_send orders by its clock's reading
        inboxes = [await _inbox(layer, channel) for channel in channels]
        await layer.flush()
        return inboxes

    async def scenario():
        return await deliver(True), await deliver(False)

    batched, one_by_one = _run(scenario)
    assert batched == one_by_one == [[ping(1), ping(2), ping(3)], [ping(2)]]


def test_a_full_channel_is_skipped_and_counted():
    layer = _layer(capacity=2)

    async def scenario():
        full, other = "full", "other"  # channels of their own keys (not process-local)
        await layer.group_add("g", full)
        await layer.group_add("g", other)
        await layer.send(full, ping(0))
        await layer.send(full, ping(0))
        over = await send_many(layer, [("g", ping(1))])
        inboxes = await _inbox(layer, full), await _inbox(layer, other)
        await layer.flush()
        return over, inboxes

    over, (full, other) = _run(scenario)
    assert over == 1
    assert full == [ping(0), ping(0)]
    assert other == [ping(1)]


def test_a_member_past_the_group_expiry_is_dropped():
    layer = _layer(group_expiry=1)

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        await asyncio.sleep(2.1)
        await send_many(layer, [("g", ping(1))])
        inbox = await _inbox(layer, channel)
        members = await layer.connection(0).zrange(layer._group_key("g"), 0, -1)
        await layer.flush()
        return inbox, members

    inbox, members = _run(scenario)
    assert inbox == [] and members == []


def _count_exchanges(monkeypatch) -> tuple[list[int], list[int]]:
    """(the batch's sends: redis-py, sync; channels-redis's own: redis-py asyncio)"""
    batch_sends: list[int] = []
    loop_sends: list[int] = []
    real_sync, real_async = SyncConnection.send_packed_command, AsyncConnection.send_packed_command

    def counting_sync(self, command, check_health=True):
        batch_sends.append(1)
        return real_sync(self, command, check_health)

    async def counting_async(self, command, check_health=True):
        loop_sends.append(1)
        return await real_async(self, command, check_health)

    monkeypatch.setattr(SyncConnection, "send_packed_command", counting_sync)
    monkeypatch.setattr(AsyncConnection, "send_packed_command", counting_async)
    return batch_sends, loop_sends


def test_a_batch_is_two_exchanges_with_redis_where_one_by_one_takes_four_each(monkeypatch):
    batch_sends, loop_sends = _count_exchanges(monkeypatch)
    pings = [(f"g{i}", ping(i)) for i in range(4)]

    async def scenario():
        layer = _layer()
        for group, _message in pings:
            await layer.group_add(group, await layer.new_channel())
        await send_many(layer, pings)  # connects, and loads the script into Redis once
        batch_sends.clear()
        loop_sends.clear()
        await send_many(layer, pings)
        batched = len(batch_sends) + len(loop_sends)
        for group, message in pings:
            await layer.group_send(group, message)
        one_by_one = len(loop_sends)
        await layer.flush()
        return batched, one_by_one

    batched, one_by_one = _run(scenario)
    assert batched == 2
    assert one_by_one == 4 * 4


def test_a_batch_to_groups_nobody_listens_to_is_one_exchange(monkeypatch):
    batch_sends, _loop_sends = _count_exchanges(monkeypatch)
    pings = [(f"g{i}", ping(i)) for i in range(4)]

    async def scenario():
        layer = _layer()
        listener = await layer.new_channel()
        await layer.group_add("g0", listener)
        await send_many(layer, pings)  # connects, loads both scripts
        await layer.group_discard("g0", listener)
        batch_sends.clear()
        await send_many(layer, pings)
        sent = len(batch_sends)
        inbox = await _inbox(layer, listener)
        await layer.flush()
        return sent, inbox

    sent, inbox = _run(scenario)
    assert sent == 1  # the members' listing; no group has one, so nothing to add
    assert inbox == [ping(0)]  # the first batch's, while it listened; none from the second


def test_a_layer_that_is_not_redis_gets_one_group_send_a_ping():
    layer = InMemoryChannelLayer()

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        await send_many(layer, [("g", ping(1)), ("g", ping(2))])
        return [await layer.receive(channel) for _ in range(2)]

    received = _run(scenario)
    assert [m["n"] for m in received] == [1, 2]


def test_a_changes_pings_leave_together_before_the_call_returns(monkeypatch):
    """games/broadcast.py hands a change's table and list pings to Redis in one batch, from
    the committing thread: they are in Redis when the call returns."""
    from games import broadcast

    layer = _layer()
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    batches: list[list[str]] = []
    real = group_send_many

    def watched(layer, pings):
        batches.append([group for group, _message in pings])
        return real(layer, pings)

    monkeypatch.setattr(broadcast, "group_send_many", watched)

    async def scenario():
        table_socket, user_socket = await layer.new_channel(), await layer.new_channel()
        await layer.group_add(broadcast.group_name(41), table_socket)
        await layer.group_add(broadcast.user_group_name(2), user_socket)
        notify = sync_to_async(broadcast.notify_game_changed, thread_sensitive=False)
        await notify(41, 7, None, 9, users=[3, 2])
        waiting = [
            await layer.connection(0).zcard(layer.prefix + layer.non_local_name(table_socket))
        ]
        found = await _inbox(layer, table_socket), await _inbox(layer, user_socket)
        await layer.flush()
        return waiting, found

    waiting, (at_table, for_user) = _run(scenario)
    assert batches == [["game-41", "user-2", "user-3"]]
    assert waiting == [2]  # both messages were in Redis when the call returned (one key)
    assert at_table == [{"type": "game.changed", "revision": 7, "seats": None, "version": 9}]
    assert for_user == [{"type": "user.changed"}]


@pytest.mark.django_db
def test_a_redis_that_does_not_answer_costs_the_ping_not_the_move(
    started, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    """A Redis that takes the connection and never answers: the move commits, its answer
    comes back once the ping's socket timeout runs out, and the lost ping is logged; the moves
    right after it do not wait for Redis again; after the pause, pings are tried again."""
    import random

    from games import broadcast, services
    from games.models import Game
    from tests.games.helpers import next_human_move, seat_users

    monkeypatch.setattr(broadcast, "_paused_until", 0.0)  # restored after the test
    monkeypatch.setattr(broadcast, "PAUSE_AFTER_FAILURE_SECONDS", 1.0)
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # accepts into its backlog, never reads or answers
    silent.settimeout(0.05)
    layer = RedisChannelLayer(hosts=[{"address": f"redis://127.0.0.1:{silent.getsockname()[1]}/0"}])
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    game = started()
    rng = random.Random(5)

    def move() -> float:
        """One move with its after-commit pings; how long it took."""
        fresh = Game.objects.get(pk=game.pk)
        seat, action = next_human_move(fresh, rng)
        began = time.monotonic()
        with django_capture_on_commit_callbacks(execute=True):
            services.act(seat_users(fresh)[seat], fresh.pk, fresh.version_for(seat), action)
        assert Game.objects.get(pk=game.pk).version == fresh.version + 1
        return time.monotonic() - began

    def connections() -> int:
        """Connection attempts the silent Redis took since the last call."""
        count = 0
        while True:
            try:
                conn, _ = silent.accept()
            except TimeoutError:
                return count
            conn.close()
            count += 1

    try:
        took = move()
        assert "broadcast to" in caplog.text and "failed" in caplog.text
        # the redis-py default would wait for ever; the ping's own timeout is a quarter second
        assert took < 5, took
        assert connections() >= 1
        move()  # within the pause: no new attempt
        assert connections() == 0
        time.sleep(1.1)
        move()  # the pause is over: pings are tried again
        assert connections() >= 1
    finally:
        silent.close()
