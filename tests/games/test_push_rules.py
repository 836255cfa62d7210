"""The push task's decisions at send time (run in this process against a real local push
endpoint): the email's rules, the player's kinds, TTL and urgency per table pace."""

from __future__ import annotations

import asyncio
import random
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from accounts.models import Notification, PushSubscription, User
from accounts.notifications import requeue_lost_pushes
from accounts.services import friend_request_send
from accounts.tasks import send_notification_push
from games import services
from games.engines import registry
from games.models import Game
from tests.games.helpers import (
    at_the_table,
    next_human_move,
    seat_users,
    to_the_show_of_hands,
    turn_game,
)
from tests.games.worker import Worker, flush_broker, wait_for
from tests.push_endpoint import PushEndpoint, subscribe

pytestmark = pytest.mark.django_db


def turn_of(game: Game) -> tuple[int, User]:
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    return seat, seat_users(game)[seat]


def move_to_a_new_turn(game: Game, endpoint: PushEndpoint, **create) -> tuple[Game, Notification]:
    """Everyone subscribed, then the seat on turn moves: the next turn's notice, pending."""
    for user in seat_users(game).values():
        subscribe(user, endpoint)
    seat, user = turn_of(game)
    services.act(user, game.pk, game.version_for(seat), next_human_move(game, random.Random(1))[1])
    game.refresh_from_db()
    _seat, owed = turn_of(game)
    note = Notification.objects.get(user=owed, game_id=game.pk, wait_seq=game.wait_seq)
    assert note.push == Notification.Push.PENDING
    return game, note


def live_turn_game(trio) -> Game:
    alice = trio[0]
    for _ in range(10):
        game = services.game_create(
            alice, engine="cockroach-poker-royal", seats=3, pace="live", invite=["bob", "carol"]
        )
        for user in trio:
            if user != alice:
                services.game_join(user, game.pk)
            services.seat_ready(user, game.pk)
        services.game_start(alice, game.pk)
        game.refresh_from_db()
        if registry.get(game.engine).waiting_for(game.state).kind == "turn":
            return game
    raise AssertionError("no turn to wait on")


def test_a_live_tables_turn_is_urgent_and_lives_no_longer_than_its_deadline(trio, endpoint):
    game, note = move_to_a_new_turn(live_turn_game(trio), endpoint)
    assert game.move_seconds <= 60
    assert send_notification_push(note.pk) == "send"
    (received,) = endpoint.received
    assert received.headers["urgency"] == "high"
    assert 30 <= int(received.headers["ttl"]) <= game.move_seconds
    assert send_notification_push(note.pk) == "done", "a redelivered task pushes nothing more"
    assert len(endpoint.received) == 1


def test_a_kind_turned_off_after_the_notice_was_queued_is_not_pushed(started, endpoint):
    _game, note = move_to_a_new_turn(turn_game(started), endpoint)
    kinds = [k for k in note.user.push_kinds if k != Notification.Kind.YOUR_TURN]
    User.objects.filter(pk=note.user_id).update(push_kinds=kinds)
    assert send_notification_push(note.pk) == "skip"
    assert endpoint.received == []


@pytest.mark.django_db(transaction=True)  # the socket reads the database from its own thread
def test_no_push_while_the_table_is_open_in_front_of_the_player(started, endpoint):
    game, note = move_to_a_new_turn(turn_game(started), endpoint)
    player = User.objects.get(pk=note.user_id)

    async def push_with_the_table_open() -> str:
        socket = await at_the_table(player, game.pk)  # what makes a player present
        try:
            return await database_sync_to_async(send_notification_push)(note.pk)
        finally:
            await socket.disconnect()

    assert asyncio.run(push_with_the_table_open()) == "skip"
    assert endpoint.received == []


def test_no_push_once_the_wait_it_announced_is_over(started, endpoint, monkeypatch):
    """A show of hands asks two seats; one answers, the other never opens its notice and the
    window closes at its deadline: that notice, still unread, is not pushed any more."""
    game = started("imperador")
    for user in seat_users(game).values():
        subscribe(user, endpoint)
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    answering, silent = waiting.seats[0], waiting.seats[1]
    game.refresh_from_db()
    note = Notification.objects.get(user=users[silent], game_id=game.pk, wait_seq=game.wait_seq)
    assert note.push == Notification.Push.PENDING
    down = {"type": "hand", "choice": "down"}
    services.act(users[answering], game.pk, game.version_for(answering), down)
    late = Game.objects.get(pk=game.pk).deadline_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: late)
    assert services.apply_deadline(game.pk)  # the window closes without the silent seat
    game.refresh_from_db()
    assert game.wait_seq != note.wait_seq and game.wait_window != "hands"
    assert Notification.objects.get(pk=note.pk).read_at is None, "the notice was never opened"
    assert send_notification_push(note.pk) == "skip"
    assert endpoint.received == []


