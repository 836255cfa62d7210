"""A refused form and a spent limit answer in the site's own page and the reader's language
(a deploy review): the CSRF failure was Django's English page pointing at DEBUG=True, and
allauth's limits answered a bare English "429 Too Many Requests". The address-change limit
(1 a minute) was set under a key allauth does not read, so 10 a minute went out."""

from __future__ import annotations

import logging

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.live_server import closed_port

pytestmark = pytest.mark.django_db


def test_a_form_without_its_token_gets_the_sites_page_in_the_readers_language(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"

    response = client.post(reverse("profile"), {"display_name": "Queen"})

    page = response.content.decode()
    assert response.status_code == 403
    assert 'dir="rtl"' in page and "DEBUG" not in page and "CSRF" not in page
    assert "This form has expired" not in page, "said in Persian"
    alice.refresh_from_db()
    assert alice.display_name == ""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client.post(reverse("profile"), {"display_name": "Queen"}).content.decode()
    assert "This form has expired" in english and "reload the page" in english
    assert "Go to my games" in english, "the page knows who reads it"


def test_a_second_address_change_within_a_minute_is_refused_on_the_sites_page(alice):
    client = Client()
    client.force_login(alice)
    add = reverse("account_email")

    first = client.post(add, {"email": "first@example.com", "action_add": ""})
    second = client.post(add, {"email": "second@example.com", "action_add": ""})

    assert first.status_code == 302
    assert second.status_code == 429
    page = second.content.decode()
    assert "Too many tries" in page and "Wait a few minutes" in page
    assert "<nav" in page, "the site's layout"
    assert [m.to for m in mail.outbox] == [["first@example.com"]]


def test_a_mail_server_that_is_down_leaves_sign_up_standing_and_says_so(client, settings, caplog):
    """allauth mails while the visitor waits: a refused or absent mail server answered 500,
    and the refusal (the address in it) went to the log."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", closed_port()
    settings.EMAIL_TIMEOUT = 5

    with caplog.at_level(logging.WARNING):
        response = client.post(
            reverse("account_signup"),
            {
                "username": "dora",
                "email": "dora.secret@example.com",
                "password1": "a-long-test-password",
                "password2": "a-long-test-password",
            },
            follow=True,
        )

    assert response.status_code == 200
    assert "We could not send you the email just now" in response.content.decode()
    assert "Confirmation email sent" not in response.content.decode()  # said both before
    assert User.objects.filter(username="dora").exists(), "the account stands; mail again later"
    assert "dora.secret" not in caplog.text
    # which server, and what it did: what the operator acts on
    said = [r.getMessage() for r in caplog.records if r.name == "accounts.adapters"]
    assert said == [
        f"account email account/email/email_confirmation_signup not sent via "
        f"{settings.EMAIL_HOST}:{settings.EMAIL_PORT}: ConnectionRefusedError"
    ]
