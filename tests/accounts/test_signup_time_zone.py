"""A new player's time zone is their device's (static/js/zone.js fills the sign-up form's
hidden field; tests/journeys/test_cockroach_poker.py signs up from three zones in Chromium)."""

from __future__ import annotations

import pytest

from accounts.models import User


@pytest.mark.django_db
@pytest.mark.parametrize(
    "sent, kept",
    [
        ("Asia/Tehran", "Asia/Tehran"),
        ("Mars/Olympus", "UTC"),
        # Chromium reports India's zone by its old name; the profile lists the current one
        ("Asia/Calcutta", "Asia/Kolkata"),
        ("US/Eastern", "America/New_York"),
    ],
)
def test_a_sign_up_keeps_the_devices_time_zone(client, sent, kept):
    form = client.get("/accounts/signup/").content.decode()
    assert 'type="hidden" name="time_zone"' in form and "js/zone.js" in form
    client.post(
        "/accounts/signup/",
        {
            "email": "zed@example.com",
            "username": "zed",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
            "time_zone": sent,
        },
    )
    assert User.objects.get(username="zed").time_zone == kept


@pytest.mark.django_db
def test_a_sign_up_keeps_the_language_it_was_made_in(client, settings):
    """A visitor who chose Persian and signed up got English notices and emails, and English
    pages on any other device (mail review)."""
    client.post("/i18n/setlang/", {"language": "fa", "next": "/"})
    client.post(
        "/accounts/signup/",
        {
            "email": "farid@example.com",
            "username": "farid",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
            "time_zone": "Asia/Tehran",
        },
    )
    farid = User.objects.get(username="farid")
    assert farid.language == "fa"
    # on a device that never chose: Persian, from the account
    other = type(client)()
    other.force_login(farid)
    assert 'lang="fa"' in other.get("/games/").content.decode()
