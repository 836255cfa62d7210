"""The demo seed (make run) gives a moderator who can reach the admin: a superuser made with
``createsuperuser`` stopped at allauth's "Verify your email address" (social review)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.management.commands.seed_demo import DEMO_MODERATOR, DEMO_PASSWORD
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_the_demo_moderator_signs_in_and_opens_the_admin():
    call_command("seed_demo")
    call_command("seed_demo")  # safe to rerun
    client = Client()

    signed_in = client.post(
        reverse("account_login"), {"login": DEMO_MODERATOR, "password": DEMO_PASSWORD}
    )

    assert signed_in.status_code == 302, signed_in.content[:300]
    assert client.get("/admin/").status_code == 200


def test_the_demo_moderator_is_a_moderator_not_a_superuser(make_user):
    """The demo's moderator showed none of the limits real moderators have (admin review)."""
    from django.contrib.auth import get_user_model

    player = make_user("rude")
    call_command("seed_demo")
    moderator = get_user_model().objects.get(username=DEMO_MODERATOR)
    client = Client()
    client.force_login(moderator)

    assert moderator.is_staff and not moderator.is_superuser
    assert moderator.has_perm("games.change_report") and not moderator.has_perm("games.view_event")
    assert client.get(reverse("admin:games_report_changelist")).status_code == 200
    assert client.get(reverse("admin:games_chatmessage_changelist")).status_code == 200
    assert client.get(reverse("admin:accounts_user_delete", args=[player.pk])).status_code == 403
    assert client.get(reverse("admin:auth_group_changelist")).status_code == 403
    users = client.get(reverse("admin:accounts_user_changelist")).content.decode()
    assert "ban_users" in users and "delete_selected" not in users


def test_the_moderator_command_gives_and_takes_the_role(make_user):
    player = make_user("helper")

    call_command("moderator", "Helper")
    player.refresh_from_db()
    assert player.is_staff and player.groups.filter(name="Moderators").exists()
    assert type(player).objects.get(pk=player.pk).has_perm("accounts.change_user")

    call_command("moderator", "helper", "--remove")
    player.refresh_from_db()
    assert not player.is_staff and not player.groups.exists()


def test_demo_data_is_refused_where_it_is_not_allowed(settings):
    """The demo's password is public: a deploy review ran seed_demo under the production
    settings and got players and a moderator anyone could sign in as."""
    from django.core.management.base import CommandError

    settings.DEMO_DATA_ALLOWED = False
    for command in ("seed_demo", "seed_demo_games"):
        with pytest.raises(CommandError, match="public password"):
            call_command(command)
    assert not User.objects.exists()
