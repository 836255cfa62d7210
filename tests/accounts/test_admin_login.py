"""The admin signs in through allauth: the same failed-login limit as the site, and TOTP."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

ADMIN_PASSWORD = "a-long-admin-password"


@pytest.fixture(autouse=True)
def _verified_admin(admin_user):
    # allauth's login wants a verified address (mandatory verification), staff included.
    EmailAddress.objects.create(
        user=admin_user, email=admin_user.email, verified=True, primary=True
    )


def admin_login(client: Client, password: str):
    return client.post(
        "/admin/login/?next=/admin/", {"login": "root", "password": password, "next": "/admin/"}
    )


def in_admin(client: Client) -> bool:
    return client.get("/admin/").status_code == 200


def test_the_admin_login_is_allauths_and_lets_staff_in(admin_user):
    client = Client()
    page = client.get("/admin/login/?next=/admin/")
    assert page.status_code == 200
    response = admin_login(client, ADMIN_PASSWORD)
    assert response.status_code == 302 and response.url == "/admin/"
    assert in_admin(client)


def test_20_wrong_admin_logins_lock_the_account_like_the_site_login(admin_user):
    client = Client()
    for _attempt in range(20):
        response = admin_login(client, "wrong-password")
        assert response.status_code in (200, 429)
    response = admin_login(client, ADMIN_PASSWORD)
    assert response.status_code != 302
    assert "Too many failed login attempts" in response.content.decode()
    assert not in_admin(client)
    # A fresh client (another cookie jar, same account) is locked out as well.
    assert admin_login(Client(), ADMIN_PASSWORD).status_code != 302


def test_a_signed_in_player_who_is_not_staff_is_refused_not_looped(alice):
    client = Client()
    client.force_login(alice)
    assert client.get("/admin/").status_code == 302
    refused = client.get("/admin/login/?next=/admin/")
    assert refused.status_code == 403
    # the site's own page, not a bare line of English: what this is, and a way back
    page = refused.content.decode()
    assert "This part of the site is for the moderators." in page
    assert f'href="{reverse("games:my_games")}"' in page and "<nav" in page


def test_production_requires_totp_for_superusers(admin_user, settings):
    settings.ADMIN_REQUIRE_MFA = True
    client = Client()
    client.force_login(admin_user)
    assert client.get("/admin/").status_code == 302
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302 and "/2fa/totp/activate/" in response.url
    TOTP.activate(admin_user, generate_totp_secret())
    assert in_admin(client)


def test_a_staff_login_with_totp_asks_for_the_code(admin_user):
    TOTP.activate(admin_user, generate_totp_secret())
    client = Client()
    response = admin_login(client, ADMIN_PASSWORD)
    assert response.status_code == 302 and "/2fa/authenticate/" in response.url
    assert not in_admin(client)


def test_a_wrong_second_factor_code_is_logged_with_the_account_and_address(admin_user, caplog):
    """Wrong TOTP codes (after the right password) left no line in the log (logs review)."""
    import logging

    TOTP.activate(admin_user, generate_totp_secret())
    client = Client()
    response = admin_login(client, ADMIN_PASSWORD)
    caplog.set_level(logging.INFO)
    refused = client.post(response.url, {"code": "000000"}, REMOTE_ADDR="203.0.113.5")
    assert refused.status_code == 200 and not in_admin(client)
    lines = [r.getMessage() for r in caplog.records if r.name == "accounts.signin_log"]
    assert lines == ["second-factor code failed for 'root' from 203.0.113.5"]
    assert "000000" not in caplog.text


def test_production_settings_force_bench_endpoints_off_and_mfa_on():
    import os
    import subprocess
    import sys

    code = (
        "import django;django.setup();from django.conf import settings;"
        "print(settings.BENCH_ENDPOINTS, settings.ADMIN_REQUIRE_MFA)"
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "x" * 50,
        "BENCH_ENDPOINTS": "1",
        "ALLOWED_HOSTS": "fibbers.example",
        "SITE_URL": "https://fibbers.example",
        "EMAIL_HOST": "smtp.fibbers.example",
        "DEFAULT_FROM_EMAIL": "noreply@fibbers.example",
    }
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True"]
