"""What one audience of a table can observe of the talk of another: nothing. At a table whose
spectators talk among themselves, a player's socket was pinged for every spectator's line (no
text, but the moment and the count of their talk, and a fetch of the page's talk each time);
and the lines were numbered across the whole site, so the numbers a player read counted the
talk at every other table, and the gap between two lines at theirs, the spectators' talk."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from accounts.services import friendship_create
from games.services import chat
from tests.games.helpers import seat_users
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def own_talk(started, make_user):
    """A started table whose spectators talk among themselves, and dave, a friend of alice
    who watches it."""
    game = started("imperador", spectator_chat="own", allow_spectators=True)
    dave = make_user("dave")
    friendship_create(seat_users(game)[0], dave)
    return game, dave


def test_spectators_talk_sends_nothing_to_a_players_socket_and_players_talk_nothing_to_theirs(
    own_talk,
):
    game, dave = own_talk
    alice, bob = seat_users(game)[0], seat_users(game)[1]

    async def scenario():
        player, connected, _ = await connect(alice, game.pk)
        assert connected
        spectator, connected, _ = await connect(dave, game.pk)
        assert connected
        await player.receive_json_from(timeout=5)  # the state on connecting
        await spectator.receive_json_from(timeout=5)

        await sync_to_async(chat.post)(dave, game.pk, "Alice holds the fox")
        assert await spectator.receive_json_from(timeout=5) == {"type": "chat"}
        assert await player.receive_nothing(timeout=1.5), "a spectator's line pinged a player"

        await sync_to_async(chat.post)(bob, game.pk, "Nice bluff, Alice")
        assert await player.receive_json_from(timeout=5) == {"type": "chat"}
        assert await spectator.receive_nothing(timeout=1.5), "a player's line pinged a spectator"

        await player.disconnect()
        await spectator.disconnect()

    asyncio.run(scenario())
