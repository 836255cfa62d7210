"""A pace's time is real time: a Daily turn lasts 24 hours across a daylight-saving change, and
what the turn's email says ("Due by …", in the reader's zone, language and calendar) is the
moment the deadline fires; the reminder comes once, at 80 % of the time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification, User
from accounts.tasks import send_notification_email
from games import services
from games.engines import registry
from games.models import Game
from games.services import notify
from tests.games.helpers import seat_users, turn_game

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("zone", "language", "opened", "pace", "says"),
    [
        # the night the clocks go forward: 10:00 on Saturday, due at 11:00 on Sunday
        (
            "Europe/Prague",
            "en",
            datetime(2026, 3, 28, 9, tzinfo=UTC),
            "daily",
            "Due by March 29, 2026, 11 a.m. (Czechia — Prague).",
        ),
        # ... and back: 10:00 on Saturday, due at 09:00 on Sunday
        (
            "Europe/Paris",
            "fr",
            datetime(2026, 10, 24, 8, tzinfo=UTC),
            "daily",
            "Échéance\u202f: 25 octobre 2026 09:00 (France — Paris).",
        ),
        # Brazil's last summer time began at midnight, 4 November 2018
        (
            "America/Sao_Paulo",
            "pt",
            datetime(2018, 11, 3, 12, tzinfo=UTC),
            "daily",
            "Prazo: até 4 de novembro de 2018 às 10:00 (Brasil — São Paulo).",
        ),
        # Iran's summer time (until 2022) began at midnight on 22 March, just after Nowruz
        (
            "Asia/Tehran",
            "fa",
            datetime(2021, 3, 21, 12, tzinfo=UTC),
            "relaxed",
            "مهلت: تا 4 فروردین 1400، 16:30 (ایران — تهران).",
        ),
        # half an hour off UTC
        (
            "Asia/Kolkata",
            "cs",
            datetime(2026, 3, 28, 9, tzinfo=UTC),
            "daily",
            "Termín: 29. března 2026 14:30 (Indie — Kalkata).",
        ),
    ],
)
def test_a_deadline_is_real_hours_and_its_email_names_when_it_fires(
    started, monkeypatch, zone, language, opened, pace, says
):
    clock = {"now": opened}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    User.objects.update(time_zone=zone, language=language)
    game = turn_game(started, pace=pace)
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    user = seat_users(game)[seat]
    hours = {"daily": 24, "relaxed": 72}[pace]
    assert game.deadline_at == opened + timedelta(hours=hours)

    clock["now"] = opened + timedelta(seconds=61)
    turn = Notification.objects.get(user=user, game_id=game.pk, kind=Notification.Kind.YOUR_TURN)
    assert send_notification_email(turn.pk) == "send"
    assert says in mail.outbox[-1].body
    assert says in mail.outbox[-1].alternatives[0][0]

    game.refresh_from_db()
    assert game.remind_at == game.deadline_at - timedelta(hours=hours * 0.2)
    assert notify.send_due_reminders(game.remind_at - timedelta(seconds=1)) == 0
    assert notify.send_due_reminders(game.remind_at) == 1
    assert notify.send_due_reminders(game.remind_at + timedelta(minutes=1)) == 0  # once

    clock["now"] = game.deadline_at - timedelta(seconds=1)
    assert not services.apply_if_expired(Game.objects.get(pk=game.pk))
    clock["now"] = game.deadline_at
    assert services.apply_if_expired(Game.objects.get(pk=game.pk))


def test_the_table_and_my_games_count_the_time_left_on_the_sites_one_clock(started, monkeypatch):
    """The table's "3 hours left" read Django's own clock beside the site's (games.clock
    moves with timezone.now): one clock for the deadline and for what is said of it."""
    opened = datetime(2026, 3, 28, 9, tzinfo=UTC)
    clock = {"now": opened}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    User.objects.update(time_zone="Europe/Prague")
    game = turn_game(started, pace="daily")
    clock["now"] = game.deadline_at - timedelta(hours=3)
    client = Client()
    client.force_login(game.seats.get(index=0).user)
    table = client.get(reverse("games:table", args=[game.pk])).content.decode()
    mine = client.get(reverse("games:my_games")).content.decode()
    assert "3\xa0hours left</time>" in table
    assert "3\xa0hours left</span>" in mine


def test_a_reminder_across_the_clocks_going_forward_says_the_real_time_left(started, monkeypatch):
    """Reminded at 23:12 in Prague the night the clocks go forward, for a turn due at 05:00:
    4 hours 48 minutes are left, not the 5 hours 48 minutes the wall clock shows, and the
    email says when, in the player's zone, naming it."""
    clock = {"now": datetime(2026, 3, 28, 3, tzinfo=UTC)}  # 04:00 in Prague
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    User.objects.update(time_zone="Europe/Prague")
    game = turn_game(started, pace="daily")
    user = seat_users(game)[registry.get(game.engine).waiting_for(game.state).seats[0]]
    clock["now"] = game.remind_at
    assert notify.send_due_reminders(clock["now"]) == 1
    reminder = Notification.objects.get(user=user, kind=Notification.Kind.REMINDER)
    assert reminder.text.endswith("is due in 4\xa0hours, 48\xa0minutes."), reminder.text
    clock["now"] += timedelta(seconds=61)
    assert send_notification_email(reminder.pk) == "send"
    assert "Due by March 29, 2026, 5 a.m. (Czechia — Prague)." in mail.outbox[-1].body


