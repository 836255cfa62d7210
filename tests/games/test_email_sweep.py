"""Turn emails leave from the notification rows themselves (accounts.email_queue): a move
publishes no email task; the worker's sweep sends each pending email once it is
NOTIFICATION_EMAIL_DELAY old, once, even with two workers at work or a mail server that
fails for a while."""

from __future__ import annotations

import logging
import random
import smtplib
import threading
import zoneinfo
from datetime import timedelta
from pathlib import Path

import pytest
from celery import current_app
from django.conf import settings
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import connection, transaction
from django.test import override_settings
from django.urls import reverse
from django.utils import dateformat, timezone

from accounts import email_queue, notifications
from accounts.models import Notification
from accounts.tasks import send_due_emails
from games import services
from games.engines import registry
from games.models import Game
from games.services import notify
from tests.games.helpers import next_human_move, seat_users, turn_game
from tests.games.worker import Worker, flush_broker, wait_for
from tests.live_server import closed_port


def owed_user(game: Game):
    game.refresh_from_db()
    seat = registry.get(game.engine).waiting_for(game.state).seats[0]
    return seat_users(game)[seat]


def due(seconds_after: float = 1.0):
    """A sweep's clock: that long past the email delay of a notice made now."""
    return timezone.now() + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY + seconds_after)


@pytest.fixture
def published(monkeypatch) -> list[str]:
    """The names of the Celery tasks published from here on (they are still published)."""
    names: list[str] = []
    real_send_task = current_app.send_task

    def send_task(name, *args, **kwargs):
        names.append(name)
        return real_send_task(name, *args, **kwargs)

    monkeypatch.setattr(current_app, "send_task", send_task)
    return names


@pytest.mark.django_db
def test_a_move_publishes_no_email_task_and_the_sweep_sends_its_email_once_due(
    started, published, django_capture_on_commit_callbacks
):
    game = turn_game(started)
    send_due_emails(due())  # the start's own notice goes first, out of the way
    mail.outbox.clear()
    published.clear()
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


@pytest.mark.django_db
def test_a_nudge_publishes_no_email_task_either(
    make_user, published, django_capture_on_commit_callbacks
):
    """Nudges and reminders are stored by ``notify`` (a move's notices by ``notify_all``)."""
    ann = make_user("ann")
    with django_capture_on_commit_callbacks(execute=True):
        note = notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    assert note.email == Notification.Email.PENDING and published == []
    assert send_due_emails(due()) == 1 and [m.to for m in mail.outbox] == [[ann.email]]


