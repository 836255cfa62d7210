"""The demo seed (make run) gives a moderator who can reach the admin: a superuser made with
``createsuperuser`` stopped at allauth's "Verify your email address" (social review)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.management.commands.seed_demo import DEMO_MODERATOR, DEMO_PASSWORD

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
