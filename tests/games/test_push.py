"""Web push end to end: a subscription made through the real view, a real game change, a real
Celery worker delivering to a real push endpoint on 127.0.0.1, and the browser's side
decrypting what arrived (RFC 8291) and checking the VAPID signature (RFC 8292)."""

from __future__ import annotations

import random
import time

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.urls import reverse

from accounts import notifications
from accounts.models import Notification, PushSubscription, User
from games import services
from games.engines import registry
from games.models import Game
from tests.games.helpers import next_human_move, seat_users, turn_game
from tests.games.worker import wait_for
from tests.push_endpoint import Browser, PushEndpoint, subscribe, vapid_claims

pytestmark = pytest.mark.django_db(transaction=True)

ANDROID_FIREFOX = "Mozilla/5.0 (Android 14; Mobile; rv:130.0) Gecko/130.0 Firefox/130.0"


def settled() -> bool:
    """Every push the worker was given has been decided (sent or skipped)."""
    return not Notification.objects.filter(push=Notification.Push.PENDING).exists()


def wait_settled(worker, endpoint: PushEndpoint, arrived: int = 0) -> None:
    """Until every push is decided and ``arrived`` POSTs reached the endpoint; then a moment
    more, so a push that should not come would have come (decided first, posted after)."""
    assert wait_for(lambda: settled() and len(endpoint.received) >= arrived, timeout=30), (
        worker.log_path.read_text()[-3000:]
    )
    time.sleep(0.5)


def hidden_words(game: Game) -> set[str]:
    engine = registry.get(game.engine)
    return {w.replace("_", " ") for w in engine.view(game.state, None)["claims"]} | {
        "joker",
        "blank",
    }


def test_a_move_that_opens_a_turn_pushes_the_notice_once_readable_only_by_the_browser(
    started, worker, endpoint
):
    game = turn_game(started)
    users = seat_users(game)
    browsers = {seat: subscribe(user, endpoint, ANDROID_FIREFOX) for seat, user in users.items()}
    assert PushSubscription.objects.get(user=users[0]).label == "Firefox / Android"
    engine = registry.get(game.engine)
    mover = engine.waiting_for(game.state).seats[0]
    services.act(
        users[mover], game.pk, game.version_for(mover), next_human_move(game, random.Random(5))[1]
    )
    game.refresh_from_db()
    waiting = engine.waiting_for(game.state)
    assert waiting.kind == "turn" and waiting.seats[0] != mover
    owed = waiting.seats[0]
    wait_settled(worker, endpoint, arrived=1)

    assert [r.path for r in endpoint.received] == [f"/push/{users[owed].username}"]
    received = endpoint.received[0]
    note = Notification.objects.get(user=users[owed], game_id=game.pk, wait_seq=game.wait_seq)
    assert note.kind == Notification.Kind.YOUR_TURN and note.push == Notification.Push.SENT
    data = browsers[owed].read(received)
    assert data == {
        "title": settings.SITE_NAME,
        "body": note.text,
        "url": settings.SITE_URL.rstrip("/") + f"/games/{game.pk}/",
        "tag": f"game-{game.pk}",
        "lang": "en",
        "dir": "ltr",
    }
    words = data["body"].lower().replace(engine.name.lower(), "")
    for word in hidden_words(game):
        assert word not in words, (word, data)
    with pytest.raises(Exception):  # noqa: B017 (any failure: another browser cannot read it)
        browsers[mover].read(received)

    claims = vapid_claims(received.headers["authorization"], settings.VAPID_PUBLIC_KEY)
    assert claims["aud"] == endpoint.origin and claims["sub"] == settings.VAPID_SUBJECT
    # a Daily table's turn: lives until its deadline, not urgent
    assert 23 * 3600 < int(received.headers["ttl"]) <= 24 * 3600
    assert received.headers["urgency"] == "normal"
    assert received.headers["topic"] == f"game{game.pk}"
    subscription = PushSubscription.objects.get(user=users[owed])
    assert subscription.last_success_at is not None and subscription.failures == 0


def window_game(started, endpoint) -> tuple[Game, dict[int, Browser]]:
    """An Imperador table whose current wait is a window two humans still owe, everyone
    subscribed before the move that opened it."""
    for attempt in range(20):
        game = started("imperador")
        engine = registry.get(game.engine)
        users = seat_users(game)
        browsers = {
            seat: subscribe(user, endpoint, ANDROID_FIREFOX) for seat, user in users.items()
        }
        rng = random.Random(attempt)
        for _step in range(30):
            game.refresh_from_db()
            waiting = engine.waiting_for(game.state)
            owing = [s for s in waiting.seats if s in users and engine.legal_actions(game.state, s)]
            if waiting.kind == "window" and len(owing) >= 2:
                return game, browsers
            seat, action = next_human_move(game, rng)
            services.act(users[seat], game.pk, game.version_for(seat), action)
        PushSubscription.objects.all().delete()
    raise AssertionError("never reached a window two players owe")


