"""What a seat can observe is a function of what it may know: a secret answer by another seat
changes nothing it can read — the API game and events, the page, the socket, its notices."""

from __future__ import annotations

import asyncio
import json
import random

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from accounts.models import Notification
from games import services
from games.engines import registry
from games.models import Game
from games.services.change import audience
from tests.games.helpers import next_human_move, seat_users, strip_tokens
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


def secret_answer(game: Game) -> tuple[int, int, dict] | None:
    """(answering seat, watching seat, action) if the game waits on a window of two or more
    humans and one of them has an answer nobody else may see."""
    engine = registry.get(game.engine, game.rules_version)
    waiting = engine.waiting_for(game.state)
    humans = seat_users(game)
    owing = [s for s in waiting.seats if s in humans]
    if waiting.kind != "window" or len(owing) < 2:
        return None
    for seat in owing:
        for action in engine.legal_actions(game.state, seat):
            _state, events = engine.apply(game.state, seat, action)
            if audience(seat, events) == [seat]:
                watcher = next(s for s in owing if s != seat)
                return seat, watcher, action
    return None


def observations(client: Client, user, game_id: int) -> dict:
    page = strip_tokens(client.get(f"/games/{game_id}/").content.decode())
    return {
        "api": client.get(f"/api/games/{game_id}").json(),
        "events": client.get(f"/api/games/{game_id}/events").json(),
        "page": page,
        "notices": list(
            Notification.objects.filter(user=user).values_list("kind", "text", "read_at")
        ),
    }


@pytest.mark.parametrize("engine", ["imperador", "mogel-motte"])
def test_a_secret_answer_changes_nothing_another_seat_can_observe(started, engine):
    game = started(engine)
    rng = random.Random(7)
    found = None
    for _ in range(600):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE, "no secret window came up"
        found = secret_answer(game)
        if found:
            break
        seat, action = next_human_move(game, rng)
        services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
    assert found is not None
    answering, watching, action = found
    users = seat_users(game)
    client = Client()
    client.force_login(users[watching])

    async def scenario():
        socket, connected, _ = await connect(users[watching], game.pk)
        assert connected
        await socket.receive_json_from(timeout=5)  # the state on connect
        await socket.send_json_to({"type": "heartbeat"})
        beat_before = await socket.receive_json_from(timeout=5)
        before = await sync_to_async(observations)(client, users[watching], game.pk)
        await sync_to_async(services.act)(
            users[answering], game.pk, game.version_for(answering), action
        )
        assert await socket.receive_nothing(timeout=1.5), "a frame arrived after a secret answer"
        after = await sync_to_async(observations)(client, users[watching], game.pk)
        await socket.send_json_to({"type": "heartbeat"})
        beat_after = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return before, after, beat_before, beat_after

    total = game.version
    before, after, beat_before, beat_after = asyncio.run(scenario())
    game.refresh_from_db()
    assert game.version == total + 1, "the answer was applied"
    for what in ("api", "events", "page", "notices"):
        assert json.dumps(after[what], sort_keys=True, default=str) == json.dumps(
            before[what], sort_keys=True, default=str
        ), f"the {what} changed for the watching seat"
    assert beat_after == beat_before


def test_presence_survives_a_reload_and_lapses_without_heartbeats(started, monkeypatch):
    from accounts import notifications

    monkeypatch.setattr(notifications, "PRESENCE_SECONDS", 2)
    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]

    async def scenario():
        first, connected, _ = await connect(alice, game.pk)
        assert connected
        await first.receive_json_from(timeout=5)
        await first.send_json_to({"type": "heartbeat"})
        await first.receive_json_from(timeout=5)
        await first.disconnect()  # a reload: the old socket closes ...
        present_between = await sync_to_async(notifications.is_present)(game.pk, alice.pk)
        second, connected, _ = await connect(alice, game.pk)  # ... and a new one opens
        assert connected
        await second.receive_json_from(timeout=5)
        present_after = await sync_to_async(notifications.is_present)(game.pk, alice.pk)
        await asyncio.sleep(2.5)  # no heartbeat for longer than the grace
        lapsed = await sync_to_async(notifications.is_present)(game.pk, alice.pk)
        await second.disconnect()
        return present_between, present_after, lapsed

    present_between, present_after, lapsed = asyncio.run(scenario())
    assert present_between and present_after and not lapsed


def test_joining_starting_and_aborting_reach_an_open_table(trio, admin_user):
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])

    async def scenario():
        socket, connected, _ = await connect(alice, game.pk)
        assert connected
        seen = [(await socket.receive_json_from(timeout=5))["game"]["status"]]
        for step in (
            lambda: services.game_join(bob, game.pk),
            lambda: services.game_join(carol, game.pk),
            lambda: services.game_start(alice, game.pk),
            lambda: services.game_abort(admin_user, game.pk, "test"),
        ):
            await sync_to_async(step)()
            message = await socket.receive_json_from(timeout=5)
            seen.append((message["game"]["status"], len(message["game"]["players"])))
        await socket.disconnect()
        return seen

    seen = asyncio.run(scenario())
    assert seen == ["lobby", ("lobby", 2), ("lobby", 3), ("active", 3), ("aborted", 3)]


def test_table_talk_reaches_open_sockets_as_a_bare_ping(started):
    from games.services import chat

    game = started("imperador")
    alice, bob = seat_users(game)[0], seat_users(game)[1]

    async def scenario():
        socket, connected, _ = await connect(alice, game.pk)
        assert connected
        await socket.receive_json_from(timeout=5)
        await sync_to_async(chat.post)(bob, game.pk, "hello there")
        frame = await socket.receive_json_from(timeout=5)
        await socket.disconnect()
        return frame

    assert asyncio.run(scenario()) == {"type": "chat"}  # the text is fetched over HTTP