@pytest.mark.django_db
def test_the_oldest_due_email_goes_first(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    notifications.notify(bob, Notification.Kind.NUDGE, "bob, your move", "/")
    notifications.notify(ann, Notification.Kind.NUDGE, "ann, your move", "/")
    Notification.objects.filter(user=ann).update(created_at=timezone.now() - timedelta(minutes=5))
    assert send_due_emails(due()) == 2
    assert [m.to for m in mail.outbox] == [[ann.email], [bob.email]]


def _note_of(user) -> Notification:
    return Notification.objects.get(user=user)


@pytest.mark.django_db(transaction=True)
def test_an_email_another_worker_is_sending_is_left_to_it_until_its_lease_runs_out(make_user):
    ann = make_user("ann")
    notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    now = due()
    claimed = email_queue.claim(_note_of(ann).pk, now)  # another worker took it
    assert claimed is not None and _note_of(ann).email == Notification.Email.SENDING
    assert send_due_emails(now) == 0
    assert send_due_emails(now + email_queue.LEASE / 2) == 0
    assert mail.outbox == []
    # that worker died mid-send: once its lease is over the email is tried again
    assert send_due_emails(now + email_queue.LEASE + timedelta(seconds=1)) == 1
    assert [m.to for m in mail.outbox] == [[ann.email]]
    note = _note_of(ann)
    assert (note.email, note.email_attempts) == (Notification.Email.SENT, 2)


@pytest.mark.django_db(transaction=True)
def test_a_row_locked_elsewhere_is_skipped_not_waited_for(make_user):
    """A move superseding a notice holds its row: the sweep goes past it (without SKIP LOCKED
    it would wait for the lock and fail on lock_timeout)."""
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        notifications.notify(user, Notification.Kind.NUDGE, "your move", "/")
    locked, release = threading.Event(), threading.Event()

    def holder() -> None:
        try:
            with transaction.atomic():
                Notification.objects.select_for_update().get(user=ann)
                locked.set()
                release.wait(30)
        finally:
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert locked.wait(10)
        assert send_due_emails(due()) == 1
        assert [m.to for m in mail.outbox] == [[bob.email]]
        assert _note_of(ann).email == Notification.Email.PENDING
    finally:
        release.set()
        thread.join(10)
    assert send_due_emails(due()) == 1
    assert [m.to for m in mail.outbox] == [[bob.email], [ann.email]]


class GatedBackend(EmailBackend):
    """The test mailbox; a send to ``gated`` waits until the test opens the gate."""

    gated = ""
    entered = threading.Event()
    gate = threading.Event()

    def send_messages(self, messages):
        if any(GatedBackend.gated in m.to for m in messages):
            GatedBackend.entered.set()
            assert GatedBackend.gate.wait(30)
        return super().send_messages(messages)


@pytest.mark.django_db(transaction=True)
@override_settings(EMAIL_BACKEND=f"{__name__}.GatedBackend")
def test_one_sweep_at_a_time(make_user):
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        notifications.notify(user, Notification.Kind.NUDGE, "your move", "/")
    Notification.objects.filter(user=ann).update(created_at=timezone.now() - timedelta(minutes=1))
    GatedBackend.gated = ann.email
    GatedBackend.entered.clear()
    GatedBackend.gate.clear()
    results: list[int] = []

    def first_sweep() -> None:
        try:
            results.append(send_due_emails(due()))
        finally:
            connection.close()

    thread = threading.Thread(target=first_sweep)
    thread.start()
    try:
        assert GatedBackend.entered.wait(10)  # the first sweep is sending ann's email
        assert send_due_emails(due()) == 0  # a second one leaves at once: bob's is not its
        assert _note_of(bob).email == Notification.Email.PENDING
    finally:
        GatedBackend.gate.set()
        thread.join(20)
    assert results == [2]
    assert sorted(m.to[0] for m in mail.outbox) == [ann.email, bob.email]
    assert send_due_emails(due(5)) == 0, "and the lock is let go: nothing more is due"


class FlakyBackend(EmailBackend):
    """The test mailbox, failing for the addresses in ``failing`` as a mail server might:
    a temporary error, or a refusal of the address."""

    failing: dict[str, Exception] = {}

    def send_messages(self, messages):
        for message in messages:
            for address in message.to:
                if address in self.failing:
                    raise self.failing[address]
        return super().send_messages(messages)


@pytest.fixture
def flaky():
    with override_settings(EMAIL_BACKEND=f"{__name__}.FlakyBackend"):
        yield FlakyBackend.failing
    FlakyBackend.failing = {}


@pytest.mark.django_db
def test_a_mail_server_failure_costs_one_email_a_retry_not_the_others(make_user, flaky):
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        notifications.notify(user, Notification.Kind.NUDGE, f"{user.username}, your move", "/")
    flaky[ann.email] = smtplib.SMTPServerDisconnected("451 try again later")
    now = due()
    assert send_due_emails(now) == 2  # both tried
    assert [m.to for m in mail.outbox] == [[bob.email]]
    note = _note_of(ann)
    assert (note.email, note.email_attempts) == (Notification.Email.PENDING, 1)
    assert send_due_emails(now + timedelta(seconds=30)) == 0, "backing off for a minute"
    flaky.clear()
    assert send_due_emails(now + timedelta(seconds=61)) == 1
    assert [m.to for m in mail.outbox] == [[bob.email], [ann.email]]
    assert send_due_emails(now + timedelta(minutes=30)) == 0, "each sent once"


@pytest.mark.django_db
def test_a_server_down_for_hours_gets_tries_every_half_hour_and_the_email_goes(make_user, flaky):
    """Four tries in 21 minutes, then failed: a mail server down for half an hour lost every
    game email of its first minutes (outage review)."""
    ann = make_user("ann")
    notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    flaky[ann.email] = smtplib.SMTPServerDisconnected("451 try again later")
    at = due()
    tries = []
    for minutes in range(0, 150):
        if send_due_emails(at + timedelta(minutes=minutes, seconds=1)) == 0:
            continue
        tries.append(minutes)
    assert tries == [0, 1, 5, 21, 51, 81, 111, 141]  # back-off 1, 4, 16, then 30 minutes
    note = _note_of(ann)
    assert (note.email, note.email_attempts) == (Notification.Email.PENDING, 8)
    assert mail.outbox == []
    flaky.clear()  # the server is back
    assert send_due_emails(at + timedelta(minutes=171, seconds=1)) == 1
    assert [m.to for m in mail.outbox] == [[ann.email]]
    assert _note_of(ann).email == Notification.Email.SENT


@pytest.mark.django_db
def test_a_refused_address_is_not_tried_again(make_user, flaky):
    ann = make_user("ann")
    notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    flaky[ann.email] = smtplib.SMTPRecipientsRefused({ann.email: (550, b"no such user")})
    assert send_due_emails(due()) == 1
    assert send_due_emails(due(3600)) == 0
    note = _note_of(ann)
    assert (note.email, note.email_attempts) == (Notification.Email.FAILED, 1)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "refusal, tried_again",
    [
        (smtplib.SMTPDataError(554, b"5.7.1 content refused"), False),
        (smtplib.SMTPSenderRefused(550, b"sender refused", "site@fibbers.example"), False),
        (smtplib.SMTPDataError(451, b"4.3.0 try again later"), True),
    ],
)
def test_a_refusal_for_good_is_not_tried_again_a_passing_one_is(
    make_user, flaky, refusal, tried_again
):
    """With tries until the day ends, a 5xx answer would have been sent ~50 times (review)."""
    ann = make_user("ann")
    notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    flaky[ann.email] = refusal
    assert send_due_emails(due()) == 1
    note = _note_of(ann)
    expected = Notification.Email.PENDING if tried_again else Notification.Email.FAILED
    assert (note.email, note.email_attempts) == (expected, 1)


