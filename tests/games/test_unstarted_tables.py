"""A table nobody starts does not wait for ever: UNSTARTED_TABLE_DAYS after it was made it is
cancelled by the beat's sweep, everyone at it or invited hears why, it leaves the lists, and
its lobby said when beforehand."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone
from django.utils.formats import date_format

from accounts.models import Notification
from config.celery_app import app
from games import services, tasks
from games.models import Game, Invitation
from games.services.lobby_expiry import UNSTARTED_TABLE_DAYS, expires_at

pytestmark = pytest.mark.django_db

DAYS = timedelta(days=UNSTARTED_TABLE_DAYS)


def _notices(user) -> list[str]:
    rows = Notification.objects.filter(user=user, kind=Notification.Kind.GAME_FINISHED)
    return [n.text for n in rows.order_by("pk")]


def test_a_table_nobody_starts_is_cancelled_and_everyone_hears_why(trio, make_user):
    alice, bob, carol = trio
    game = services.game_create(
        alice,
        engine="imperador",
        seats=4,
        invite=["bob", "carol"],
        join_policy=Game.JoinPolicy.FRIENDS,
    )
    services.game_join(bob, game.pk)  # carol's invitation stays open
    game.refresh_from_db()

    assert services.expire_unstarted_tables(game.created_at + DAYS - timedelta(minutes=1)) == 0
    assert Game.objects.get(pk=game.pk).status == Game.Status.LOBBY

    assert services.expire_unstarted_tables(game.created_at + DAYS + timedelta(minutes=1)) == 1
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.finished_at is not None
    assert set(game.invitations.values_list("to_user__username", "status")) == {
        ("bob", Invitation.Status.ACCEPTED),
        ("carol", Invitation.Status.CANCELLED),
    }
    days = UNSTARTED_TABLE_DAYS
    assert _notices(alice) == [
        f"Nobody started your table of Imperador #{game.pk} within {days} days: it was cancelled."
    ]
    said = f"The table of Imperador #{game.pk} did not start within {days} days: it was cancelled."
    assert _notices(bob) == [said] and _notices(carol) == [said]
    # carol's invitation is done with: nothing is left to accept
    assert not Notification.objects.filter(
        user=carol, kind=Notification.Kind.INVITATION, read_at__isnull=True
    ).exists()
    # a second sweep finds nothing more
    assert services.expire_unstarted_tables(game.created_at + DAYS + timedelta(hours=2)) == 0


def test_a_started_table_is_left_alone(trio):
    alice, _bob, _carol = trio
    started = services.game_create(alice, engine="mogel-motte", seats=3, bots=2)
    services.game_start(alice, started.pk)
    assert services.expire_unstarted_tables(started.created_at + 2 * DAYS) == 0
    assert Game.objects.get(pk=started.pk).status == Game.Status.ACTIVE


def test_the_lobby_says_when_and_the_open_list_forgets_it(trio, make_user):
    alice, _bob, _carol = trio
    dana = make_user("dana")
    game = services.game_create(
        alice, engine="mogel-motte", seats=3, join_policy=Game.JoinPolicy.ANYONE
    )
    page = Client()
    page.force_login(dana)
    lobby = page.get(f"/games/{game.pk}/").content.decode()
    when = timezone.localtime(expires_at(game)).date()
    assert "If nobody starts it, this table is cancelled on" in lobby
    assert f"is cancelled on {date_format(when)}." in lobby
    assert f'href="/games/{game.pk}/"' in page.get("/games/open/").content.decode()

    services.expire_unstarted_tables(game.created_at + DAYS + timedelta(minutes=1))
    assert f'href="/games/{game.pk}/"' not in page.get("/games/open/").content.decode()
    assert "If nobody starts it" not in page.get(f"/games/{game.pk}/").content.decode()


def test_the_task_is_scheduled_and_runs_the_sweep(trio, monkeypatch):
    alice, _bob, _carol = trio
    entry = settings.CELERY_BEAT_SCHEDULE["expire-unstarted-tables"]
    assert entry["task"] == "games.tasks.expire_unstarted_tables"
    assert app.amqp.router.route({}, entry["task"])["queue"].name == "deadlines"
    game = services.game_create(alice, engine="mogel-motte", seats=3, invite=["bob"])
    monkeypatch.setattr(timezone, "now", lambda: game.created_at + DAYS + timedelta(minutes=5))
    assert tasks.expire_unstarted_tables.apply().get() == 1
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED


def _warnings(user) -> list[str]:
    rows = Notification.objects.filter(user=user, kind=Notification.Kind.TABLE)
    return [n.text for n in rows.order_by("pk") if "will be cancelled in a day" in n.text]


def test_its_creator_is_told_a_day_before_once(trio):
    alice, bob, _carol = trio
    game = services.game_create(alice, engine="mogel-motte", seats=3, invite=["bob"])
    services.game_join(bob, game.pk)
    game.refresh_from_db()
    last_day = game.created_at + DAYS - timedelta(days=1)

    assert services.warn_unstarted_tables(last_day - timedelta(minutes=5)) == 0
    assert services.warn_unstarted_tables(last_day + timedelta(minutes=30)) == 1
    # the next sweeps overlap that moment: told once
    assert services.warn_unstarted_tables(last_day + timedelta(minutes=90)) == 0
    assert _warnings(alice) == [
        f"Nobody has started your table of Mogel Motte #{game.pk}: it will be cancelled in a "
        "day. You can start it now; empty seats go to bots."
    ]
    assert _warnings(bob) == []  # the creator decides


def test_a_started_table_is_not_warned(trio):
    alice, _bob, _carol = trio
    game = services.game_create(alice, engine="mogel-motte", seats=3, bots=1)
    services.game_start(alice, game.pk)
    game.refresh_from_db()
    at = game.created_at + DAYS - timedelta(days=1) + timedelta(minutes=30)
    assert services.warn_unstarted_tables(at) == 0
    assert _warnings(alice) == []


def _beat_runs_at(schedule, moment) -> bool:
    """Whether the beat entry's schedule starts its task in this minute."""
    if isinstance(schedule, timedelta):
        return int(moment.timestamp()) % int(schedule.total_seconds()) == 0
    return moment.minute in schedule.minute and moment.hour in schedule.hour


