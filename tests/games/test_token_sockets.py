"""A program's socket with an API token (games/socket_tokens.py), through the site's own ASGI
application (config/asgi.py) and the real Redis layer: it hears moves as a page does, plays,
and closes when its token is revoked; a bad token is refused, and a browser's socket still
needs its Origin."""

from __future__ import annotations

import asyncio
import random
import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts import services as account_services
from accounts.models import ApiToken
from games import services
from games.engines import registry
from games.models import Game
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db(transaction=True)


def _socket(game_id: int, headers: list[tuple[bytes, bytes]]) -> WebsocketCommunicator:
    from config.asgi import application

    return WebsocketCommunicator(application, f"/ws/games/{game_id}/", headers=headers)


def _bearer(raw: str) -> list[tuple[bytes, bytes]]:
    return [(b"authorization", f"Bearer {raw}".encode())]


async def _closed_with(socket: WebsocketCommunicator) -> int | None:
    """The code a token's refused socket closes with: accepted, then closed before any frame
    (a refusal before the accept reaches a program as a bare HTTP 403)."""
    connected, _ = await socket.connect()
    assert connected
    output = await socket.receive_output(timeout=5)
    assert output["type"] == "websocket.close", output
    await _ended(socket)
    return output["code"]


async def _ended(socket: WebsocketCommunicator) -> None:
    """What the server sends after a close: the consumer ends by its own path, not by the
    loop cancelling it at the end of asyncio.run (a cancelled channels-redis receive was seen
    hanging there for good in a full run: tests/games/test_watchers_and_sockets.py)."""
    await socket.disconnect()


async def _refused(socket: WebsocketCommunicator) -> bool:
    """A socket the site refuses before accepting it (a browser's without its Origin)."""
    connected, _ = await socket.connect()
    await _ended(socket)
    return not connected


def test_a_token_socket_hears_moves_plays_and_closes_when_revoked(started):
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    engine = registry.get(game.engine)
    token, raw = account_services.api_token_create(users[1], "bot")

    async def scenario():
        socket = _socket(game.pk, _bearer(raw))  # no Origin, no cookie: a program
        connected, _ = await socket.connect()
        assert connected
        first = await socket.receive_json_from(timeout=5)
        assert first["type"] == "state" and first["game"]["seat"] == 1
        assert first["game"]["view"] == engine.view(game.state, 1)  # the token owner's seat
        assert first["game"]["legal_actions"] == engine.legal_actions(game.state, 1)
        rng = random.Random(4)
        for _ in range(6):  # moves of every seat reach it, and it plays its own
            current = await sync_to_async(Game.objects.get)(pk=game.pk)
            seat, action = await sync_to_async(next_human_move)(current, rng)
            if seat == 1:
                version = current.version_for(1)
                await socket.send_json_to({"version": version, "action": action, "key": f"k{_}"})
                assert (await socket.receive_json_from(timeout=5))["type"] == "ok"
            else:
                await sync_to_async(services.act)(
                    users[seat], game.pk, current.version_for(seat), action
                )
            fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
            state = await socket.receive_json_from(timeout=5)
            assert state["type"] == "state" and state["version"] == fresh.version
            assert state["game"]["view"] == engine.view(fresh.state, 1)
        await sync_to_async(account_services.api_token_revoke)(users[1], token)
        closed = await socket.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4401}
        await _ended(socket)
        # and it cannot open again
        assert await _closed_with(_socket(game.pk, _bearer(raw))) == 4401

    asyncio.run(scenario())


@pytest.mark.parametrize("header", ["Bearer fib_not-a-token", "Bearer ", "bearer fib_x"])
def test_a_bad_token_is_refused(started, header):
    game = started("imperador")

    async def scenario():
        socket = _socket(game.pk, [(b"authorization", header.encode())])
        assert await _closed_with(socket) == 4401

    asyncio.run(scenario())


