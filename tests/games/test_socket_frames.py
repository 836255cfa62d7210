"""What a socket's own frames may cost and still get, over the real Redis layer and
PostgreSQL: a flood of beats or hellos is not answered one database read each (they all queue
on Channels' one sync thread, which every socket and page of the process shares), and a
banned player's socket, or a revoked token's whose closing ping was lost, is closed by its
next beat instead of being told the table's revision and who is here."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.core.cache import cache

from accounts import notifications
from accounts import services as account_services
from config.asgi import application
from games.consumers import BEAT_BURST, BEAT_CLOSE_AFTER
from games.engines import registry
from games.models import Event, Game
from tests.games.helpers import at_the_table, connect, play_until, seat_users
from tests.games.test_socket_rejoin import _redis_forgets
from tests.games.test_token_sockets import _bearer

pytestmark = pytest.mark.django_db(transaction=True)

MOTH = registry.get("mogel-motte")
FLOOD = 30  # a burst of ten passes; the other twenty are refused, not yet a flood to close


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


@pytest.mark.parametrize("path", ["table", "me"])
def test_a_socket_that_goes_on_beating_after_thirty_refusals_is_closed(started, path):
    """Refused beats are still frames to read and answer, and a flood worked through slowly
    gets a beat (and its reads) back every second: 20 sockets x 500 beats through Daphne kept
    every other socket's answers late by 0.5 to 1.5 s for over a minute. Refused thirty times
    in a minute, the socket is closed."""
    game = started("mogel-motte")
    alice = seat_users(game)[0]

    async def scenario():
        url = f"/ws/games/{game.pk}/" if path == "table" else "/ws/me/"
        socket, connected, _ = await connect(alice, url)
        assert connected
        await socket.receive_json_from(timeout=5)  # the state, or the stamp, on connect
        for _ in range(200):
            await socket.send_json_to({"type": "heartbeat"})
        outputs = []
        while not outputs or outputs[-1]["type"] != "websocket.close":
            outputs.append(await socket.receive_output(timeout=10))
        await socket.disconnect()
        return outputs

    outputs = asyncio.run(scenario())
    assert outputs[-1] == {"type": "websocket.close", "code": 4429}
    frames = [json.loads(o["text"]) for o in outputs[:-1]]
    refused = [f for f in frames if f["type"] == "error"]
    assert len(refused) == BEAT_CLOSE_AFTER
    assert BEAT_BURST <= len(frames) - len(refused) <= BEAT_BURST + 2


def test_a_banned_players_socket_is_closed_by_its_next_beat(started, admin_user):
    """A ban hands the player's seats to the bot, whose change closes those tables' sockets;
    but the table they only watch (or one whose ping is lost) heard nothing: its beats went on
    telling the banned player the table's revision and who is here, and marked them present."""
    game = started("mogel-motte")
    users = seat_users(game)
    alice = users[0]

    async def scenario():
        socket = await at_the_table(alice, game.pk)
        await sync_to_async(account_services.user_ban)(admin_user, alice, "cheating")
        # their presence lapsed meanwhile (or never was): a beat must not mark it again
        await sync_to_async(cache.delete)(f"presence:{game.pk}:{alice.pk}")
        await socket.send_json_to({"type": "heartbeat"})
        output = await socket.receive_output(timeout=5)
        await socket.disconnect()
        return output

    output = asyncio.run(scenario())
    assert output == {"type": "websocket.close", "code": 4401}, output
    assert not notifications.is_present(game.pk, alice.pk)


