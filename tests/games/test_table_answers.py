"""A table waits on people over days: its creator hears who took a seat or declined (and
that it is full, so they start it), an invitation and a game's end are emailed, and once the
table starts its creator's notices of who sat down are done with."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts import email_queue
from accounts.models import Notification
from accounts.services import friendship_create
from games import services
from tests.games.helpers import play_to_the_end

pytestmark = pytest.mark.django_db


def table_notices(user) -> list[str]:
    rows = Notification.objects.filter(user=user, kind=Notification.Kind.TABLE).order_by("pk")
    return [n.text for n in rows]


def sweep(settings) -> None:
    email_queue.sweep(timezone.now() + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY + 5))


def test_the_creator_hears_each_answer_and_when_the_table_is_full(trio, make_user, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice, bob, carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "dave"])
    sweep(settings)  # the invitations are emailed
    assert sorted(m.to[0] for m in mail.outbox) == sorted([bob.email, dave.email])
    assert all(f"/games/{game.pk}/" in m.body for m in mail.outbox)

    services.game_join(bob, game.pk)
    services.invitation_decline(dave, game.pk)
    services.game_invite(alice, game.pk, ["carol"])
    services.game_join(carol, game.pk)
    assert table_notices(alice) == [
        f"bob took a seat at your table of Imperador #{game.pk}.",
        f"dave declined your invitation to Imperador #{game.pk}.",
        f"carol took the last seat at your table of Imperador #{game.pk}: start the game "
        "when you are ready.",
    ]
    assert table_notices(bob) == [] and table_notices(carol) == []

    mail.outbox.clear()
    services.game_start(alice, game.pk)
    sweep(settings)
    told = [m.subject for m in mail.outbox if m.to == [alice.email]]
    assert not [s for s in told if "seat" in s], f"the table started: moot now ({told})"
    assert not Notification.objects.filter(
        user=alice, kind=Notification.Kind.TABLE, read_at__isnull=True
    ).exists()


def test_the_end_of_a_game_is_emailed(trio, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    services.game_start(alice, game.pk)
    play_to_the_end(game)
    Notification.objects.exclude(kind=Notification.Kind.GAME_FINISHED).update(
        email=Notification.Email.SKIPPED
    )  # the turns' emails are another test's; the gap of an hour would hold this one back
    mail.outbox.clear()
    sweep(settings)
    assert sorted(m.to[0] for m in mail.outbox) == sorted([alice.email, bob.email, carol.email])