def test_a_table_is_cancelled_on_the_day_its_lobby_says_in_the_readers_zone(trio, monkeypatch):
    """A table made at 23:20 in Prague said "cancelled on 21 December" and was cancelled at
    00:15 on the 22nd, by the next hourly sweep: the sweep runs every minute."""
    from datetime import UTC, datetime
    from zoneinfo import ZoneInfo

    from accounts.models import User

    alice, _bob, _carol = trio
    User.objects.filter(pk=alice.pk).update(time_zone="Europe/Prague")
    made = datetime(2026, 12, 7, 22, 20, tzinfo=UTC)  # 23:20 in Prague
    # the field's default is the timezone.now of import time, and Django keeps it
    monkeypatch.setattr(Game._meta.get_field("created_at"), "_get_default", lambda: made)
    game = services.game_create(alice, engine="mogel-motte", seats=3, invite=["bob"])
    assert game.created_at == made
    page = Client()
    page.force_login(alice)
    monkeypatch.setattr(timezone, "now", lambda: made)
    lobby = page.get(f"/games/{game.pk}/").content.decode()
    assert "is cancelled on Dec. 21, 2026." in lobby

    schedule = settings.CELERY_BEAT_SCHEDULE["expire-unstarted-tables"]["schedule"]
    moment = made + DAYS - timedelta(minutes=60)
    while Game.objects.get(pk=game.pk).status == Game.Status.LOBBY:
        moment += timedelta(minutes=1)
        assert moment < made + DAYS + timedelta(hours=2)
        if _beat_runs_at(schedule, moment):
            monkeypatch.setattr(timezone, "now", lambda: moment)  # noqa: B023
            tasks.expire_unstarted_tables.apply().get()
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABORTED
    assert moment >= expires_at(game)  # never before
    prague = timezone.localtime(moment, ZoneInfo("Europe/Prague"))
    assert prague.date().isoformat() == "2026-12-21"


def test_every_table_entering_its_last_day_is_warned_past_one_batch(trio, monkeypatch):
    """The warning sweep took one unordered batch: past EXPIRY_BATCH tables in its window,
    the same ones came back sweep after sweep and the others were never warned."""
    from datetime import UTC, datetime

    from games.services import lobby_expiry

    alice, _bob, _carol = trio
    monkeypatch.setattr(lobby_expiry, "EXPIRY_BATCH", 2)
    made = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    tables = []
    for minute in range(5):  # five tables a minute apart
        monkeypatch.setattr(
            Game._meta.get_field("created_at"),
            "_get_default",
            lambda m=minute: made + timedelta(minutes=m),
        )
        tables.append(services.game_create(alice, engine="mogel-motte", seats=3, invite=["bob"]))
    sweep_at = made + timedelta(days=UNSTARTED_TABLE_DAYS) - timedelta(days=1, minutes=-10)
    monkeypatch.setattr(timezone, "now", lambda: sweep_at)
    assert services.warn_unstarted_tables() == 5
    assert services.warn_unstarted_tables() == 0  # once each
    told = Notification.objects.filter(user=alice, game_id__in=[t.pk for t in tables])
    assert sorted(told.filter(text__contains="cancelled").values_list("game_id", flat=True)) == [
        t.pk for t in tables
    ]
