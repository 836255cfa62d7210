"""Creates the demo players alice, bob and carol (friends with each other), and a demo
moderator, mod, who signs in to /admin/; safe to rerun."""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.moderators import make_moderator
from accounts.services import friendship_create

DEMO_PASSWORD = "fibbers-demo"
DEMO_MODERATOR = "mod"
DEMO_USERS = [
    ("alice", "Alice", "#c0392b"),
    ("bob", "Bob", "#1e8449"),
    ("carol", "Carol", "#8e44ad"),
]


def refuse_on_a_real_site() -> None:
    """The demo's password is printed in the README: its players and moderator must never be
    made on a site people use (a deploy review ran it under the production settings)."""
    if not settings.DEMO_DATA_ALLOWED:
        raise CommandError(
            "Demo data has a public password: not made with these settings (DEMO_DATA_ALLOWED)."
        )


class Command(BaseCommand):
    help = "Create demo players (alice, bob, carol) who are already friends."

    def handle(self, *args: object, **options: object) -> None:
        refuse_on_a_real_site()
        users = []
        for username, display, colour in DEMO_USERS:
            email = f"{username}@example.com"
            user, created = User.objects.get_or_create(
                username=username,
                defaults={"email": email, "display_name": display, "avatar_colour": colour},
            )
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            EmailAddress.objects.update_or_create(
                user=user, email=email, defaults={"verified": True, "primary": True}
            )
            users.append(user)
        for i, first in enumerate(users):
            for second in users[i + 1 :]:
                friendship_create(first, second)
        # The admin signs in through allauth, which wants a verified email first: a
        # superuser made with ``createsuperuser`` stopped at "Verify your email address".
        moderator, created = User.objects.get_or_create(
            username=DEMO_MODERATOR,
            defaults={
                "email": f"{DEMO_MODERATOR}@example.com",
                "display_name": "Mod",
            },
        )
        if created:
            moderator.set_password(DEMO_PASSWORD)
            moderator.save()
        # a moderator, not a superuser (earlier demos made one): the demo shows the limits
        # real moderators have
        if moderator.is_superuser:
            moderator.is_superuser = False
            moderator.save(update_fields=["is_superuser"])
        make_moderator(moderator)
        EmailAddress.objects.update_or_create(
            user=moderator,
            email=moderator.email,
            defaults={"verified": True, "primary": True},
        )
        names = ", ".join(u.username for u in users)
        self.stdout.write(f"Demo players: {names} — password: {DEMO_PASSWORD}")
        self.stdout.write(f"Demo moderator for /admin/: {DEMO_MODERATOR} — the same password")
