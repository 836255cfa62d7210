"""Who may watch a table (one rule on API, page, events and socket), and a socket that holds
under hostile frames and follows its user's standing."""

from __future__ import annotations

import asyncio
import json
import random
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connection
from django.test import Client
from django.urls import reverse

from accounts.services import friendship_create, user_ban, user_block
from games import services
from games.engines import registry
from games.models import Game
from tests.accounts.conftest import link_in
from tests.games.helpers import connect as connect_to
from tests.games.helpers import next_human_move, refused_with, seat_users
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def watched(started, make_user):
    """A started table (alice, bob, carol) and dave, a friend of carol only."""
    game = started("cockroach-poker-royal")
    dave = make_user("dave")
    friendship_create(dave, game.seats.get(index=2).user)
    return game, dave


def _answers(game: Game, user) -> dict[str, int]:
    client = Client()
    client.force_login(user)
    return {
        "api": client.get(f"/api/games/{game.pk}").status_code,
        "events": client.get(f"/api/games/{game.pk}/events").status_code,
        "page": client.get(f"/games/{game.pk}/").status_code,
    }


def _socket_code(user, game: Game) -> int | None:
    return asyncio.run(refused_with(user, f"/ws/games/{game.pk}/"))


def test_a_friend_of_a_player_may_watch(watched):
    game, dave = watched
    assert _answers(game, dave) == {"api": 200, "events": 200, "page": 200}
    assert _socket_code(dave, game) is None


@pytest.mark.parametrize("direction", ["blocked_by_player", "blocked_a_player"])
def test_a_block_with_any_seated_player_hides_the_table_everywhere(watched, direction):
    game, dave = watched
    alice = game.seats.get(index=0).user
    if direction == "blocked_by_player":
        user_block(alice, dave)  # alice blocked dave: carol's friendship must not let him watch
    else:
        user_block(dave, alice)
    assert _answers(game, dave) == {"api": 404, "events": 404, "page": 404}
    assert _socket_code(dave, game) == 4404


def test_a_non_numeric_socket_path_is_refused_not_a_server_error(watched):
    game, _dave = watched
    user = game.seats.get(index=0).user

    async def scenario():
        for path in ("/ws/games/abc/", "/ws/games/1/x/", "/ws/elsewhere/"):
            communicator, connected, code = await connect_to(user, path)
            assert not connected and code == 4404, path
            await communicator.disconnect()  # let the refused consumer end cleanly

    asyncio.run(scenario())


def test_hostile_frames_get_an_error_frame_and_the_socket_stays_open(watched):
    game, _dave = watched
    user = game.seats.get(index=0).user

    async def scenario():
        communicator, connected, _ = await connect(user, game.pk)
        assert connected
        await communicator.receive_json_from(timeout=5)
        frames = {
            "too_deep": '{"a":' * 100 + "1" + "}" * 100,
            # Deeper than the interpreter's own JSON recursion limit, still under the size bound.
            "too_deep ": "[" * 4000 + "]" * 4000,
            "too_large": json.dumps({"version": 1, "action": {"type": "x" * 10000}}),
            "control_characters": json.dumps({"version": 1, "action": {}, "key": "a\x00b"}),
        }
        for code, frame in frames.items():
            await communicator.send_to(text_data=frame)
            reply = await communicator.receive_json_from(timeout=5)
            assert reply["type"] == "error" and reply["code"] == code.strip()
        # Still open and still answering.
        await communicator.send_to(text_data=json.dumps({"version": 0, "action": {}}))
        assert (await communicator.receive_json_from(timeout=5))["type"] == "error"
        await communicator.disconnect()

    asyncio.run(scenario())


def _close_this_threads_connection() -> None:
    connection.close()  # resolved in the calling thread: that thread's own connection


def test_a_banned_players_socket_closes_at_the_next_change(watched, admin_user):
    game, dave = watched
    users = seat_users(game)

    async def scenario():
        communicator, connected, _ = await connect(dave, game.pk)
        assert connected
        await communicator.receive_json_from(timeout=5)
        await sync_to_async(user_ban)(admin_user, dave, "abuse")
        seat, action = await sync_to_async(next_human_move)(game, random.Random(3))
        await sync_to_async(services.act)(users[seat], game.pk, game.version, action)
        closed = await communicator.receive_output(timeout=5)
        assert closed["type"] == "websocket.close", closed
        # what the server sends after a close: the consumer ends by its own path, not by the
        # loop cancelling it at the end of asyncio.run (once seen hanging there in a full run)
        await communicator.disconnect()
        # the helper thread's connection would outlive the test and hold the test database
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())


def _seed_where_the_emperor_is_not(seat: int) -> int:
    engine = registry.get("imperador")
    return next(s for s in range(1, 100) if engine.setup(3, {}, s)["emperor"] != seat)