@pytest.mark.parametrize("path", ["table", "me"])
def test_a_beat_closes_a_socket_whose_token_was_revoked_while_its_ping_was_lost(started, path):
    """Revoking a token closes its sockets by a ping to their group, which Redis loses when it
    restarts without persistence (design.md: pings can be lost). The beat re-joined the
    groups, and closed the socket, only when it also found a missed move: at a quiet table
    the revoked token's socket went on being told who is here (and the bell's count)."""
    game = started("mogel-motte")
    alice = seat_users(game)[0]
    token, raw = account_services.api_token_create(alice, "bot")

    async def scenario():
        url = f"/ws/games/{game.pk}/" if path == "table" else "/ws/me/"
        socket = WebsocketCommunicator(application, url, headers=_bearer(raw))
        assert (await socket.connect(timeout=5))[0]
        first = await socket.receive_json_from(timeout=5)
        assert first["type"] == ("state" if path == "table" else "lists")
        await sync_to_async(_redis_forgets)()
        await sync_to_async(account_services.api_token_revoke)(alice, token)
        assert await socket.receive_nothing(timeout=0.5), "the ping was not lost"
        await socket.send_json_to({"type": "heartbeat"})
        output = await socket.receive_output(timeout=5)
        await socket.disconnect()
        return output

    output = asyncio.run(scenario())
    assert output == {"type": "websocket.close", "code": 4401}, output


def _slap_window_owed_by_two(started) -> tuple[Game, int, int]:
    """A Mogel Motte table whose slap window two seats still owe: one seat's slap is then a
    secret answer (the window stays open). The slapper and the other seat that owes."""

    def owed_by_two(game: Game) -> tuple[Game, int, int] | None:
        waiting = MOTH.waiting_for(game.state)
        if waiting.kind == "window" and waiting.window == "slap" and len(waiting.seats) >= 2:
            return game, waiting.seats[0], waiting.seats[1]
        return None

    return play_until(lambda: started("mogel-motte"), owed_by_two, seed=5, moves=300)


async def _frames(socket, seconds: float = 1.5) -> list[dict]:
    frames = []
    while not await socket.receive_nothing(timeout=seconds):
        frames.append(await socket.receive_json_from(timeout=5))
    return frames


@pytest.mark.parametrize("keys", ["same", "different"])
def test_two_tabs_slapping_at_once_make_one_slap_and_nothing_reaches_the_others(started, keys):
    """A player with the table open in two tabs (a phone and a laptop) answers a slap from
    both at the same moment: one slap is recorded; with the same idempotency key both tabs
    hear "ok", with two keys the second hears that its first answer counts. Both tabs get the
    seat's new state; the other seat, still owing, gets no frame at all (who slapped stays
    secret until the window closes)."""
    game, slapper, other = _slap_window_owed_by_two(started)
    users = seat_users(game)
    version = game.version_for(slapper)
    opened = Event.objects.filter(game=game).count()

    async def scenario():
        tabs = [await at_the_table(users[slapper], game.pk) for _ in range(2)]
        watcher = await at_the_table(users[other], game.pk)
        for n, tab in enumerate(tabs):
            key = "slap-1" if keys == "same" else f"slap-{n}"
            await tab.send_json_to({"version": version, "action": {"type": "slap"}, "key": key})
        heard = [await _frames(tab) for tab in tabs]
        watched = await _frames(watcher)
        for socket in (*tabs, watcher):
            await socket.disconnect()
        return heard, watched

    heard, watched = asyncio.run(scenario())
    game.refresh_from_db()
    slaps = Event.objects.filter(game=game, seat=slapper, action={"type": "slap"})
    assert slaps.count() == 1
    assert Event.objects.filter(game=game).count() == opened + 1
    replies = sorted(
        f["type"] if f["type"] == "ok" else f["code"]
        for tab in heard
        for f in tab
        if f["type"] in ("ok", "error")
    )
    assert replies == (["ok", "ok"] if keys == "same" else ["already_answered", "ok"])
    for tab in heard:
        states = [f for f in tab if f["type"] == "state"]
        assert states and states[-1]["version"] == game.version_for(slapper)
    assert watched == []
    waiting = MOTH.waiting_for(game.state)
    assert waiting.window == "slap" and other in waiting.seats and slapper not in waiting.seats