def test_a_friend_request_pushes_with_a_long_ttl_and_no_game_topic(alice, bob, endpoint):
    browser = subscribe(alice, endpoint)
    alice.refresh_from_db()  # as a request would load her: with her device
    friend_request_send(bob, alice)
    note = Notification.objects.get(user=alice, kind=Notification.Kind.FRIEND_REQUEST)
    assert send_notification_push(note.pk) == "send"
    (received,) = endpoint.received
    assert browser.read(received)["body"] == note.text
    assert int(received.headers["ttl"]) == 7 * 24 * 3600
    assert received.headers["urgency"] == "normal"
    assert "topic" not in received.headers


def test_a_player_without_a_device_gets_no_push_queued(alice, bob):
    friend_request_send(bob, alice)
    note = Notification.objects.get(user=alice, kind=Notification.Kind.FRIEND_REQUEST)
    assert note.push == Notification.Push.NONE
    assert not PushSubscription.objects.exists()


def test_repeated_failures_count_and_a_404_drops_the_device(trio, make_user, endpoint):
    alice, bob, _carol = trio
    dave = make_user("dave")
    subscribe(alice, endpoint)
    alice.refresh_from_db()
    endpoint.status["/push/alice"] = 503
    friend_request_send(dave, alice)
    note = Notification.objects.get(user=alice, kind=Notification.Kind.FRIEND_REQUEST)
    assert send_notification_push(note.pk) == "send"
    subscription = PushSubscription.objects.get(user=alice)
    assert subscription.failures == 1 and subscription.last_success_at is None
    endpoint.status["/push/alice"] = 404
    services.game_create(bob, engine="imperador", seats=3, invite=["alice"])
    invite = Notification.objects.get(user=alice, kind=Notification.Kind.INVITATION)
    assert send_notification_push(invite.pk) == "send"
    assert not PushSubscription.objects.filter(user=alice).exists()
    assert User.objects.get(pk=alice.pk).push_devices == 0


@pytest.mark.django_db(transaction=True)
def test_a_push_whose_task_was_lost_is_sent_by_the_worker_once_the_sweep_finds_it(
    alice, bob, endpoint, tmp_path
):
    """Queued while the broker was down (or dropped with its data), a push stayed pending on
    its row for good (deploy review)."""
    browser = subscribe(alice, endpoint)
    alice.refresh_from_db()
    flush_broker()
    friend_request_send(bob, alice)  # its push task waits in the broker ...
    note = Notification.objects.get(user=alice, kind=Notification.Kind.FRIEND_REQUEST)
    assert note.push == Notification.Push.PENDING
    flush_broker()  # ... and is lost
    worker = Worker(tmp_path, extra_env={"EMAIL_SWEEP_SECONDS": "1", "PUSH_LOST_AFTER": "2"})
    worker.start()
    try:
        assert wait_for(lambda: len(endpoint.received) >= 1, timeout=30)
        time.sleep(3)  # a second sweep past PUSH_LOST_AFTER: nothing pushed twice
    finally:
        worker.stop()
    (received,) = endpoint.received
    assert browser.read(received)["body"] == note.text
    assert Notification.objects.get(pk=note.pk).push == Notification.Push.SENT


def test_a_push_pending_for_a_day_is_given_up_not_sent(alice, bob, endpoint):
    subscribe(alice, endpoint)
    alice.refresh_from_db()
    friend_request_send(bob, alice)
    note = Notification.objects.get(user=alice, kind=Notification.Kind.FRIEND_REQUEST)
    flush_broker()
    assert requeue_lost_pushes(note.created_at + timedelta(hours=23)) == 1
    assert requeue_lost_pushes(note.created_at + timedelta(hours=23)) == 0, "once a while"
    assert requeue_lost_pushes(note.created_at + timedelta(days=1, seconds=1)) == 0
    assert Notification.objects.get(pk=note.pk).push == Notification.Push.SKIPPED
    flush_broker()


@pytest.mark.parametrize(("language", "direction"), [("fa", "rtl"), ("fr", "ltr"), ("", "ltr")])
def test_a_push_says_the_language_of_its_notice_and_its_direction(
    alice, bob, endpoint, language, direction
):
    """A Persian notice opens with the Latin name of whoever asked ("bob …"): a notification
    left to its "auto" direction was laid out left to right, by that first letter."""
    User.objects.filter(pk=alice.pk).update(language=language)
    browser = subscribe(alice, endpoint)
    alice.refresh_from_db()
    friend_request_send(bob, alice)
    note = Notification.objects.get(user=alice, kind=Notification.Kind.FRIEND_REQUEST)
    assert send_notification_push(note.pk) == "send"
    (received,) = endpoint.received
    data = browser.read(received)
    assert data["body"] == note.text
    assert (data["lang"], data["dir"]) == (language or "en", direction)