def test_a_window_pushes_each_asked_player_once_and_an_answer_inside_it_pushes_nobody(
    started, worker, endpoint
):
    game, browsers = window_game(started, endpoint)
    engine = registry.get(game.engine)
    users = seat_users(game)
    asked = [s for s in engine.waiting_for(game.state).seats if s in users]
    for seat in asked:
        assert wait_for(lambda seat=seat: endpoint.to(f"/push/{users[seat].username}"))
    wait_settled(worker, endpoint)
    engine = registry.get(game.engine)
    users = seat_users(game)
    asked = [s for s in engine.waiting_for(game.state).seats if s in users]
    for seat in asked:
        pushes = endpoint.to(f"/push/{users[seat].username}")
        # the latest push to an asked seat is this window's notice, and it is urgent only if
        # the table is fast: a Daily window is not
        data = browsers[seat].read(pushes[-1])
        note = Notification.objects.get(user=users[seat], game_id=game.pk, wait_seq=game.wait_seq)
        assert note.kind == Notification.Kind.WINDOW and data["body"] == note.text
    before = len(endpoint.received)
    notes = Notification.objects.count()

    answering = asked[0]
    action = next(a for a in engine.legal_actions(game.state, answering) if a["type"] != "timeout")
    services.act(users[answering], game.pk, game.version_for(answering), action)
    game.refresh_from_db()
    waiting = engine.waiting_for(game.state)
    assert waiting.kind == "window" and asked[1] in waiting.seats, "still the same window"
    assert Notification.objects.count() == notes, "an answer inside a window tells nobody"
    wait_settled(worker, endpoint)
    assert len(endpoint.received) == before, "an answer inside a window pushes nobody"


def test_no_push_for_a_notice_read_first_or_a_kind_turned_off(started, worker, endpoint):
    game = turn_game(started)
    users = seat_users(game)
    for user in users.values():
        subscribe(user, endpoint, ANDROID_FIREFOX)
    engine = registry.get(game.engine)
    rng = random.Random(7)

    # read in the app before the push was due: skipped at send time
    with override_settings(PUSH_DELAY=3):
        mover = engine.waiting_for(game.state).seats[0]
        services.act(users[mover], game.pk, game.version_for(mover), next_human_move(game, rng)[1])
        game.refresh_from_db()
        owed = users[engine.waiting_for(game.state).seats[0]]
        note = Notification.objects.get(user=owed, game_id=game.pk, wait_seq=game.wait_seq)
        assert note.push == Notification.Push.PENDING
        notifications.mark_read(owed, [note.pk])
    wait_settled(worker, endpoint)
    note.refresh_from_db()
    assert note.push == Notification.Push.SKIPPED
    assert endpoint.received == []

    # the player on turn turns "your turn" off in the profile: their next turns push nothing
    off = owed
    client = Client()
    client.force_login(off)
    kinds = [k for k in User.objects.get(pk=off.pk).push_kinds if k != "turn"]
    assert client.post(reverse("push_kinds"), {"kinds": kinds}).status_code == 302
    turns = Notification.objects.filter(user=off, kind=Notification.Kind.YOUR_TURN)
    seen = turns.count()
    earlier = list(turns.values_list("pk", flat=True))
    for _ in range(40):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE or turns.count() > seen:
            break
        seat, action = next_human_move(game, rng)
        services.act(users[seat], game.pk, game.version_for(seat), action)
    assert turns.count() > seen, "the game came back to the player who turned turns off"
    wait_settled(worker, endpoint)
    assert not turns.exclude(pk__in=earlier).exclude(push="").exists(), "not even queued"
    assert endpoint.to(f"/push/{off.username}") == []
    # the others' notices were queued (and skipped or sent: their waits went by quickly)
    assert Notification.objects.exclude(user=off).exclude(push="").exists()


def test_a_subscription_the_push_service_calls_gone_is_removed(started, worker, endpoint):
    game = turn_game(started)
    users = seat_users(game)
    for user in users.values():
        subscribe(user, endpoint, ANDROID_FIREFOX)
        endpoint.status[f"/push/{user.username}"] = 410
    engine = registry.get(game.engine)
    mover = engine.waiting_for(game.state).seats[0]
    services.act(
        users[mover], game.pk, game.version_for(mover), next_human_move(game, random.Random(5))[1]
    )
    game.refresh_from_db()
    owed = users[engine.waiting_for(game.state).seats[0]]
    wait_settled(worker, endpoint, arrived=1)
    assert wait_for(lambda: not PushSubscription.objects.filter(user=owed).exists())
    assert [r.path for r in endpoint.received] == [f"/push/{owed.username}"]
    assert not PushSubscription.objects.filter(user=owed).exists()
    assert User.objects.get(pk=owed.pk).push_devices == 0
    assert PushSubscription.objects.filter(user=users[mover]).exists()
