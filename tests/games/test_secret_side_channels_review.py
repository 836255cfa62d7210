"""A review of the admin's side channel fix (accounts/admin.py NotificationAdmin): what else
in the notices tells staff without the event log who answered a secret window."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from games import services
from games.models import Game
from games.services import notify
from tests.games.helpers import seat_users, to_the_show_of_hands

pytestmark = pytest.mark.django_db


def test_a_windows_reminder_does_not_tell_staff_who_had_not_answered(started, make_user):
    """An Imperador show of hands (secret answers) at the daily pace: one asked seat answers,
    the other does not; at 80% of the window's time the reminder goes to the seat the window
    still waits on. The admin's notices listed that reminder (who, which game, when) to staff
    who may not read the event log: the silent seat named, as the email state named it."""
    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    answering, silent = waiting.seats[0], waiting.seats[1]
    game.refresh_from_db()
    services.act(
        users[answering], game.pk, game.version_for(answering), {"type": "hand", "choice": "down"}
    )
    game = Game.objects.get(pk=game.pk)
    assert game.wait_window == "hands" and game.remind_at is not None
    assert notify.send_due_reminders(game.remind_at + timedelta(seconds=1)) == 1
    reminded = Notification.objects.filter(game_id=game.pk, kind=Notification.Kind.REMINDER)
    assert [n.user_id for n in reminded] == [users[silent].pk], "what the admin must not show"

    staff = make_user("helper", is_staff=True)
    staff.user_permissions.add(
        Permission.objects.get(codename="view_game"),
        Permission.objects.get(codename="view_notification"),
    )
    client = Client()
    client.force_login(staff)
    listed = client.get(
        reverse("admin:accounts_notification_changelist"), {"kind__exact": "reminder"}
    )
    assert listed.status_code == 200
    page = listed.content.decode()
    assert users[silent].username not in page, "the seat that had not answered, named"
    note = reminded.get()
    opened = client.get(reverse("admin:accounts_notification_change", args=[note.pk]))
    assert opened.status_code == 404 or users[silent].username not in opened.content.decode()