def test_a_browser_behind_basic_auth_keeps_the_browsers_way(started):
    """Behind HTTP Basic auth (a staging site) browsers send ``Authorization: Basic`` with every
    handshake: such a socket is a browser's, with its session and Origin check, not a refused
    token."""
    from django.conf import settings
    from django.test import Client

    game = started("imperador")
    player = seat_users(game)[0]
    client = Client()
    client.force_login(player)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    basic = (b"authorization", b"Basic YWxpY2U6cHc=")
    browser = [basic, (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]

    async def scenario():
        with_origin = _socket(game.pk, [*browser, (b"origin", b"http://localhost")])
        assert (await with_origin.connect())[0]
        first = await with_origin.receive_json_from(timeout=5)
        assert first["type"] == "state" and first["game"]["seat"] == 0
        await with_origin.disconnect()
        assert await _refused(_socket(game.pk, browser))  # no Origin: refused

    asyncio.run(scenario())


def _close_account(player) -> None:
    """What the account's Close page does (accounts.views.account_close)."""
    from django.db import transaction

    from games.services.departure import player_departed

    with transaction.atomic():
        player_departed(player)
        account_services.account_close(player)


def test_closing_the_account_closes_its_token_sockets(started, make_user):
    game = started("cockroach-poker-royal")
    player = seat_users(game)[2]
    _token, raw = account_services.api_token_create(player, "bot")
    # an ended table: leaving the tables on the way out changes nothing there, so no ping of
    # the game closes the socket first (that one says 4404)
    admin = make_user("root", is_staff=True, is_superuser=True)
    services.game_abort(admin, game.pk, "test")

    async def scenario():
        socket = _socket(game.pk, _bearer(raw))
        assert (await socket.connect())[0]
        await socket.receive_json_from(timeout=5)
        await sync_to_async(_close_account)(player)
        closed = await socket.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4401}
        await _ended(socket)

    asyncio.run(scenario())


def test_a_banned_players_token_opens_no_socket(started, make_user):
    game = started("mogel-motte")
    player = seat_users(game)[2]
    _token, raw = account_services.api_token_create(player, "bot")
    moderator = make_user("moddy", is_staff=True, is_superuser=True)
    account_services.user_ban(moderator, player, "cheating")

    async def scenario():
        assert await _closed_with(_socket(game.pk, _bearer(raw))) == 4401

    asyncio.run(scenario())


def test_a_token_sees_only_its_owners_tables_and_a_browser_socket_still_needs_origin(
    started, make_user
):
    game = started("imperador")
    stranger = make_user("mallory")
    _token, raw = account_services.api_token_create(stranger, "bot")

    async def scenario():
        assert await _closed_with(_socket(game.pk, _bearer(raw))) == 4404
        # without a token the socket is a browser's: no Origin, no socket
        assert await _refused(_socket(game.pk, []))

    asyncio.run(scenario())


def test_revoking_one_token_leaves_the_owners_other_token_socket_open(started):
    game = started("cockroach-poker-royal")
    owner = seat_users(game)[0]
    first, raw_first = account_services.api_token_create(owner, "one")
    _second, raw_second = account_services.api_token_create(owner, "two")

    async def scenario():
        a, b = _socket(game.pk, _bearer(raw_first)), _socket(game.pk, _bearer(raw_second))
        assert (await a.connect())[0] and (await b.connect())[0]
        await a.receive_json_from(timeout=5)
        await b.receive_json_from(timeout=5)
        await sync_to_async(account_services.api_token_revoke)(owner, first)
        assert (await a.receive_output(timeout=5))["type"] == "websocket.close"
        await _ended(a)
        await b.send_json_to({"type": "heartbeat"})
        assert (await b.receive_json_from(timeout=5))["type"] == "heartbeat"
        await b.disconnect()

    asyncio.run(scenario())
    assert ApiToken.objects.get(pk=first.pk).revoked_at is not None


