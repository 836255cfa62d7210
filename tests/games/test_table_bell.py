"""The bell on the page of a table does not count that table's notices (words review,
2026-12-07). A wait that opened at the table a player was looking at showed "1" on the bell
for a moment: the player's own socket counted the new notice before the table's refresh read
it. The table is on screen: its notices are seen there, never counted on its bell."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from accounts import notifications
from accounts.models import Notification
from games import services
from games.engines import registry
from tests.games.helpers import connect, seat_users

pytestmark = pytest.mark.django_db(transaction=True)

ENGINE = registry.get("cockroach-poker-royal")


async def latest(socket) -> dict:
    """The count the socket says now: its answer to a heartbeat, after any frame before it."""
    await socket.send_json_to({"type": "heartbeat"})
    said = await socket.receive_json_from(timeout=5)
    while not await socket.receive_nothing(timeout=0.5):
        said = await socket.receive_json_from(timeout=5)
    return said


def test_the_bell_of_a_tables_page_never_counts_a_notice_about_that_table(started, make_user):
    game = started(ENGINE.slug)
    users = seat_users(game)
    (offerer,) = ENGINE.waiting_for(game.state).seats
    offer = next(a for a in ENGINE.legal_actions(game.state, offerer) if a["to"] != offerer)
    receiver = users[offer["to"]]
    other_table = started(ENGINE.slug)
    notifications.mark_read(receiver)  # what the starts told her: read

    async def scenario() -> tuple[dict, dict, dict]:
        at_table, connected, _code = await connect(receiver, f"/ws/me/?table={game.pk}")
        assert connected
        elsewhere, connected, _code = await connect(receiver, "/ws/me/")
        assert connected
        assert (await at_table.receive_json_from(timeout=5))["unread"] == 0
        assert (await elsewhere.receive_json_from(timeout=5))["unread"] == 0
        await sync_to_async(services.act)(
            users[offerer], game.pk, game.version_for(offerer), offer
        )  # her turn at the table: a notice, unread until the table's page reads it
        on_other_pages = await latest(elsewhere)
        on_the_table = await latest(at_table)
        await sync_to_async(notifications.notify)(
            receiver, Notification.Kind.TABLE, "another table", "/games/", other_table.pk
        )
        another = await latest(at_table)
        await at_table.disconnect()
        await elsewhere.disconnect()
        return on_other_pages, on_the_table, another

    on_other_pages, on_the_table, another = asyncio.run(scenario())

    assert Notification.objects.filter(user=receiver, game_id=game.pk, read_at=None).exists()
    assert on_other_pages["unread"] == 1  # counted on every other page
    assert on_the_table["unread"] == 0  # never on the table's own
    assert another["unread"] == 1  # another table's notice is counted there
