"""Two visitors signing up at the same moment with the same username (in any case) or the same
email address: the form checks each against the accounts that exist, and neither exists yet
when both are checked. One account is made; the other visitor hears what they would have
heard a moment later (the name is taken; for an address, allauth's usual answer)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from accounts.adapters import AccountAdapter
from accounts.models import User
from tests.lock_waits import until_queued

PASSWORD = "a-long-test-password"


def _sign_up(username: str, email: str) -> Any:
    return Client().post(
        "/accounts/signup/",
        {
            "email": email,
            "username": username,
            "password1": PASSWORD,
            "password2": PASSWORD,
            "time_zone": "UTC",
        },
    )


def _cross_sign_ups(monkeypatch: pytest.MonkeyPatch, second: tuple[str, str]) -> dict[str, Any]:
    """The first sign-up (zed, zed@example.com) is checked and stops just before its account
    is written; the second is checked meanwhile (nothing taken yet), then the first writes."""
    paused, go = threading.Event(), threading.Event()
    real = AccountAdapter.save_user

    def save_user(self: AccountAdapter, *args: Any, **kwargs: Any) -> Any:
        if threading.current_thread().name == "first":
            paused.set()
            assert go.wait(10)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(AccountAdapter, "save_user", save_user)
    answers: dict[str, Any] = {}

    def run(name: str, username: str, email: str) -> None:
        try:
            answers[name] = _sign_up(username, email)
        finally:
            connection.close()

    first = threading.Thread(target=run, args=("first", "zed", "zed@example.com"), name="first")
    first.start()
    assert paused.wait(10)
    other = threading.Thread(target=run, args=("second", *second), name="second")
    other.start()
    until_queued(other, polls=60)  # the second sign-up done, or waiting for the first
    go.set()
    first.join(30)
    other.join(30)
    return answers


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "second",
    [("Zed", "other@example.com"), ("amy", "zed@example.com")],
    ids=["same name", "same address"],
)
def test_two_sign_ups_crossing_make_one_account(monkeypatch, second):
    answers = _cross_sign_ups(monkeypatch, second)

    assert answers["first"].status_code == 302
    assert list(User.objects.values_list("username", "email")) == [("zed", "zed@example.com")]
    username, _email = second
    if username == "Zed":
        refused = answers["second"]
        assert refused.status_code == 200
        assert refused.context["form"].errors["username"] == [
            "A user with that username already exists."
        ]
    else:  # allauth's answer to an address in use: "check your email", with nothing made
        assert answers["second"].status_code == 302


@pytest.mark.django_db(transaction=True)
def test_two_sign_ups_with_one_address_crossing_without_mandatory_verification(
    monkeypatch, settings
):
    """A site that does not require a confirmed address (ACCOUNT_EMAIL_VERIFICATION=optional)
    says an address is in use outright: the second sign-up, checked again under the lock,
    hears it on the form, as it would have a moment later (not a server error)."""
    settings.ACCOUNT_EMAIL_VERIFICATION = "optional"

    answers = _cross_sign_ups(monkeypatch, ("amy", "zed@example.com"))

    assert answers["first"].status_code == 302
    assert list(User.objects.values_list("username", "email")) == [("zed", "zed@example.com")]
    refused = answers["second"]
    assert refused.status_code == 200
    assert refused.context["form"].errors["email"] == [
        "A user is already registered with this email address."
    ]