def test_a_token_hears_on_its_own_socket_when_its_list_of_tables_changes(trio):
    """``/ws/me/`` with a token: one socket for a bot to learn that a table wants it (then
    ``GET /api/games``), instead of one socket per game or polling."""
    from config.asgi import application

    alice, bob, _carol = trio
    _token, raw = account_services.api_token_create(bob, "bot")

    async def scenario():
        socket = WebsocketCommunicator(application, "/ws/me/", headers=_bearer(raw))
        assert (await socket.connect())[0]
        first = await socket.receive_json_from(timeout=5)
        assert first["type"] == "lists"
        await sync_to_async(services.game_create)(
            alice, engine="imperador", seats=3, invite=["bob"]
        )
        changed = await socket.receive_json_from(timeout=5)
        assert changed["type"] == "lists" and changed["stamp"] != first["stamp"]
        await socket.disconnect()

    asyncio.run(scenario())


def test_a_token_opening_sockets_in_a_loop_is_refused_for_the_minute(started, settings):
    from config import guard

    settings.REQUEST_LIMITS = {**guard.limits(), "socket_opens": 3}
    game = started("imperador")
    owner = seat_users(game)[0]
    _token, raw = account_services.api_token_create(owner, "loop")
    _other, raw_other = account_services.api_token_create(owner, "another")

    async def scenario():
        if time.time() % 60 > 50:  # the four opens in one minute's window, not across two
            await asyncio.sleep(61 - time.time() % 60)
        for _ in range(3):
            socket = _socket(game.pk, _bearer(raw))
            assert (await socket.connect())[0]
            assert (await socket.receive_json_from(timeout=5))["type"] == "state"
            await socket.disconnect()
        assert await _closed_with(_socket(game.pk, _bearer(raw))) == 4429
        # another token of the same player is counted on its own
        socket = _socket(game.pk, _bearer(raw_other))
        assert (await socket.connect())[0]
        await socket.disconnect()

    asyncio.run(scenario())


def test_deleting_a_token_row_closes_its_sockets(started):
    """An admin may delete a token row rather than revoke it: its sockets close too."""
    game = started("imperador")
    token, raw = account_services.api_token_create(seat_users(game)[1], "bot")

    async def scenario():
        socket = _socket(game.pk, _bearer(raw))
        assert (await socket.connect())[0]
        await socket.receive_json_from(timeout=5)
        await sync_to_async(token.delete)()
        closed = await socket.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4401}
        await _ended(socket)

    asyncio.run(scenario())


def test_moves_over_a_socket_count_with_the_clients_writes(started, settings):
    """A socket took moves without limit while the API allows a client 300 writes a minute:
    a token's socket moves and its API calls share one window, as a page's socket moves and
    its session's form posts do."""
    from django.test import Client

    from config import guard

    settings.REQUEST_LIMITS = {**guard.limits(), "writes": 3}
    game = started("imperador")
    player = seat_users(game)[0]
    _token, raw = account_services.api_token_create(player, "bot")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")

    async def scenario():
        if time.time() % 60 > 50:  # every write in one minute's window
            await asyncio.sleep(61 - time.time() % 60)
        assert (await sync_to_async(api.get)("/api/games")).status_code == 200  # counted: API
        socket = _socket(game.pk, _bearer(raw))
        assert (await socket.connect())[0]
        await socket.receive_json_from(timeout=5)
        codes = []
        for n in range(3):
            await socket.send_json_to({"version": 0, "action": {"type": "forged"}, "key": f"{n}"})
            codes.append((await socket.receive_json_from(timeout=5)).get("code"))
        assert "rate_limited" not in codes[:2] and codes[2] == "rate_limited"
        refused = await sync_to_async(api.post)(
            f"/api/games/{game.pk}/actions", "{}", content_type="application/json"
        )
        assert refused.status_code == 429
        await socket.disconnect()

    asyncio.run(scenario())