@pytest.mark.django_db
def test_an_email_still_queued_after_a_day_is_given_up(make_user):
    ann = make_user("ann")
    notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    late = _note_of(ann).created_at + email_queue.MAX_AGE + timedelta(minutes=1)
    assert send_due_emails(late) == 0
    assert mail.outbox == []
    assert _note_of(ann).email == Notification.Email.FAILED


@pytest.mark.django_db
def test_the_admin_lists_the_emails_that_could_not_be_sent(make_user, flaky, as_admin):
    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        notifications.notify(user, Notification.Kind.NUDGE, "your move", "/")
    flaky[ann.email] = smtplib.SMTPRecipientsRefused({ann.email: (550, b"no such user")})
    assert send_due_emails(due()) == 2
    url = reverse("admin:accounts_notification_changelist")
    page = as_admin.get(url, {"email__exact": Notification.Email.FAILED}).content.decode()
    assert ">ann<" in page and ">bob<" not in page
    assert (
        as_admin.get(url, {"email__exact": Notification.Email.SENT}).content.decode().count(">bob<")
    )
    note = _note_of(ann)
    change = reverse("admin:accounts_notification_change", args=[note.pk])
    as_admin.post(change, {"email": Notification.Email.PENDING})
    assert _note_of(ann).email == Notification.Email.FAILED, "read-only"


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
        assert "Auto-Submitted: auto-generated" in text
        assert f"References: <table-{game.pk}@" in text  # the table's emails, one thread
        note.refresh_from_db()
        started_notice.refresh_from_db()
        assert note.email == Notification.Email.SENT
        # the start's notice was about a turn the mover has played since: not sent
        assert started_notice.email == Notification.Email.SKIPPED
    finally:
        worker.stop()


@pytest.mark.django_db
def test_a_turns_email_says_when_it_is_due_on_the_players_clock(started):
    game = turn_game(started)
    owed = owed_user(game)
    type(owed).objects.filter(pk=owed.pk).update(time_zone="Asia/Tehran", language="en")
    send_due_emails(due())
    (sent,) = [m for m in mail.outbox if m.to == [owed.email]]
    game.refresh_from_db()
    local = timezone.localtime(game.deadline_at, zoneinfo.ZoneInfo("Asia/Tehran"))
    said = f"Due by {dateformat.format(local, settings.DATETIME_FORMAT)} (Iran — Tehran)."
    assert said in sent.body
    assert said in sent.alternatives[0][0], "the HTML part too"


