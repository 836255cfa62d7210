"""Notifications are pruned after their retention; the task runs on the deadlines queue."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts import notifications
from accounts.models import Notification
from config.celery_app import app


@pytest.mark.django_db
def test_old_notifications_are_pruned_and_recent_ones_kept(alice):
    now = timezone.now()

    def note(days: float, read: bool) -> Notification:
        return Notification.objects.create(
            user=alice,
            kind=Notification.Kind.YOUR_TURN,
            text="t",
            created_at=now - timedelta(days=days),
            read_at=now if read else None,
        )

    keep = [note(1, True), note(1, False), note(settings.NOTIFICATION_RETENTION_DAYS + 1, False)]
    note(settings.NOTIFICATION_RETENTION_DAYS + 1, True)
    note(settings.NOTIFICATION_MAX_DAYS + 1, False)
    assert notifications.prune(now) == 2
    assert sorted(Notification.objects.values_list("pk", flat=True)) == sorted(n.pk for n in keep)


def test_the_prune_task_runs_on_the_deadlines_queue_daily():
    entry = settings.CELERY_BEAT_SCHEDULE["prune-notifications"]
    assert entry["task"] == "accounts.tasks.prune_notifications"
    route = app.amqp.router.route({}, entry["task"])
    assert route["queue"].name == "deadlines"
