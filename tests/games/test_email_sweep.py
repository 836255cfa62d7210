"""Turn emails leave from the notification rows themselves: a move publishes no email task;
the worker's sweep sends each pending email once it is NOTIFICATION_EMAIL_DELAY old, once,
even with two sweeps at work or a mail server that fails for a while."""

from __future__ import annotations

import random
import threading
from datetime import timedelta
from pathlib import Path

import pytest
from celery import current_app
from django.conf import settings
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import connection, transaction
from django.test import override_settings
from django.utils import timezone

from accounts import notifications
from accounts.models import Notification
from accounts.tasks import send_due_emails
from games import services
from games.engines import registry
from games.models import Game
from tests.games.helpers import next_human_move, seat_users, turn_game
from tests.games.worker import Worker, flush_broker, wait_for


def owed_user(game: Game):
    game.refresh_from_db()
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    return seat_users(game)[seat]


def due(seconds_after: float = 1.0):
    """A sweep's clock: that long past the email delay of a notice made now."""
    return timezone.now() + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY + seconds_after)


@pytest.mark.django_db
def test_a_move_publishes_no_email_task_and_the_sweep_sends_its_email_once_due(
    started, monkeypatch, django_capture_on_commit_callbacks
):
    game = turn_game(started)
    send_due_emails(due())  # the start's own notice goes first, out of the way
    mail.outbox.clear()
    published: list[str] = []
    real_send_task = current_app.send_task

    def send_task(name, *args, **kwargs):
        published.append(name)
        return real_send_task(name, *args, **kwargs)

    monkeypatch.setattr(current_app, "send_task", send_task)
    mover = owed_user(game)
    seat, action = next_human_move(game, random.Random(2))
    with django_capture_on_commit_callbacks(execute=True):  # the publishes happen after commit
        services.act(mover, game.pk, game.version_for(seat), action)
    owed = owed_user(game)
    assert owed != mover
    note = Notification.objects.get(user=owed, game_id=game.pk, wait_seq=game.wait_seq)
    assert note.email == Notification.Email.PENDING
    assert not [name for name in published if "email" in name], published

    assert send_due_emails(timezone.now()) == 0, "not before the delay"
    assert mail.outbox == []
    assert send_due_emails(due()) == 1
    assert [m.to for m in mail.outbox] == [[owed.email]]
    assert f"/games/{game.pk}/" in mail.outbox[0].body
    note.refresh_from_db()
    assert note.email == Notification.Email.SENT and note.emailed_at is not None
    assert send_due_emails(due(30)) == 0 and len(mail.outbox) == 1, "sent once"


@pytest.mark.django_db(transaction=True)
def test_a_notice_another_sweep_is_sending_is_left_to_it(started):
    game = turn_game(started)
    owed = owed_user(game)
    note = Notification.objects.get(user=owed, game_id=game.pk, email=Notification.Email.PENDING)
    locked, release = threading.Event(), threading.Event()

    def other_sweep() -> None:  # holds the row as a sweep in the middle of sending it would
        try:
            with transaction.atomic():
                Notification.objects.select_for_update().get(pk=note.pk)
                locked.set()
                release.wait(20)
        finally:
            connection.close()

    thread = threading.Thread(target=other_sweep)
    thread.start()
    try:
        assert locked.wait(10)
        assert send_due_emails(due()) == 0
        assert mail.outbox == []
    finally:
        release.set()
        thread.join(10)
    note.refresh_from_db()
    assert note.email == Notification.Email.PENDING  # the other sweep let go without sending
    assert send_due_emails(due()) == 1
    assert [m.to for m in mail.outbox] == [[owed.email]]


class FlakyBackend(EmailBackend):
    """The test mailbox, refusing the addresses in ``refused`` as a mail server might."""

    refused: set[str] = set()

    def send_messages(self, messages):
        for message in messages:
            if set(message.to) & self.refused:
                raise OSError("451 try again later")
        return super().send_messages(messages)


@pytest.mark.django_db
@override_settings(EMAIL_BACKEND=f"{__name__}.FlakyBackend")
def test_a_mail_server_failure_costs_one_email_a_retry_not_the_others(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        notifications.notify(user, Notification.Kind.NUDGE, f"{user.username}, your move", "/")
    FlakyBackend.refused = {ann.email}
    try:
        assert send_due_emails(due()) == 1
        assert [m.to for m in mail.outbox] == [[bob.email]]
        assert Notification.objects.get(user=ann).email == Notification.Email.PENDING
    finally:
        FlakyBackend.refused = set()
    assert send_due_emails(due(5)) == 1, "the next sweep tries again"
    assert [m.to for m in mail.outbox] == [[bob.email], [ann.email]]
    assert send_due_emails(due(10)) == 0


@pytest.mark.django_db
def test_an_email_the_server_refused_for_a_day_is_given_up(make_user):
    ann = make_user("ann")
    notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    assert send_due_emails(timezone.now() + notifications.EMAIL_MAX_AGE + timedelta(1)) == 0
    assert mail.outbox == []


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_emails_the_owed_player_after_a_move(started, tmp_path: Path):
    """The worker's beat runs the sweep; the email lands as a file (the embedded default's
    backend) about the delay after the move, and once."""
    game = turn_game(started)
    mover = owed_user(game)
    started_notice = Notification.objects.get(
        user=mover, game_id=game.pk, kind=Notification.Kind.YOUR_TURN
    )
    seat, action = next_human_move(game, random.Random(3))
    services.act(mover, game.pk, game.version_for(seat), action)
    owed = owed_user(game)
    note = Notification.objects.get(user=owed, game_id=game.pk, wait_seq=game.wait_seq)
    emails = tmp_path / "emails"
    flush_broker()
    worker = Worker(
        tmp_path,
        extra_env={
            "EMAIL_SWEEP_SECONDS": "1",
            "NOTIFICATION_EMAIL_DELAY": "1",
            "EMAIL_FILE_PATH": str(emails),
        },
    )
    worker.start()
    try:

        def files() -> list[Path]:
            return sorted(emails.glob("*")) if emails.exists() else []

        assert wait_for(lambda: files(), timeout=30), worker.log_path.read_text()[-3000:]
        wait_for(lambda: False, timeout=2.5)  # two more sweeps: nothing more may come
        sent = files()
        assert len(sent) == 1, sent
        text = sent[0].read_text()
        assert f"To: {owed.email}" in text and f"/games/{game.pk}/" in text
        note.refresh_from_db()
        started_notice.refresh_from_db()
        assert note.email == Notification.Email.SENT
        # the start's notice was about a turn the mover has played since: not sent
        assert started_notice.email == Notification.Email.SKIPPED
    finally:
        worker.stop()
