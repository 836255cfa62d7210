"""The notices' emails, queued in the notification rows themselves.

A notice that may email is stored with ``email`` pending; no task is published with it. The
worker's beat sweep (``sweep``, every EMAIL_SWEEP_SECONDS) takes each once it is
NOTIFICATION_EMAIL_DELAY old (the missed-message pattern: read in the meantime, or its wait
over, it is not sent), oldest first. A broker that is down loses no email.

Each email is first *claimed*: marked ``sending`` with a lease, committed at once, so the mail
server is talked to with no row lock held (a move superseding the notice never waits on SMTP)
and a second sweep never sends it too. The outcome is then recorded: sent, skipped, digest; a
failure puts it back with a back-off (1, 4, 16, then every 30 minutes: a mail server down for
an hour loses no email), and a refusal for good (``permanent``) or MAX_AGE in the queue makes
it ``failed``. Each try still asks whether the notice stands (a turn taken since is not mailed
late). A worker that died mid-send leaves a claim whose lease runs out: the email is tried
again (it may then arrive twice; nothing else sends twice).
"""

from __future__ import annotations

import logging
import smtplib
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts import mailing, notifications
from accounts.models import Notification

log = logging.getLogger(__name__)

Email = Notification.Email
MAX_RETRY_GAP = timedelta(minutes=30)
MAX_AGE = timedelta(days=1)  # a turn email a day late says nothing worth sending
LEASE = timedelta(minutes=5)  # longer than any send (the task's time limit is 60 s)
SWEEP_BATCH = 500
SWEEP_BUDGET_SECONDS = 30  # then the next sweep goes on (a slow mail server)
SWEEP_LOCK = "email-queue:sweep"  # one sweep at a time, across workers


def retry_delay(attempts: int) -> timedelta:
    return min(timedelta(minutes=4 ** min(attempts - 1, 3)), MAX_RETRY_GAP)


def _takeable(now: datetime) -> Q:
    """Pending and not backing off, or claimed by a worker whose lease ran out."""
    return Q(email=Email.PENDING) & (
        Q(email_retry_at__isnull=True) | Q(email_retry_at__lte=now)
    ) | Q(email=Email.SENDING, email_retry_at__lte=now)


def due_ids(now: datetime, limit: int = SWEEP_BATCH) -> list[int]:
    """The emails to try now, oldest first (index notification_email_queue)."""
    cutoff = now - timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY)
    return list(
        Notification.objects.filter(
            _takeable(now), created_at__lte=cutoff, created_at__gt=now - MAX_AGE
        )
        .order_by("created_at")
        .values_list("pk", flat=True)[:limit]
    )


def claim(notification_id: int, now: datetime) -> Notification | None:
    """This worker's, for LEASE; None when it is not to be taken now (sent, backing off, or
    another worker's). A row locked elsewhere is skipped, not waited for."""
    with transaction.atomic():
        note = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user")
            .filter(_takeable(now), pk=notification_id)
            .first()
        )
        if note is None:
            return None
        note.email = Email.SENDING
        note.email_attempts += 1
        note.email_retry_at = now + LEASE
        note.save(update_fields=["email", "email_attempts", "email_retry_at"])
    return note


def deliver(note: Notification, now: datetime) -> str:
    """Decides and, if so, sends one claimed email; records the outcome while the claim is
    still this one's. Returns "send", "digest" or "skip"; re-raises a send's failure."""
    # a wait's notice says when the wait is due (the email stands only while it is current,
    # and goes only with time left to act on it)
    deadline = (
        notifications.wait_deadline(note.game_id)
        if note.wait_seq is not None and note.game_id is not None
        else None
    )
    decision = notifications.email_decision(note, deadline)
    if decision != "send":
        _settle(note, Email.DIGEST if decision == "digest" else Email.SKIPPED)
        return decision
    text = notifications.email_text(note, deadline, now)
    try:
        mailing.send(
            note.user,
            text,
            "notification",
            {"note": note, "text": text, "url": mailing.absolute(note.url), "deadline": deadline},
            # the notice is stored text, written in the player's language of the time: the
            # email around it speaks that one too, not a language chosen since (one email,
            # one language)
            language=note.language,
            game_id=note.game_id,
        )
    except Exception as exc:
        if permanent(exc):
            _settle(note, Email.FAILED, email_retry_at=None)
        else:
            _settle(note, Email.PENDING, email_retry_at=now + retry_delay(note.email_attempts))
        raise
    _settle(note, Email.SENT, emailed_at=timezone.now(), email_retry_at=None)
    return decision


def permanent(exc: BaseException) -> bool:
    """A refusal that trying again will not change: the address refused, or any 5xx answer
    (554 "content refused", 550 sender refused). A 4xx, a dropped connection or a timeout is
    worth the next try."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        return True
    return isinstance(exc, smtplib.SMTPResponseException) and exc.smtp_code >= 500


def _settle(note: Notification, state: str, **fields: Any) -> None:
    Notification.objects.filter(pk=note.pk, email=Email.SENDING).update(email=state, **fields)


def give_up_stale(now: datetime) -> int:
    """Rows still queued after MAX_AGE are marked failed (the sweep no longer looks at them)."""
    given_up = Notification.objects.filter(
        email__in=[Email.PENDING, Email.SENDING], created_at__lte=now - MAX_AGE
    ).update(email=Email.FAILED, email_retry_at=None)
    if given_up:
        log.error("gave up %s game emails still unsent after %s", given_up, MAX_AGE)
    return given_up


def sweep(now: datetime | None = None) -> int:
    """Every due email, each claimed, decided and recorded on its own (one failure costs one
    try of one email). Returns how many it took (sent, skipped, put in the digest, or a failed
    try); 0 at once if another sweep is at work."""
    if not cache.add(SWEEP_LOCK, True, SWEEP_BUDGET_SECONDS + 60):
        return 0
    try:
        now = now or timezone.now()
        give_up_stale(now)
        started = time.monotonic()
        taken = 0
        for notification_id in due_ids(now):
            if time.monotonic() - started > SWEEP_BUDGET_SECONDS:
                break
            note = claim(notification_id, now)
            if note is None:
                continue
            taken += 1
            try:
                deliver(note, now)
            except (
                mailing.MAIL_ERRORS
            ) as exc:  # recorded by deliver: tried again after its back-off
                # the server and its answer, one line a try: the first try's traceback had the
                # refused address in it (smtplib's refusal carries it) and said nothing more
                log.warning(
                    "could not email notification %s via %s (try %s): %s",
                    notification_id,
                    mailing.mail_server(),
                    note.email_attempts,
                    mailing.what_failed(exc),
                )
            except Exception as exc:  # a fault of ours: recorded by deliver as well
                if note.email_attempts == 1:
                    log.exception("could not email notification %s", notification_id)
                else:  # a mail server down for hours: one line a try, the traceback once
                    log.warning(
                        "could not email notification %s (try %s): %r",
                        notification_id,
                        note.email_attempts,
                        exc,
                    )
        return taken
    finally:
        cache.delete(SWEEP_LOCK)
