"""What a socket's own frames may cost and still get, over the real Redis layer and
PostgreSQL: a flood of beats or hellos is not answered one database read each (they all queue
on Channels' one sync thread, which every socket and page of the process shares)."""

from __future__ import annotations

import asyncio

import pytest

from games.consumers import BEAT_BURST
from tests.games.helpers import connect, seat_users

pytestmark = pytest.mark.django_db(transaction=True)

FLOOD = 60


async def _answers(socket, count: int) -> list[dict]:
    return [await socket.receive_json_from(timeout=10) for _ in range(count)]


@pytest.mark.parametrize("kind", ["heartbeat", "hello", "me"])
def test_a_flood_of_beats_is_answered_without_a_database_read_each(started, kind):
    game = started("mogel-motte")
    alice = seat_users(game)[0]

    async def scenario():
        if kind == "me":
            socket, connected, _ = await connect(alice, "/ws/me/")
            assert connected
            await socket.receive_json_from(timeout=5)  # the stamp on connect
            frame = {"type": "heartbeat"}
        else:
            socket, connected, _ = await connect(alice, f"/ws/games/{game.pk}/")
            assert connected
            await socket.receive_json_from(timeout=5)  # the state on connect
            frame = {"type": kind, "revision": 10**6}  # a hello: "I hold everything"
        for _ in range(FLOOD):
            await socket.send_json_to(frame)
        flood = await _answers(socket, FLOOD)
        await asyncio.sleep(1.2)  # a page's next beat, seconds later, is answered again
        await socket.send_json_to(frame)
        later = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return flood, later

    flood, later = asyncio.run(scenario())
    answered = [f for f in flood if f["type"] != "error"]
    refused = [f for f in flood if f["type"] == "error"]
    # a burst a page could send (reconnects, a tab shown and hidden) passes; the rest is told
    # to slow down, each answer sent with no read (one per frame otherwise)
    assert BEAT_BURST <= len(answered) <= BEAT_BURST + 2, [f["type"] for f in flood]
    assert refused and all(f["code"] == "rate_limited" and f["retry_after"] >= 1 for f in refused)
    assert refused[0]["error"] == "Too many requests. Slow down."
    assert later["type"] != "error"
