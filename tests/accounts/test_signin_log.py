"""A failed sign-in is one WARNING naming the login as typed and the client's address (the hop
TRUSTED_PROXY_COUNT trusts), never the password: an operator can see a brute force."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

PASSWORD = "a-long-test-password"
WRONG = "wrong-Secret-4711"
# the client's own claim first, then what the site's one proxy appended: the proxy's is the one
FORWARDED = "198.51.100.9, 203.0.113.7"

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("one_proxy")]


@pytest.fixture
def one_proxy(settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1  # production's default (config/settings/production)


def sign_in(client, login: str, password: str):
    return client.post(
        reverse("account_login"),
        {"login": login, "password": password},
        HTTP_X_FORWARDED_FOR=FORWARDED,
    )


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_wrong_password_is_logged_with_the_account_and_address(client, alice, caplog):
    caplog.set_level(logging.INFO)

    assert sign_in(client, "alice", WRONG).status_code == 200

    assert warnings(caplog) == ["sign-in failed for 'alice' from 203.0.113.7"]
    assert WRONG not in caplog.text


def test_an_unknown_address_is_logged_as_typed(client, alice, caplog):
    assert sign_in(client, "Nobody@Example.com", WRONG).status_code == 200

    assert warnings(caplog) == ["sign-in failed for 'Nobody@Example.com' from 203.0.113.7"]
    assert WRONG not in caplog.text


def test_attempts_the_limit_refuses_are_logged_too(client, alice, caplog):
    for _attempt in range(5):  # allauth's login_failed: 5 a key in 5 minutes
        sign_in(client, "alice", WRONG)
    caplog.clear()

    response = sign_in(client, "alice", WRONG + "!")

    assert "Too many failed login attempts" in response.content.decode()
    assert warnings(caplog) == [
        "sign-in refused (too many failed attempts) for 'alice' from 203.0.113.7"
    ]
    assert WRONG not in caplog.text


def test_a_right_password_logs_no_warning(client, alice, caplog):
    assert sign_in(client, "alice", PASSWORD).status_code == 302

    assert warnings(caplog) == []


def test_a_signed_in_players_wrong_password_is_a_password_check(client, alice, caplog):
    client.force_login(alice)

    response = client.post(
        reverse("account_reauthenticate"), {"password": WRONG}, HTTP_X_FORWARDED_FOR=FORWARDED
    )

    assert response.status_code == 200  # the form again, with its error
    assert warnings(caplog) == ["password check failed for 'alice' from 203.0.113.7"]
    assert WRONG not in caplog.text