def _after_the_sweeps_read(monkeypatch, happening) -> None:
    """The reminder sweep's read of the due games, with ``happening`` landing right after it
    (before the sweep clears and sends)."""
    from games.models import Game as GameModel

    manager, real_filter = GameModel.objects, GameModel.objects.filter

    class ReadThenChanged:
        def __init__(self, rows):
            self.rows = rows

        def order_by(self, *fields):
            return self

        def __getitem__(self, item):
            return self.rows

    def filter_then_change(*args, **kwargs):
        if set(kwargs) != {"remind_at__lte"}:
            return real_filter(*args, **kwargs)
        rows = list(real_filter(*args, **kwargs).order_by("remind_at"))
        happening()
        return ReadThenChanged(rows)

    monkeypatch.setattr(manager, "filter", filter_then_change)


def test_a_reminder_sweep_that_read_a_wait_just_ended_leaves_its_player_alone(started, monkeypatch):
    """The sweep reads the due games, then clears each one's reminder for the wait it read:
    a move in between ended that wait, and the player who had just moved was still told
    their move was due (with the bell's other notices of the table marked read)."""
    import random

    from games.models import Game as GameModel
    from tests.games.helpers import next_human_move

    opened = datetime(2026, 3, 28, 9, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: opened)
    game = turn_game(started, pace="fast")
    game.refresh_from_db()
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    mover = seat_users(game)[seat]

    def move() -> None:
        fresh = GameModel.objects.get(pk=game.pk)
        _seat, action = next_human_move(fresh, random.Random(1))
        services.act(mover, game.pk, fresh.version_for(seat), action)

    _after_the_sweeps_read(monkeypatch, move)
    assert notify.send_due_reminders(game.remind_at + timedelta(seconds=1)) == 0
    assert not Notification.objects.filter(kind=Notification.Kind.REMINDER).exists()


def _a_daily_turn_at_its_reminder(started, monkeypatch):
    """A Daily turn, the clock (moved by the test) at its 80 % reminder: (game, its player,
    the clock)."""
    clock = {"now": datetime(2026, 3, 27, 9, tzinfo=UTC)}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    game = turn_game(started, pace="daily")
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    user = seat_users(game)[seat]
    game.refresh_from_db()
    clock["now"] = game.remind_at
    return game, user, clock


def test_a_turn_whose_deadline_a_vacation_moved_is_reminded_before_the_new_deadline(
    started, monkeypatch
):
    """Reminded at 80 % of a Daily turn, a player went away for two days: back, they had a
    day for the same turn and no reminder before it ran out (one reminder a wait, sent)."""
    from games.services import vacation

    game, user, clock = _a_daily_turn_at_its_reminder(started, monkeypatch)
    assert notify.send_due_reminders(clock["now"]) == 1

    vacation.vacation_start(User.objects.get(pk=user.pk), 2)
    game.refresh_from_db()
    assert game.deadline_at == clock["now"] + timedelta(days=2, hours=24)
    assert game.remind_at == game.deadline_at - timedelta(hours=24 * 0.2)
    assert notify.send_due_reminders(game.remind_at) == 1
    reminders = Notification.objects.filter(user=user, kind=Notification.Kind.REMINDER)
    assert reminders.count() == 2
    assert notify.send_due_reminders(game.remind_at + timedelta(minutes=1)) == 0  # once


def test_a_reminder_sweep_that_read_a_turn_a_vacation_just_moved_leaves_it_to_the_new_time(
    started, monkeypatch
):
    """The sweep read a Daily turn due for its reminder; the player went away for two days
    right after. The sweep cleared the reminder the vacation had just set and told them the
    move was due in under 5 hours (it was due in over 2 days); none came before the new
    deadline. The turn is reminded once, at 80 % of its new time, saying that time."""
    from games.services import vacation

    game, user, clock = _a_daily_turn_at_its_reminder(started, monkeypatch)

    _after_the_sweeps_read(
        monkeypatch, lambda: vacation.vacation_start(User.objects.get(pk=user.pk), 2)
    )
    assert notify.send_due_reminders(clock["now"]) == 0
    monkeypatch.undo()
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])

    game.refresh_from_db()
    assert game.deadline_at == clock["now"] + timedelta(days=2, hours=24)
    assert game.remind_at == game.deadline_at - timedelta(hours=24 * 0.2)
    assert notify.send_due_reminders(game.remind_at) == 1
    (reminder,) = Notification.objects.filter(user=user, kind=Notification.Kind.REMINDER)
    assert "is due in 4\xa0hours, 48\xa0minutes." in reminder.text, reminder.text
