"""Deadlines with a real Celery worker and beat on Redis (no eager mode)."""

from __future__ import annotations

import random
import re
import threading
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import Notification
from games import services, table_write, tasks
from games.engines import registry
from games.models import Event, Game, Seat
from games.services import bot_time, tables
from tests.games.helpers import next_human_move, seat_users
from tests.games.worker import Worker, flush_broker, wait_for
from tests.lock_waits import until_queued

pytestmark = pytest.mark.django_db(transaction=True)

# Every wait here is a real one: the table is created at a custom pace of a few seconds, so
# the change path opens the wait, sets its deadline and sends the countdown itself. Only the
# pace's lower bound (15 s for players) is lowered, to keep the suite quick.
SHORT = 5


@pytest.fixture
def quick(started, monkeypatch):
    monkeypatch.setattr(tables, "MIN_MOVE_SECONDS", 1)

    def start(engine: str) -> Game:
        return started(engine, pace="custom", move_seconds=SHORT, window_seconds=SHORT)

    return start


def _timed_out(game: Game) -> bool:
    return Game.objects.get(pk=game.pk).version > game.version


def test_a_turn_deadline_fires_through_the_worker_and_the_bot_moves_for_the_seat(quick, worker):
    game = quick("cockroach-poker-royal")
    engine = registry.get(game.engine)
    waiting_seat = engine.waiting_for(game.state).seats[0]
    assert game.deadline_at is not None
    assert wait_for(lambda: _timed_out(game), timeout=SHORT + 15), worker.log_path.read_text()[
        -2000:
    ]
    assert timezone.now() >= game.deadline_at  # never early
    event = Event.objects.get(game=game, seq=game.version + 1)
    assert event.reason == "timeout" and event.seat == waiting_seat
    assert Seat.objects.get(game=game, index=waiting_seat).consecutive_timeouts == 1


def test_a_deadline_whose_task_was_lost_is_caught_by_the_sweeper(quick, tmp_path):
    flush_broker()
    game = quick("imperador")  # its countdown task waits in the broker: nobody runs it
    flush_broker()  # ... and is lost
    worker = Worker(tmp_path)
    worker.start()
    try:
        assert wait_for(lambda: _timed_out(game), timeout=SHORT + 15)
        assert Event.objects.filter(game=game, reason="timeout").count() == 1
    finally:
        worker.stop()


def _past_deadline(game: Game) -> Game:
    """The game once its current wait's deadline has passed (nobody applies it: no worker)."""
    game.refresh_from_db()
    time.sleep(max(0.0, (game.deadline_at - timezone.now()).total_seconds()) + 0.2)
    return game


def test_a_deadline_for_an_old_wait_does_nothing(quick):
    flush_broker()  # no worker runs here: the test applies the deadlines itself
    game = quick("cockroach-poker-royal")
    old_wait = game.wait_seq
    users = seat_users(game)
    seat, action = next_human_move(game, random.Random(1))
    services.act(users[seat], game.pk, game.version_for(seat), action)  # the wait moves on
    game = _past_deadline(game)
    assert game.wait_seq != old_wait
    # Due by the clock, but set for a wait that is over: nothing happens ...
    assert tasks.apply_deadline(game.pk, old_wait) is False
    assert Game.objects.get(pk=game.pk).version == game.version
    assert not Event.objects.filter(game=game, reason="timeout").exists()
    # ... while the current wait's deadline, just as due, is applied (a peek and the pass
    # after it are one turn: one or more events).
    assert tasks.apply_deadline(game.pk, game.wait_seq) is True
    timed_out = list(
        Event.objects.filter(game=game, reason="timeout").values_list("seq", flat=True)
    )
    assert timed_out and min(timed_out) == game.version + 1


def test_a_countdown_for_a_game_deleted_since_does_nothing_and_raises_nothing(quick):
    """A superuser's deletion in the admin left its countdown tasks to fail with a traceback
    (logs review)."""
    flush_broker()
    game = quick("imperador")
    game = _past_deadline(game)
    Game.objects.filter(pk=game.pk).delete()
    assert tasks.apply_deadline(game.pk, game.wait_seq) is False
    assert tasks.bot_moment(game.pk, timezone.now().isoformat()) is False


def test_running_the_same_deadline_twice_applies_it_once(quick):
    flush_broker()  # no worker runs here: the test applies the deadline itself, twice
    game = _past_deadline(quick("cockroach-poker-royal"))
    wait = game.wait_seq
    assert services.apply_deadline(game.pk, wait) is True
    timed_out = Event.objects.filter(game=game, reason="timeout").count()
    assert timed_out >= 1
    _past_deadline(game)  # the next wait's deadline is due too: only the wait tells them apart
    assert game.wait_seq != wait
    assert services.apply_deadline(game.pk, wait) is False
    assert Event.objects.filter(game=game, reason="timeout").count() == timed_out
    assert Game.objects.get(pk=game.pk).version == game.version


def test_killing_and_restarting_the_worker_loses_no_deadline(quick, tmp_path):
    flush_broker()
    first = Worker(tmp_path)
    first.start()
    try:
        game = quick("cockroach-poker-royal")  # the countdown goes to the running worker
    finally:
        first.kill()  # the task is in flight with nobody to run it
    assert Game.objects.get(pk=game.pk).version == game.version
    second = Worker(tmp_path)
    second.start()
    try:
        assert wait_for(lambda: _timed_out(game), timeout=SHORT + 25)
        assert Event.objects.filter(game=game, reason="timeout").count() == 1
    finally:
        second.stop()


