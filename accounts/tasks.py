"""Celery: game emails and pushes, sent by the worker and never inside a request."""

from __future__ import annotations

import logging
import time
import zoneinfo
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import ngettext

from accounts import notifications, push
from accounts.models import Notification, User

log = logging.getLogger(__name__)

DIGEST_HOUR = 7  # in each player's own time zone
EMAIL_SWEEP_BATCH = 500
EMAIL_SWEEP_BUDGET_SECONDS = 30


def local_time(user: User, now: datetime) -> datetime:
    try:
        zone = zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return now.astimezone(zone)


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=50, time_limit=60)
def send_notification_push(notification_id: int) -> str:
    """On the ``email`` queue (config.settings routes accounts.tasks there)."""
    return push.send_notification(notification_id)


def _absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _send(user: User, subject: str, template: str, context: dict) -> None:
    token = notifications.unsubscribe_token(user)
    unsubscribe = _absolute(reverse("unsubscribe", args=[token]))
    context = {
        **context,
        "user": user,
        "preferences_url": _absolute(reverse("profile")),
        "unsubscribe_url": unsubscribe,
        "site_name": settings.SITE_NAME,
    }
    with translation.override(user.language or settings.LANGUAGE_CODE):
        text = render_to_string(f"email/{template}.txt", context)
        html = render_to_string(f"email/{template}.html", context)
    message = EmailMultiAlternatives(
        subject=f"[{settings.SITE_NAME}] {subject}",
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    message.send()


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=50, time_limit=60)
def send_notification_email(notification_id: int) -> str:
    """One notice's email: "send", "digest", "skip", or "done" when it is no longer pending
    (handled already, or being handled by another worker right now)."""
    with transaction.atomic():
        note = (
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user")
            .filter(pk=notification_id, email=Notification.Email.PENDING)
            .first()
        )
        if note is None:
            return "done"  # a redelivered task, or a second sweep, does nothing
        decision = notifications.email_decision(note)
        if decision == "digest":
            note.email = Notification.Email.DIGEST
        elif decision == "skip":
            note.email = Notification.Email.SKIPPED
        else:
            _send(note.user, note.text, "notification", {"note": note, "url": _absolute(note.url)})
            note.email = Notification.Email.SENT
            note.emailed_at = timezone.now()
        note.save(update_fields=["email", "emailed_at"])
    return decision


@shared_task(
    acks_late=True,
    ignore_result=True,
    soft_time_limit=EMAIL_SWEEP_BUDGET_SECONDS + 20,
    time_limit=EMAIL_SWEEP_BUDGET_SECONDS + 30,
)
def send_due_emails(now: datetime | None = None) -> int:
    """Beat, every EMAIL_SWEEP_SECONDS: every pending email that is NOTIFICATION_EMAIL_DELAY
    old, oldest first, each in its own transaction (one failure costs one email). Stops after
    EMAIL_SWEEP_BUDGET_SECONDS (a slow mail server): the next sweep goes on. Returns how many
    notices it settled."""
    started = time.monotonic()
    settled = 0
    for notification_id in notifications.due_email_ids(now or timezone.now(), EMAIL_SWEEP_BATCH):
        if time.monotonic() - started > EMAIL_SWEEP_BUDGET_SECONDS:
            break
        try:
            if send_notification_email(notification_id) != "done":
                settled += 1
        except Exception:  # the mail server failed: the others still go, this one stays
            # pending and the next sweep tries again (until EMAIL_MAX_AGE)
            log.exception("could not email notification %s", notification_id)
    return settled


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
        with transaction.atomic():
            notes = list(
                Notification.objects.select_for_update()
                .filter(user=user, email=Notification.Email.DIGEST)
                .order_by("created_at")
            )
            if not notes:
                continue
            if user.email and user.is_active:
                with translation.override(user.language or settings.LANGUAGE_CODE):
                    subject = ngettext(
                        "%(n)d update from your tables",
                        "%(n)d updates from your tables",
                        len(notes),
                    ) % {"n": len(notes)}
                _send(
                    user,
                    subject,
                    "digest",
                    {
                        "notes": notes,
                        "urls": {n.pk: _absolute(n.url) for n in notes},
                        "since": timezone.now() - timedelta(days=1),
                    },
                )
                sent += 1
            Notification.objects.filter(pk__in=[n.pk for n in notes]).update(
                email=Notification.Email.SENT, emailed_at=timezone.now()
            )
    return sent


@shared_task(acks_late=True, ignore_result=True, soft_time_limit=300, time_limit=330)
def prune_notifications() -> int:
    """Beat, daily, on the deadlines queue (config.settings): old notifications go."""
    return notifications.prune()