def test_a_socket_kept_open_through_leave_and_join_follows_its_new_seat(trio):
    """Bob's page stays open while he leaves and joins again (its forms post by fetch): he
    sat at seat 1 and now sits at seat 2, where carol sat down in between. The socket kept
    filtering pings by seat 1, so carol's secret answers reached bob as frames, timed to the
    millisecond (live review, 2026-12-01). Now it follows the seat of each state it sends."""
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, join_policy="friends")
    engine = registry.get("imperador")

    async def frames(communicator, seconds: float) -> list[dict]:
        got = []
        while not await communicator.receive_nothing(timeout=seconds):
            got.append(await communicator.receive_json_from(timeout=5))
        return got

    async def scenario():
        await sync_to_async(services.game_join)(bob, game.pk)
        page, connected, _ = await connect(bob, game.pk)
        assert connected
        assert (await page.receive_json_from(timeout=5))["game"]["seat"] == 1
        await sync_to_async(services.game_leave)(bob, game.pk)
        await sync_to_async(services.game_join)(carol, game.pk)
        await sync_to_async(services.game_join)(bob, game.pk)
        seed = _seed_where_the_emperor_is_not(1)
        with mock.patch("games.services.tables.secrets.randbits", return_value=seed):
            await sync_to_async(services.game_start)(alice, game.pk)
        started_game = await sync_to_async(Game.objects.get)(pk=game.pk)
        users = {0: alice, 1: carol, 2: bob}
        assert await sync_to_async(lambda: started_game.seats.get(index=2).user_id)() == bob.pk
        emperor = started_game.state["emperor"]
        announce = engine.legal_actions(started_game.state, emperor)[0]
        await sync_to_async(services.act)(
            users[emperor], game.pk, started_game.version_for(emperor), announce
        )
        seen = await frames(page, 2)
        assert seen and seen[-1]["game"]["seat"] == 2
        asked = await sync_to_async(lambda: Game.objects.get(pk=game.pk))()
        assert 1 in engine.waiting_for(asked.state).seats

        await sync_to_async(services.act)(
            carol, game.pk, asked.version_for(1), {"type": "hand", "choice": "raise"}
        )

        assert await frames(page, 1.5) == []  # carol's secret answer: nothing for bob
        await page.disconnect()
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())


def _socket(client: Client, path: str) -> WebsocketCommunicator:
    """A socket through the site's whole ASGI stack, signed in by ``client``'s session."""
    from config.asgi import application

    key = client.cookies[settings.SESSION_COOKIE_NAME].value
    return WebsocketCommunicator(
        application,
        path,
        headers=[
            (b"cookie", f"{settings.SESSION_COOKIE_NAME}={key}".encode()),
            (b"origin", b"http://localhost"),
            (b"host", b"localhost"),
        ],
    )


def test_signing_out_closes_the_sockets_that_session_opened(started):
    """A table socket opened before its player signed out kept playing moves and receiving
    the seat's hand (robustness review, 2026-12-01). Signing out closes the session's table
    and lists sockets (4401); another session of the same player keeps its own."""
    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]
    leaving, staying = Client(), Client()
    leaving.force_login(alice)
    staying.force_login(alice)

    async def scenario():
        table, lists = _socket(leaving, f"/ws/games/{game.pk}/"), _socket(leaving, "/ws/me/")
        other = _socket(staying, f"/ws/games/{game.pk}/")
        for communicator in (table, lists, other):
            assert (await communicator.connect(timeout=5))[0]
            await communicator.receive_json_from(timeout=5)
        answer = await sync_to_async(leaving.post)("/accounts/logout/")
        assert answer.status_code == 302
        for communicator in (table, lists):
            closed = await communicator.receive_output(timeout=5)
            assert closed == {"type": "websocket.close", "code": 4401}, closed
        assert await other.receive_nothing(timeout=1)
        await other.send_json_to({"type": "heartbeat"})
        assert (await other.receive_json_from(timeout=5))["type"] == "heartbeat"
        for communicator in (table, lists, other):
            await communicator.disconnect()
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())


def test_a_password_change_or_a_day_open_does_not_keep_a_socket_from_closing_at_sign_out(
    started, monkeypatch
):
    """The session's key changes with a password change, and channels-redis forgets group
    members after a day: the socket's session group is named by an id kept in the session,
    and re-joined with the socket's other groups (diff review, 2026-12-01)."""
    from games import consumers

    monkeypatch.setattr(consumers, "REJOIN_SECONDS", 0)  # every beat re-joins
    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]
    browser = Client()
    browser.force_login(alice)
    key = browser.cookies[settings.SESSION_COOKIE_NAME].value

    async def scenario():
        table = _socket(browser, f"/ws/games/{game.pk}/")
        assert (await table.connect(timeout=5))[0]
        await table.receive_json_from(timeout=5)
        changed = await sync_to_async(browser.post)(
            reverse("account_change_password"),
            {
                "oldpassword": "a-long-test-password",
                "password1": "another-long-password-1",
                "password2": "another-long-password-1",
            },
        )
        assert changed.status_code == 302
        assert browser.cookies[settings.SESSION_COOKIE_NAME].value != key  # a new key
        # a day on: the layer forgot the socket's membership; its next beat re-joins
        layer = get_channel_layer()
        forgotten = await layer.connection(0).keys("*session-*")
        assert forgotten  # the session's group, as the layer keeps it
        for group in forgotten:
            await layer.connection(0).delete(group)
        await table.send_json_to({"type": "heartbeat"})
        assert (await table.receive_json_from(timeout=5))["type"] == "heartbeat"

        assert (await sync_to_async(browser.post)("/accounts/logout/")).status_code == 302

        closed = await table.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4401}, closed
        await table.disconnect()
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())