@pytest.mark.django_db
@pytest.mark.parametrize("switched_to", ["fa", "en"])
def test_an_email_speaks_the_language_its_notice_was_written_in(started, switched_to):
    """A notice is stored text in the player's language of the time. A player who switches
    language before its email leaves gets one email in one language (the notice's), not a
    Persian greeting around an English notice."""
    from accounts import services as account_services

    game = turn_game(started)
    owed = owed_user(game)
    notes = Notification.objects.filter(user=owed, game_id=game.pk, email="pending")
    assert {note.language for note in notes} == {"en"}
    assert any(note.text.startswith("Your turn") for note in notes)
    account_services.profile_update(owed, language=switched_to)
    send_due_emails(due())
    (sent,) = [m for m in mail.outbox if m.to == [owed.email]]
    assert sent.body.startswith(f"Hello {owed.name},")
    assert "Open the table:" in sent.body and "سلام" not in sent.body
    html = sent.alternatives[0][0]
    assert '<html lang="en" dir="ltr">' in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "failure, left",
    [
        (smtplib.SMTPRecipientsRefused({"ann@example.com": (550, b"no such user")}), "failed"),
        (smtplib.SMTPServerDisconnected("451 try again later"), "digest"),
    ],
)
def test_one_digest_the_mail_server_refuses_leaves_the_others_going_out(
    make_user, flaky, failure, left
):
    """A mailbox gone (550) stopped the 07:00 run at its owner: every player after them got
    no digest that day, nor any day after while the address stayed. A refusal for good is
    recorded failed; a passing failure leaves the notices for the next 07:00."""
    from accounts.models import EmailPreference
    from accounts.tasks import send_daily_digests

    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        user.email_preference = EmailPreference.DIGEST
        user.save()
        notifications.notify(user, Notification.Kind.NUDGE, f"{user.username}, your move", "/")
    assert send_due_emails(due()) == 2  # both queued for the digest
    flaky[ann.email] = failure

    assert send_daily_digests(timezone.now().replace(hour=7, minute=0)) == 1

    assert [m.to for m in mail.outbox] == [[bob.email]]
    assert (_note_of(ann).email, _note_of(bob).email) == (left, Notification.Email.SENT)


def test_a_reminder_sent_hours_late_says_the_time_left_as_it_leaves(started, flaky):
    """The reminder's email said "due in 4 hours, 47 minutes", as written when the notice was
    made, however long the mail server had been down: sent three hours late, it was untrue."""
    game = turn_game(started)
    user = owed_user(game)
    flaky[user.email] = smtplib.SMTPServerDisconnected("451 try again later")
    reminded_at = game.remind_at + timedelta(seconds=1)
    assert notify.send_due_reminders(reminded_at) == 1
    reminder = Notification.objects.get(user=user, kind=Notification.Kind.REMINDER)
    assert reminder.text.endswith("is due in 4\xa0hours, 47\xa0minutes."), reminder.text
    assert send_due_emails(reminded_at + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY + 1))
    assert mail.outbox == []  # the mail server is down
    flaky.clear()  # and back three hours later
    assert send_due_emails(reminded_at + timedelta(hours=3))
    (email,) = [m for m in mail.outbox if "Reminder" in m.subject]
    html = email.alternatives[0][0]
    for words in (email.subject, email.body, html):
        assert "is due in 1\xa0hour, 47\xa0minutes." in words, words
        assert "4\xa0hours" not in words
    game.refresh_from_db()
    when = dateformat.format(timezone.localtime(game.deadline_at), settings.DATETIME_FORMAT)
    assert f"Due by {when}" in email.body, "the deadline itself stays"
    reminder.refresh_from_db()
    assert reminder.text.endswith("is due in 4\xa0hours, 47\xa0minutes."), "the notice as made"


def _said(caplog) -> list[tuple[str, bool]]:
    return [
        (r.getMessage(), bool(r.exc_info))
        for r in caplog.records
        if r.name == "accounts.email_queue"
    ]


@pytest.mark.django_db
def test_a_refused_address_is_logged_by_the_servers_answer_not_the_address(
    make_user, flaky, caplog
):
    """smtplib's refusal carries the address; the first try's traceback wrote it into the
    worker's log whole (the sign-up's refusal had been kept out of it already)."""
    ann = make_user("ann")
    notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    flaky[ann.email] = smtplib.SMTPRecipientsRefused({ann.email: (550, b"no such user")})

    with caplog.at_level(logging.WARNING):
        assert send_due_emails(due()) == 1

    assert ann.email not in caplog.text
    server = f"{__name__}.FlakyBackend"
    expected = f"could not email notification {_note_of(ann).pk} via {server} (try 1): "
    assert _said(caplog) == [(expected + "SMTPRecipientsRefused 550", False)]


@pytest.mark.django_db
def test_a_mail_server_out_of_reach_is_named_in_one_line_a_try(make_user, caplog):
    """What an operator acts on: which server, and what it did (refused the connection)."""
    ann = make_user("ann")
    notifications.notify(ann, Notification.Kind.NUDGE, "your move", "/")
    port = closed_port()
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    with (
        override_settings(EMAIL_BACKEND=smtp, EMAIL_HOST="127.0.0.1", EMAIL_PORT=port),
        caplog.at_level(logging.WARNING),
    ):
        assert send_due_emails(due()) == 1
        assert send_due_emails(due(61)) == 1

    pk = _note_of(ann).pk
    assert _said(caplog) == [
        (
            f"could not email notification {pk} via 127.0.0.1:{port} (try 1): ConnectionRefusedError",
            False,
        ),
        (
            f"could not email notification {pk} via 127.0.0.1:{port} (try 2): ConnectionRefusedError",
            False,
        ),
    ]
