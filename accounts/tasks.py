"""Celery: game emails and pushes, sent by the worker and never inside a request."""

from __future__ import annotations

import logging
import smtplib
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import ngettext

from accounts import email_queue, mailing, notifications, push
from accounts.models import Notification, User

log = logging.getLogger(__name__)

DIGEST_HOUR = 7  # in each player's own time zone


def local_time(user: User, now: datetime) -> datetime:
    return now.astimezone(mailing.user_zone(user))


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=50, time_limit=60)
def send_notification_push(notification_id: int) -> str:
    """On the ``email`` queue (config.settings routes accounts.tasks there)."""
    return push.send_notification(notification_id)


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=50, time_limit=60)
def send_notification_email(notification_id: int) -> str:
    """One notice's email now, whatever its age: "send", "digest", "skip", or "done" when it
    is not to be taken (handled already, backing off, or another worker's). Kept for the tasks
    queued before the sweep (accounts.email_queue) took over."""
    now = timezone.now()
    note = email_queue.claim(notification_id, now)
    if note is None:
        return "done"
    return email_queue.deliver(note, now)


@shared_task(
    acks_late=True,
    ignore_result=True,
    soft_time_limit=email_queue.SWEEP_BUDGET_SECONDS + 20,
    time_limit=email_queue.SWEEP_BUDGET_SECONDS + 30,
)
def send_due_emails(now: datetime | None = None) -> int:
    """Beat, every EMAIL_SWEEP_SECONDS: the notices' due emails (accounts.email_queue), and
    the pushes whose task was lost queued again."""
    notifications.requeue_lost_pushes(now or timezone.now())
    return email_queue.sweep(now)


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=540, time_limit=600)
def send_daily_digests(now: datetime | None = None) -> int:
    """Hourly: one email to each player for whom it is about 07:00, with everything queued
    for their digest; each note goes out once."""
    now = now or timezone.now()
    sent = 0
    users = User.objects.filter(notifications__email=Notification.Email.DIGEST).distinct()
    for user in users:
        if local_time(user, now).hour != DIGEST_HOUR:
            continue
        # one player's digest at a time: a mail server's refusal of one address (a mailbox
        # gone) stopped the run there, and nobody after them got a digest that day
        try:
            with transaction.atomic():
                notes = list(
                    Notification.objects.select_for_update()
                    .filter(user=user, email=Notification.Email.DIGEST)
                    .order_by("created_at")
                )
                if not notes:
                    continue
                # what still holds at 07:00: a turn taken since, a window long closed, a notice
                # read in the app are dropped (each was judged once, a minute after it was made)
                standing = notifications.notices_standing(notes)
                # and what the player still wants: nothing once unsubscribed (one click on
                # yesterday's digest), no reminder once reminders by email are off
                standing = [n for n in standing if notifications.email_wanted(user, n.kind)]
                gone = [n.pk for n in notes if n not in standing]
                notes = standing
                Notification.objects.filter(pk__in=gone).update(email=Notification.Email.SKIPPED)
                if not notes:
                    continue
                # an address and an account in use: email_wanted kept no notice otherwise
                with translation.override(user.language or settings.LANGUAGE_CODE):
                    subject = ngettext(
                        "%(n)d update from your tables",
                        "%(n)d updates from your tables",
                        len(notes),
                    ) % {"n": len(notes)}
                # when each wait is due, as it stands now: a reminder's "due in …" was
                # written when it was made, up to a day before, and is said again for now
                deadlines = _deadlines(notes)
                mailing.send(
                    user,
                    subject,
                    "digest",
                    {
                        "notes": notes,
                        "texts": notifications.email_texts(notes, deadlines, timezone.now()),
                        "urls": {n.pk: mailing.absolute(n.url) for n in notes},
                        "deadlines": deadlines,
                        "since": timezone.now() - timedelta(days=1),
                    },
                )
                sent += 1
                Notification.objects.filter(pk__in=[n.pk for n in notes]).update(
                    email=Notification.Email.SENT, emailed_at=timezone.now()
                )
        except (smtplib.SMTPException, OSError) as exc:  # the mail server's answer
            if email_queue.permanent(exc):  # refused for good: not tried every morning
                Notification.objects.filter(user=user, email=Notification.Email.DIGEST).update(
                    email=Notification.Email.FAILED
                )
            # a passing failure leaves the notices queued for the next 07:00
            log.warning(
                "digest of player %s not sent via %s: %s",
                user.pk,
                mailing.mail_server(),
                mailing.what_failed(exc),
            )
    return sent


def _deadlines(notes: list[Notification]) -> dict[int, Any]:
    """When the wait each notice is about is due, as it stands now: one query for the digest."""
    games = {n.pk: n.game_id for n in notes if n.wait_seq is not None and n.game_id is not None}
    due = notifications.wait_deadlines(set(games.values()))
    return {pk: due.get(game_id) for pk, game_id in games.items()}


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=300, time_limit=330)
def prune_notifications() -> int:
    """Beat, daily, on the deadlines queue (config.settings): old notifications go."""
    return notifications.prune()