def test_a_new_password_closes_the_sockets_of_the_players_other_sessions(started):
    """A socket outlived the session a password change signed out: whoever held the old
    password kept playing and receiving the seat's hand (review, 2026-12-01). The browser that
    changed it keeps its own sockets."""
    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]
    changing, elsewhere = Client(), Client()
    changing.force_login(alice)
    elsewhere.force_login(alice)

    async def scenario():
        own = _socket(changing, f"/ws/games/{game.pk}/")
        table, lists = _socket(elsewhere, f"/ws/games/{game.pk}/"), _socket(elsewhere, "/ws/me/")
        for communicator in (own, table, lists):
            assert (await communicator.connect(timeout=5))[0]
            await communicator.receive_json_from(timeout=5)
        changed = await sync_to_async(changing.post)(
            reverse("account_change_password"),
            {
                "oldpassword": "a-long-test-password",
                "password1": "another-long-password-1",
                "password2": "another-long-password-1",
            },
        )
        assert changed.status_code == 302
        for communicator in (table, lists):
            closed = await communicator.receive_output(timeout=5)
            assert closed == {"type": "websocket.close", "code": 4401}, closed
        assert await own.receive_nothing(timeout=1)
        await own.send_json_to({"type": "heartbeat"})
        assert (await own.receive_json_from(timeout=5))["type"] == "heartbeat"
        for communicator in (own, table, lists):
            await communicator.disconnect()
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())


def test_a_password_reset_by_mail_closes_every_socket_of_the_player(started):
    from django.core import mail

    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]
    signed_in, resetting = Client(), Client()
    signed_in.force_login(alice)

    async def scenario():
        table = _socket(signed_in, f"/ws/games/{game.pk}/")
        assert (await table.connect(timeout=5))[0]
        await table.receive_json_from(timeout=5)

        def reset() -> int:
            resetting.post(reverse("account_reset_password"), {"email": alice.email})
            link = link_in(mail.outbox[-1].body, "/accounts/password/reset/key/")
            form = resetting.get(link, follow=True)
            new = "another-long-password-2"
            done = resetting.post(form.redirect_chain[-1][0], {"password1": new, "password2": new})
            return done.status_code

        assert await sync_to_async(reset)() == 302
        closed = await table.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4401}, closed
        await table.disconnect()
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())


def test_a_password_set_in_the_admin_closes_the_players_sockets(started, make_user):
    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]
    browser, admin = Client(), Client()
    browser.force_login(alice)
    root = make_user("root")
    root.is_staff = root.is_superuser = True
    root.save()
    admin.force_login(root)

    async def scenario():
        table = _socket(browser, f"/ws/games/{game.pk}/")
        assert (await table.connect(timeout=5))[0]
        await table.receive_json_from(timeout=5)
        new = "another-long-password-3"
        answer = await sync_to_async(admin.post)(
            reverse("admin:auth_user_password_change", args=[alice.pk]),
            {"password1": new, "password2": new, "usable_password": "true"},
        )
        assert answer.status_code == 302, answer.content[:500]
        closed = await table.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4401}, closed
        await table.disconnect()
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())


def test_closing_the_account_closes_its_sockets_in_every_browser_at_once(watched):
    """Closing an account signed out the browser that closed it; a table watched from the
    player's other browser kept its socket open (answering beats, counting them at the
    table) until that table next changed. Every socket of the account closes at once."""
    game, dave = watched
    closing, elsewhere = Client(), Client()
    closing.force_login(dave)
    elsewhere.force_login(dave)

    async def scenario():
        table, lists = _socket(elsewhere, f"/ws/games/{game.pk}/"), _socket(elsewhere, "/ws/me/")
        for communicator in (table, lists):
            assert (await communicator.connect(timeout=5))[0]
            await communicator.receive_json_from(timeout=5)

        def close() -> str:
            close_url = reverse("account_close")
            asked = closing.post(close_url, {"confirm": "on"})
            assert "/accounts/reauthenticate/" in asked.url
            # the password again, then allauth sends on the form it held back
            done = closing.post(asked.url, {"password": "a-long-test-password"}, follow=True)
            return done.content.decode()

        assert "Your account is closed." in await sync_to_async(close)()
        for communicator in (table, lists):
            closed = await communicator.receive_output(timeout=5)
            assert closed == {"type": "websocket.close", "code": 4401}, closed
        for communicator in (table, lists):
            await communicator.disconnect()
        await sync_to_async(_close_this_threads_connection)()

    asyncio.run(scenario())
