"""A batch of group pings in one exchange with Redis delivers what ``group_send`` would:
the same messages to the same channels, in the batch's order, with the layer's capacity and
expiry rules (games/layer_batch.py). Against the real Redis of the test settings."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from redis.asyncio.connection import AbstractConnection

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
        over = await group_send_many(
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
            await group_send_many(layer, pings)
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
        over = await group_send_many(layer, [("g", ping(1))])
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
        await group_send_many(layer, [("g", ping(1))])
        inbox = await _inbox(layer, channel)
        members = await layer.connection(0).zrange(layer._group_key("g"), 0, -1)
        await layer.flush()
        return inbox, members

    inbox, members = _run(scenario)
    assert inbox == [] and members == []


def test_a_batch_is_two_exchanges_with_redis_where_one_by_one_takes_three_or_four_each(
    monkeypatch,
):
    sent: list[int] = []
    real = AbstractConnection.send_packed_command

    async def counting(self, command, check_health=True):
        sent.append(1)
        return await real(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counting)
    pings = [(f"g{i}", ping(i)) for i in range(4)]

    async def scenario():
        layer = _layer()
        for group, _message in pings:
            await layer.group_add(group, await layer.new_channel())
        await group_send_many(layer, pings)  # loads the script into Redis once
        sent.clear()
        await group_send_many(layer, pings)
        batched = len(sent)
        sent.clear()
        for group, message in pings:
            await layer.group_send(group, message)
        one_by_one = len(sent)
        await layer.flush()
        return batched, one_by_one

    batched, one_by_one = _run(scenario)
    assert batched == 2
    assert one_by_one == 4 * 4


def test_a_layer_that_is_not_redis_gets_one_group_send_a_ping():
    layer = InMemoryChannelLayer()

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("g", channel)
        await group_send_many(layer, [("g", ping(1)), ("g", ping(2))])
        return [await layer.receive(channel) for _ in range(2)]

    received = _run(scenario)
    assert [m["n"] for m in received] == [1, 2]


def test_the_sender_thread_delivers_a_changes_pings_together(monkeypatch):
    """The process's sender (games/broadcast.py) hands a change's table and list pings to
    Redis in one batch; the committing thread is released once they are there."""
    from channels.layers import channel_layers

    from games import broadcast

    layer = channel_layers.make_backend("default")
    if not isinstance(layer, RedisChannelLayer):
        pytest.skip("the test settings' layer is not Redis")
    monkeypatch.setattr(broadcast, "get_channel_layer", lambda: layer)
    monkeypatch.setattr(broadcast, "_current", None)
    batches: list[list[str]] = []
    real = group_send_many

    async def watched(layer, pings):
        batches.append([group for group, _message in pings])
        return await real(layer, pings)

    monkeypatch.setattr(broadcast, "group_send_many", watched)
    broadcast.notify_game_changed(41, 7, None, 9, users=[3, 2])
    deadline = time.monotonic() + 5  # a new sender connects first: the wait may run out
    while not batches and time.monotonic() < deadline:
        time.sleep(0.01)
    assert batches == [["game-41", "user-2", "user-3"]]
