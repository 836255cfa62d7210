"""The live table over the real Redis channel layer: a move between join and read still
arrives, a reconnect catches up, the player's own socket follows their lists, races are
decided by arrival order, the Live pace switches and falls back, and strangers are refused."""

from __future__ import annotations

import asyncio
import random
import threading
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test import Client

from accounts import notifications
from accounts.services import friendship_create, user_block
from games import broadcast, consumers, selectors, services
from games.engines import registry
from games.errors import GameError
from games.models import PACE_SECONDS, Event, Game, Pace, PaceSwitch
from tests.games.helpers import (
    at_the_table,
    connect,
    next_human_move,
    play_until,
    refused_with,
    seat_users,
)

pytestmark = pytest.mark.django_db(transaction=True)


async def until_state(communicator, revision, timeout=5.0):
    """Frames until a state at ``revision`` or newer; the last state frame."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        frame = await communicator.receive_json_from(timeout=max(0.1, end - loop.time()))
        if frame["type"] == "state" and frame["revision"] >= revision:
            return frame


def play_one(game, rng):
    game.refresh_from_db()
    users = seat_users(game)
    seat, action = next_human_move(game, rng)
    services.act(users[seat], game.pk, game.version_for(seat), action)
    game.refresh_from_db()
    return game


@pytest.mark.parametrize("when", ["before_join", "between_join_and_read"])
def test_a_move_committed_while_a_socket_connects_still_reaches_it(started, monkeypatch, when):
    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]
    engine = registry.get(game.engine)
    rng = random.Random(3)
    before = game.revision
    if when == "before_join":

        async def scenario():
            layer = get_channel_layer()
            real_add = layer.group_add

            async def add_after_a_move(group, channel):
                if group == broadcast.group_name(game.pk):  # not the player's other groups
                    await sync_to_async(play_one)(game, rng)  # committed before we join it
                await real_add(group, channel)

            monkeypatch.setattr(layer, "group_add", add_after_a_move)
            socket, connected, _ = await connect(alice, f"/ws/games/{game.pk}/")
            assert connected
            monkeypatch.setattr(layer, "group_add", real_add)
            fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
            frame = await until_state(socket, fresh.revision_for(0))
            await socket.disconnect()
            return frame, fresh

    else:
        real_load = consumers._load_payload

        def load_after_a_move(game_id, user):
            play_one(game, rng)  # committed after we joined, before we read
            return real_load(game_id, user)

        async def scenario():
            monkeypatch.setattr(consumers, "_load_payload", load_after_a_move)
            socket, connected, _ = await connect(alice, f"/ws/games/{game.pk}/")
            assert connected
            monkeypatch.setattr(consumers, "_load_payload", real_load)
            fresh = await sync_to_async(Game.objects.get)(pk=game.pk)
            frame = await until_state(socket, fresh.revision_for(0))
            await socket.disconnect()
            return frame, fresh

    frame, fresh = asyncio.run(scenario())
    assert fresh.revision == before + 1
    assert frame["revision"] == fresh.revision_for(0)
    assert frame["game"]["view"] == engine.view(fresh.state, 0)
    assert isinstance(frame["now"], float)


def test_a_reconnect_with_an_old_revision_catches_up_at_once(started):
    game = started("imperador")
    alice = seat_users(game)[0]
    engine = registry.get(game.engine)
    rng = random.Random(4)

    async def scenario():
        first, connected, _ = await connect(alice, f"/ws/games/{game.pk}/")
        assert connected
        held = (await first.receive_json_from(timeout=5))["revision"]
        await first.disconnect()  # the phone sleeps ...
        for _ in range(3):
            await sync_to_async(play_one)(game, rng)  # ... while the others play
        second, connected, _ = await connect(alice, f"/ws/games/{game.pk}/")
        assert connected
        caught_up = await second.receive_json_from(timeout=5)  # the view sent on connect
        # the page's hello still names what it held before: the connect's state answered it
        # already, so a beat's answer, not a second copy (the page fetched its parts twice)
        await second.send_json_to({"type": "hello", "revision": held})
        after_old_hello = await second.receive_json_from(timeout=5)
        await second.send_json_to({"type": "hello", "revision": caught_up["revision"]})
        current = await second.receive_json_from(timeout=5)
        await second.disconnect()
        return held, caught_up, after_old_hello, current

    held, caught_up, after_old_hello, current = asyncio.run(scenario())
    fresh = Game.objects.get(pk=game.pk)
    assert held < fresh.revision_for(0)
    assert caught_up["type"] == "state" and caught_up["revision"] == fresh.revision_for(0)
    assert caught_up["game"]["view"] == engine.view(fresh.state, 0)
    assert caught_up["game"]["version"] == fresh.version_for(0)
    # holding the current revision: only a beat's answer, no second copy of the view
    assert current["type"] == "heartbeat" and current["revision"] == fresh.revision_for(0)
    assert after_old_hello == current


def test_the_players_own_socket_follows_joins_starts_and_cancels(trio, make_user):
    alice, bob, carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)

    async def scenario():
        socket, connected, _ = await connect(bob, "/ws/me/")
        assert connected
        stamps = [(await socket.receive_json_from(timeout=5))["stamp"]]
        unrelated = await sync_to_async(services.game_create)(
            alice, engine="imperador", seats=3, invite=["dave"]
        )
        assert await socket.receive_nothing(timeout=0.5)  # not bob's table: no frame
        game = await sync_to_async(services.game_create)(
            alice, engine="imperador", seats=3, invite=["bob", "carol"]
        )
        steps = [
            lambda: None,  # the invitation itself
            lambda: services.game_join(bob, game.pk),
            lambda: services.game_join(carol, game.pk),
            lambda: services.game_start(alice, game.pk),
        ]
        for step in steps:
            await sync_to_async(step)()
            frame = await socket.receive_json_from(timeout=5)
            assert frame["type"] == "lists"
            stamps.append(frame["stamp"])
        second = await sync_to_async(services.game_create)(
            alice, engine="mogel-motte", seats=3, invite=["bob"]
        )
        stamps.append((await socket.receive_json_from(timeout=5))["stamp"])
        await sync_to_async(services.game_cancel)(alice, second.pk)
        stamps.append((await socket.receive_json_from(timeout=5))["stamp"])
        await sync_to_async(services.game_join)(dave, unrelated.pk)
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()
        return stamps

    stamps = asyncio.run(scenario())
    # invitation, join, carol's join, start, a second invitation: each moved bob's lists ...
    assert len(stamps) == 7 and len(set(stamps[:6])) == 6
    # ... and the cancel took the second table's invitation away again
    assert stamps[6] == stamps[4]
    assert stamps[-1] == selectors.lists_stamp(bob)


def _to_a_three_way_race(trio) -> Game:
    """Plays Mogel Motte tables (three humans) until a cockroach race opens in which all three
    may race."""
    alice, bob, carol = trio
    engine = registry.get("mogel-motte")

    def table() -> Game:
        game = services.game_create(alice, engine="mogel-motte", seats=3, invite=["bob", "carol"])
        services.game_join(bob, game.pk)
        services.game_join(carol, game.pk)
        services.game_start(alice, game.pk)
        return game

    def three_way_race(game: Game) -> Game | None:
        waiting = engine.waiting_for(game.state)
        if waiting.kind != "window" or waiting.window != "race":
            return None
        legal = [engine.legal_actions(game.state, s) for s in range(3)]
        return game if all(any(a["type"] == "race" for a in moves) for moves in legal) else None

    return play_until(table, three_way_race, seed=11)


def test_three_simultaneous_racers_make_one_winner_and_two_too_late(trio):
    game = _to_a_three_way_race(trio)
    engine = registry.get(game.engine)
    users = seat_users(game)
    version = game.version
    moves = {
        s: next(a for a in engine.legal_actions(game.state, s) if a["type"] == "race")
        for s in range(3)
    }
    barrier = threading.Barrier(3)
    outcomes: dict[int, str] = {}

    def race(seat: int) -> None:
        try:
            barrier.wait()
            services.act(users[seat], game.pk, game.version_for(seat), moves[seat])
            outcomes[seat] = "won"
        except GameError as exc:
            outcomes[seat] = exc.code
        finally:
            connection.close()

    threads = [threading.Thread(target=race, args=(s,)) for s in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(outcomes.values()) == ["too_late", "too_late", "won"]
    winner = next(s for s, o in outcomes.items() if o == "won")
    rows = list(Event.objects.filter(game=game, seq__gt=version, reason="move"))
    assert [(r.seat, r.action) for r in rows] == [(winner, moves[winner])]
    won = [e for r in rows for e in r.events if e["kind"] == "race_won"]
    assert len(won) == 1 and won[0]["data"]["seat"] == winner


def test_live_pace_switches_when_all_accept_and_falls_back_when_one_leaves(started, monkeypatch):
    monkeypatch.setattr(notifications, "PRESENCE_SECONDS", 3)
    game = started("cockroach-poker-royal")  # daily pace
    users = seat_users(game)
    live_move = PACE_SECONDS[Pace.LIVE][0]

    states: list[dict] = []  # state frames alice's socket got while beating

    async def beat(socket):
        await socket.send_json_to({"type": "heartbeat"})
        while (frame := await socket.receive_json_from(timeout=5))["type"] != "heartbeat":
            if socket is sockets.get(0):
                states.append(frame)

    sockets: dict = {}

    async def scenario():
        for seat, user in users.items():
            socket, connected, _ = await connect(user, f"/ws/games/{game.pk}/")
            assert connected
            await socket.receive_json_from(timeout=5)
            sockets[seat] = socket
        for socket in sockets.values():
            await beat(socket)
        await sync_to_async(services.live_propose)(users[0], game.pk)
        await sync_to_async(services.live_answer)(users[1], game.pk, True)
        switched_before_last = await sync_to_async(Game.objects.get)(pk=game.pk)
        await sync_to_async(services.live_answer)(users[2], game.pk, True)
        live = await sync_to_async(Game.objects.get)(pk=game.pk)
        frame = await until_state(sockets[1], live.revision_for(1))
        await sockets[2].disconnect()  # carol leaves; alice and bob stay
        del sockets[2]
        for _ in range(5):
            await asyncio.sleep(1)
            await beat(sockets[0])
            await beat(sockets[1])
        back = await sync_to_async(Game.objects.get)(pk=game.pk)
        seen = [f for f in states if f["revision"] >= back.revision_for(0)]
        back_frame = seen[-1] if seen else await until_state(sockets[0], back.revision_for(0))
        for socket in sockets.values():
            await socket.disconnect()
        return switched_before_last, live, frame, back, back_frame

    before, live, frame, back, back_frame = asyncio.run(scenario())
    assert before.live_since is None and before.live_offer == [0, 1]
    assert live.live_since is not None and live.live_offer is None
    assert live.deadline_at <= live.live_since + timedelta(seconds=live_move)
    assert frame["game"]["deadline"] == live.deadline_at.isoformat()
    assert back.live_since is None
    assert back.deadline_at == back.wait_opened_at + timedelta(seconds=back.move_seconds)
    assert back_frame["game"]["deadline"] == back.deadline_at.isoformat()
    kinds = list(PaceSwitch.objects.filter(game=game).values_list("kind", "seat"))
    assert kinds == [
        ("proposed", 0),
        ("accepted", 1),
        ("accepted", 2),
        ("live", None),
        ("fallback", None),
    ]
    assert Event.objects.filter(game=game).count() == back.version  # engine log untouched


def test_live_pace_needs_everyone_at_the_table(started):
    game = started("imperador")
    users = seat_users(game)

    async def propose_with_at_the_table(seats: list[int]) -> str:
        """The first player proposes while these seats have the table open (their sockets
        beating, as the page's do): the refusal's code, or "proposed"."""
        sockets = [await at_the_table(users[seat], game.pk) for seat in seats]
        try:
            await sync_to_async(services.live_propose)(users[0], game.pk)
        except GameError as refused:
            return refused.code
        finally:
            for socket in sockets:
                await socket.disconnect()
        return "proposed"

    assert asyncio.run(propose_with_at_the_table([0])) == "not_everyone_present"
    assert not PaceSwitch.objects.filter(game=game).exists()
    assert asyncio.run(propose_with_at_the_table([0, 1, 2])) == "proposed"
    assert PaceSwitch.objects.filter(game=game, kind="proposed", seat=0).exists()


def test_a_strangers_or_blocked_users_socket_is_refused(started, make_user):
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    stranger = make_user("mallory")
    dave = make_user("dave")
    friendship_create(users[0], dave)  # a friend of alice: may watch ...
    friendship_create(users[1], dave)

    async def scenario():
        watching = await refused_with(dave, f"/ws/games/{game.pk}/")
        await sync_to_async(user_block)(users[2], dave)  # ... until carol blocks him
        blocked = await refused_with(dave, f"/ws/games/{game.pk}/")
        stranger_try = await refused_with(stranger, f"/ws/games/{game.pk}/")
        anonymous = await refused_with(AnonymousUser(), "/ws/me/")
        return watching, blocked, stranger_try, anonymous

    watching, blocked, stranger_try, anonymous = asyncio.run(scenario())
    assert watching is None
    assert blocked == 4404
    assert stranger_try == 4404
    assert anonymous == 4403


def test_with_the_in_memory_layer_a_change_made_elsewhere_still_reaches_the_page(
    started, settings, monkeypatch
):
    """The embedded default: a change committed by another process (the Celery worker) sends
    its ping into that process's own in-memory layer, which no socket hears. Here the ping is
    dropped the same way; the socket still gets the new view by re-reading its revision."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    monkeypatch.setattr(consumers, "POLL_SECONDS", 0.5)
    game = started("cockroach-poker-royal")
    alice = seat_users(game)[0]
    engine = registry.get(game.engine)
    rng = random.Random(6)

    async def scenario():
        socket, connected, _ = await connect(alice, f"/ws/games/{game.pk}/")
        assert connected
        await socket.receive_json_from(timeout=5)
        with monkeypatch.context() as elsewhere:
            elsewhere.setattr(broadcast, "notify_game_changed", lambda *a, **k: None)
            await sync_to_async(play_one)(game, rng)
        frame = await socket.receive_json_from(timeout=3)
        await socket.disconnect()
        return frame

    frame = asyncio.run(scenario())
    fresh = Game.objects.get(pk=game.pk)
    assert frame["type"] == "state" and frame["revision"] == fresh.revision_for(0)
    assert frame["game"]["view"] == engine.view(fresh.state, 0)


def test_a_table_made_at_live_pace_is_not_offered_to_play_live(started):
    async def offered_and_proposed(game, users) -> tuple[bool, str]:
        """With everyone at the table: is the offer on the first player's page, and what does
        proposing answer?"""
        sockets = [await at_the_table(users[seat], game.pk) for seat in users]
        try:
            client = Client()
            await sync_to_async(client.force_login)(users[0])
            page = await sync_to_async(client.get)(f"/games/{game.pk}/")
            offered = "play live now" in page.content.decode()
            try:
                await sync_to_async(services.live_propose)(users[0], game.pk)
            except GameError as refused:
                return offered, refused.code
            return offered, "proposed"
        finally:
            for socket in sockets:
                await socket.disconnect()

    daily = started("mogel-motte")
    assert asyncio.run(offered_and_proposed(daily, seat_users(daily))) == (True, "proposed")
    alice, bob, carol = (seat_users(daily)[i] for i in range(3))
    live = services.game_create(
        alice, engine="mogel-motte", seats=3, pace="live", invite=["bob", "carol"]
    )
    for player in (bob, carol):
        services.game_join(player, live.pk)
        services.seat_ready(player, live.pk)
    services.game_start(alice, live.pk)
    live.refresh_from_db()
    assert asyncio.run(offered_and_proposed(live, seat_users(live))) == (False, "already_live")
    assert not PaceSwitch.objects.filter(game=live).exists()