_MOMENT_SUCCEEDED = r"Task games\.tasks\.bot_moment\[[^\]]+\] succeeded"


def test_the_worker_gives_the_bots_their_own_moment_on_time(alice, monkeypatch, tmp_path):
    """A Mogel Motte table with two bots: their first moment (an aside within a turn's span,
    or their answer to a window a bot's first move opened) is drawn at the start, with no countdown task sent then (as for a moment more than five
    minutes away); the worker's sweep sees it coming and hands it to a countdown task, which
    takes it at its time: before the grace after which the sweep would take it itself."""
    monkeypatch.setattr(tables, "MIN_MOVE_SECONDS", 1)
    monkeypatch.setattr(bot_time, "COUNTDOWN_AT_DRAW_SECONDS", 0)
    # no sooner than 4 s: a moment drawn within the sweep's 1 s beat of the start could pass
    # before any sweep saw it coming (it is then the grace's, 30 s on: not what this tests).
    # An aside (4-10 s of the turn's 10 s) or, when a bot's first move opened a race or a
    # slap, a window's answer (4-5 s of its 5 s)
    monkeypatch.setattr(bot_time, "ASIDE_DELAY", (0.4, 1.0))
    monkeypatch.setattr(bot_time, "WINDOW_DELAY", (0.8, 1.0))
    flush_broker()
    worker = Worker(tmp_path)
    worker.start()
    try:
        game = services.game_create(
            alice,
            engine="mogel-motte",
            seats=3,
            bots=2,
            pace="custom",
            move_seconds=2 * SHORT,
            window_seconds=SHORT,
        )
        game = services.game_start(alice, game.pk)
        game.refresh_from_db()
        first = game.bots_at
        assert first is not None and first <= game.started_at + timedelta(seconds=2 * SHORT)

        def taken() -> bool:
            return Game.objects.values_list("bots_at", flat=True).get(pk=game.pk) != first

        assert wait_for(taken, timeout=2 * SHORT + 15), worker.log_path.read_text()[-2000:]
        assert timezone.now() < first + timedelta(seconds=bot_time.MOMENT_GRACE_SECONDS)

        def logged() -> bool:
            # The task commits its change before Celery logs its success: wait for the line.
            return bool(re.search(_MOMENT_SUCCEEDED, worker.log_path.read_text()))

        assert wait_for(logged, timeout=10), worker.log_path.read_text()[-2000:]
    finally:
        worker.stop()


def test_three_consecutive_timeouts_hand_the_seat_to_the_bot_and_the_game_goes_on(started):
    game = started("imperador")
    engine = registry.get(game.engine)
    timed_out: dict[int, int] = {}
    for _ in range(200):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        waiting = engine.waiting_for(game.state)
        if waiting.kind == "turn":
            timed_out[waiting.seats[0]] = timed_out.get(waiting.seats[0], 0) + 1
        services.force_deadline(game.created_by, game.pk, "test: everyone is away")
        if any(count >= 3 for count in timed_out.values()):
            break
    handed = [s for s in Seat.objects.filter(game=game) if s.bot_reason == "timeouts"]
    assert handed and all(s.is_bot and s.user is not None for s in handed)
    for seat in handed:  # two "your time ran out", then the seat's handover: no third
        kinds = Notification.objects.filter(user=seat.user, game_id=game.pk).values_list(
            "kind", flat=True
        )
        assert list(kinds).count(Notification.Kind.TIMEOUT) == 2
        assert list(kinds).count(Notification.Kind.SEAT_TO_BOT) == 1


def test_a_deadline_taken_by_its_countdown_the_sweeper_and_a_redelivery_at_once_applies_once(
    quick, monkeypatch
):
    """The wait's countdown task, the sweeper and the same task delivered again (the broker's
    visibility timeout) reach one due deadline together. Each reads whether it is due only
    under the game's lock: the sweeper skips the game the task holds, the redelivery waits
    for it and finds the wait over. The missed turn is played once, not twice."""
    flush_broker()  # no worker runs here: the test runs the three itself
    game = _past_deadline(quick("cockroach-poker-royal"))
    holding, go = threading.Event(), threading.Event()
    real = table_write.write_change

    def write_change(*args, **kwargs):
        if threading.current_thread().name == "countdown":
            holding.set()
            assert go.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(table_write, "write_change", write_change)
    answers: dict[str, object] = {}

    def run(name: str, work) -> None:
        try:
            answers[name] = work()
        finally:
            connection.close()

    countdown = threading.Thread(
        target=run, args=("countdown", lambda: tasks.apply_deadline(game.pk, game.wait_seq))
    )
    countdown.name = "countdown"
    countdown.start()
    assert holding.wait(10)  # the timeout played, not yet written
    run("sweep", lambda: services.sweep_due(budget_seconds=2))
    redelivered = threading.Thread(
        target=run, args=("again", lambda: tasks.apply_deadline(game.pk, game.wait_seq))
    )
    redelivered.start()
    until_queued(redelivered)
    go.set()
    countdown.join(30)
    redelivered.join(30)

    assert answers == {"countdown": True, "sweep": 0, "again": False}
    timeouts = Event.objects.filter(game=game, reason="timeout").values_list(
        "created_at", flat=True
    )
    assert len(set(timeouts)) == 1  # one change timed the wait out
