"""``manage.py moderator NAME [--remove]``: give a player the moderators' role, or take it."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.moderators import GROUP, make_moderator, unmake_moderator


class Command(BaseCommand):
    help = "Make a player a moderator (staff, in the Moderators group), or --remove the role."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("username")
        parser.add_argument("--remove", action="store_true", help="take the role back")

    def handle(self, *args: Any, username: str, remove: bool, **options: Any) -> None:
        user = User.objects.filter(username__iexact=username).first()
        if user is None:
            raise CommandError(f"No player is called {username!r}.")
        if remove:
            unmake_moderator(user)
            self.stdout.write(f"{user.username} is no longer in {GROUP}.")
        else:
            make_moderator(user)
            self.stdout.write(
                f"{user.username} is a moderator: signs in at /admin/ with their own password."
            )
