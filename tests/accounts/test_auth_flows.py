"""allauth flows end to end: signup, verification, login, password reset, email change, limits."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.contrib.sites.models import Site
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from tests.accounts.conftest import link_in

PASSWORD = "a-long-test-password"
NEW_PASSWORD = "another-long-password-42"

pytestmark = pytest.mark.django_db


def signup(client, username="dora", email="dora@example.com"):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def login(client, login, password=PASSWORD):
    return client.post(reverse("account_login"), {"login": login, "password": password})


def is_logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_signup_sends_a_verification_email_and_does_not_log_in(client):
    response = signup(client)

    assert response.status_code == 302
    assert response.url == reverse("account_email_verification_sent")
    assert not is_logged_in(client)
    user = User.objects.get(username="dora")
    assert not EmailAddress.objects.get(user=user).verified
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["dora@example.com"]
    # no out-of-office answer comes back to a machine's email
    assert mail.outbox[0].message()["Auto-Submitted"] == "auto-generated"


def test_signup_errors_are_tied_to_their_fields(client, alice, state):
    before = state()
    response = client.post(
        reverse("account_signup"),
        {"username": "alice", "email": "not-an-email", "password1": "x", "password2": "y"},
    )

    assert response.status_code == 200
    body = response.content.decode()
    assert 'class="site-header"' in body
    for field in ["email", "username", "password1"]:
        assert f'id="id_{field}_error"' in body
        assert re.search(f'id="id_{field}"', body)
        assert re.search(f'aria-describedby="[^"]*id_{field}_error"', body)
    assert state() == before
    assert not mail.outbox


def test_verification_email_names_the_site(client):
    signup(client)
    assert mail.outbox[0].subject.startswith("[Fibbers] ")
    assert "Fibbers" in mail.outbox[0].body
    assert "example.com!" not in mail.outbox[0].body


@pytest.mark.django_db(transaction=True)
def test_the_site_keeps_its_name_after_a_flush(client):
    """A flush empties the sites table and django.contrib.sites puts "example.com" back; the
    emails still name Fibbers (every transactional test flushes, so does a developer)."""
    call_command("flush", interactive=False, verbosity=0)
    assert Site.objects.get_current().name == "Fibbers"
    signup(client)
    assert "Fibbers" in mail.outbox[0].body
    assert "example.com" not in mail.outbox[0].body


def test_unverified_user_cannot_log_in(client):
    signup(client)
    client.logout()

    response = login(client, "dora")

    assert response.status_code == 302
    assert response.url == reverse("account_email_verification_sent")
    assert not is_logged_in(client)


def test_signup_verify_then_log_in(client):
    signup(client)
    confirm_url = link_in(mail.outbox[0].body, "/accounts/confirm-email/")

    page = client.get(confirm_url)
    assert page.status_code == 200
    assert b"dora@example.com" in page.content
    confirmed = client.post(confirm_url)
    assert confirmed.status_code == 302
    assert EmailAddress.objects.get(email="dora@example.com").verified

    client.logout()
    assert login(client, "dora", "wrong-password").status_code == 200
    assert not is_logged_in(client)
    response = login(client, "dora@example.com")
    assert response.status_code == 302
    assert response.url == reverse("games:my_games")  # issue 16: not the marketing page
    assert is_logged_in(client)
    assert client.session["_auth_user_id"] == str(User.objects.get(username="dora").pk)


def test_password_reset_end_to_end(client, alice):
    response = client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    reset_url = link_in(mail.outbox[0].body, "/accounts/password/reset/key/")

    form_page = client.get(reset_url, follow=True)
    assert form_page.status_code == 200
    set_password_url = form_page.redirect_chain[-1][0]
    done = client.post(set_password_url, {"password1": NEW_PASSWORD, "password2": NEW_PASSWORD})
    assert done.status_code == 302

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)
    assert not alice.check_password(PASSWORD)
    client.logout()
    assert login(client, "alice", PASSWORD).status_code == 200
    assert not is_logged_in(client)
    assert login(client, "alice", NEW_PASSWORD).status_code == 302
    assert is_logged_in(client)


def test_password_reset_for_unknown_email_sends_nothing_useful(client, alice):
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    # allauth mails an "unknown account" notice, never a reset link.
    assert all("/accounts/password/reset/key/" not in m.body for m in mail.outbox)
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_change_email_needs_verification_of_the_new_address(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("account_email"), {"action_add": "", "email": "alice.new@example.com"}
    )
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["alice.new@example.com"]
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"  # not until the new address is verified

    confirm_url = link_in(mail.outbox[0].body, "/accounts/confirm-email/")
    assert client.post(confirm_url).status_code == 302

    alice.refresh_from_db()
    assert alice.email == "alice.new@example.com"
    addresses = list(EmailAddress.objects.filter(user=alice).values_list("email", "primary"))
    assert addresses == [("alice.new@example.com", True)]


def test_failed_logins_are_rate_limited(client, alice):
    # allauth counts the failures in the default cache: this worker's own Redis database,
    # cleared before each test (tests/conftest.py). This test once kept a cache of its own in
    # database 14, the second xdist worker's: its clear() emptied that worker's channel groups
    # under a live socket test, whose pages then missed a move (CI runs of stop 31).
    for _attempt in range(5):
        response = login(client, "alice", "wrong-password")
        assert response.status_code == 200
        assert "Too many failed login attempts" not in response.content.decode()

    response = login(client, "alice", "wrong-password")
    assert "Too many failed login attempts" in response.content.decode()
    # Even the right password is refused while the limit holds.
    response = login(client, "alice", PASSWORD)
    assert response.status_code == 200
    assert "Too many failed login attempts" in response.content.decode()
    assert not is_logged_in(client)


@pytest.fixture
def hashes(monkeypatch):
    """How many times a password is hashed: the time a failed login takes."""
    from django.contrib.auth.hashers import MD5PasswordHasher

    count = [0]
    encode = MD5PasswordHasher.encode

    def counted(self, password, salt):
        count[0] += 1
        return encode(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "encode", counted)
    return count


def test_a_failed_login_takes_as_long_for_an_unknown_address_as_for_a_registered_one(
    client, alice, hashes
):
    """A wrong password for a registered address was hashed three times against two for an
    unknown address: the login page's timing told who has an account here."""
    cost = {}
    for typed in ("alice@example.com", "nobody@example.com", "alice", "nobody"):
        hashes[0] = 0
        assert login(client, typed, "wrong-password").status_code == 200
        cost[typed] = hashes[0]
    assert len(set(cost.values())) == 1 and cost["nobody"] >= 1, cost
    hashes[0] = 0
    assert login(client, "alice@example.com").status_code == 302  # the right one still works
    assert is_logged_in(client)


@pytest.mark.parametrize(
    "backend",
    [
        "django.contrib.auth.backends.ModelBackend",
        "allauth.account.auth_backends.AuthenticationBackend",
    ],
)
def test_a_session_signed_in_before_the_backend_changed_stays_signed_in(alice, backend):
    """Sessions keep the path of the backend that signed them in; Django drops one whose
    backend is no longer configured, so the release that changed it would have signed every
    player out."""
    from django.contrib.auth import BACKEND_SESSION_KEY
    from django.test import Client

    client = Client()
    client.force_login(alice, backend=backend)
    assert client.session[BACKEND_SESSION_KEY] == backend
    assert client.get(reverse("games:my_games")).status_code == 200
    assert client.session[BACKEND_SESSION_KEY] == "accounts.auth_backends.AuthenticationBackend"
    assert client.get(reverse("games:my_games")).status_code == 200


def test_a_banned_player_signing_in_is_told_the_account_is_suspended(client, make_user):
    from accounts.services import user_ban

    mod = make_user("mod", is_staff=True, is_superuser=True)
    eve = make_user("eve", password=PASSWORD)
    user_ban(mod, eve, "cheating with a second account")
    response = login(client, "eve", PASSWORD)
    page = response.content.decode()
    assert response.status_code == 403 and not is_logged_in(client)
    assert "A moderator suspended this account on" in page
    assert "cheating" not in page, "the moderators' reason is their note, not a message"
    # the wrong password says nothing of the ban: only the account's owner learns of it
    wrong = login(Client(), "eve", "not-her-password").content.decode()
    assert "suspended" not in wrong and "not correct" in wrong


def test_a_persian_password_reset_email_reads_right_to_left(client, alice):
    """allauth's own emails had no right-to-left mark: the subject opened with the Latin
    "[Fibbers]", and the link's and the name's lines were set left to right (as the game
    emails were, until they got one)."""
    client.cookies["django_language"] = "fa"
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    (message,) = mail.outbox
    assert message.subject.startswith("\u200f[")
    lines = [line for line in message.body.splitlines() if line.strip()]
    assert lines and all(line.startswith("\u200f") for line in lines), message.body
    assert link_in(message.body, "/accounts/password/reset/key/")  # still found and opened

    mail.outbox.clear()
    client.cookies["django_language"] = "en"
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    assert "\u200f" not in mail.outbox[0].subject + mail.outbox[0].body


# allauth's strings, named through variables: a literal in a gettext call would be taken for one
# of ours, to be translated in our catalogues (tests/test_catalogues.py)
ALLAUTH_RESET_SUBJECT = "Password Reset Email"
ALLAUTH_GREETING = "Hello from %(site_name)s!"


@pytest.mark.parametrize("language", ["fa", "cs", "pt", "fr"])
def test_a_password_reset_email_speaks_the_account_holders_language(client, alice, language):
    """The reset email spoke the language of the browser that asked for it (English on a
    borrowed computer, or whoever typed the address), not the one the player chose."""
    from accounts.services import profile_update

    profile_update(alice, language=language)
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    (message,) = mail.outbox
    with translation.override(language):  # allauth's own catalogue's words for them
        subject = translation.gettext(ALLAUTH_RESET_SUBJECT)
        greeting = translation.gettext(ALLAUTH_GREETING) % {"site_name": "Fibbers"}
    assert subject != ALLAUTH_RESET_SUBJECT
    assert message.subject.endswith(f"[Fibbers] {subject}")
    assert greeting.strip("\u200f") in message.body
    assert link_in(message.body, "/accounts/password/reset/key/")


def test_someone_signing_up_with_a_players_address_tells_them_in_their_language(client, alice):
    """allauth tells the address's owner that somebody tried to sign up with it: in the
    language of whoever tried, a stranger's."""
    from accounts.services import profile_update

    profile_update(alice, language="fa")
    signup(client, username="mallory", email="alice@example.com")
    (message,) = mail.outbox
    assert message.to == ["alice@example.com"]
    assert message.subject.startswith("\u200f[Fibbers] ")
    assert re.search("[\u0600-\u06ff]", message.subject), message.subject


def test_account_emails_link_to_the_sites_address_not_the_requests_host(client, alice, settings):
    """The game emails link to SITE_URL (https in production, checked at start); allauth's
    built theirs from the request's Host, whichever name it came on (the test client's
    "testserver" here, beside a body naming the site's own address)."""
    settings.SITE_URL = "https://fibbers.example"
    signup(client)
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    confirm, reset = mail.outbox
    assert re.search(r"\shttps://fibbers\.example/accounts/confirm-email/\S+/", confirm.body)
    assert re.search(r"\shttps://fibbers\.example/accounts/password/reset/key/\S+/", reset.body)
    assert "testserver" not in confirm.body + reset.body


def test_an_account_emails_message_id_names_the_site_not_the_machine_that_sent_it(
    client, alice, settings
):
    settings.SITE_URL = "https://fibbers.example"
    client.post(reverse("account_reset_password"), {"email": "alice@example.com"})
    (message,) = mail.outbox
    assert message.message()["Message-ID"].endswith("@fibbers.example>")


@pytest.mark.parametrize("language", ["en", "fa", "cs", "pt", "fr"])
def test_a_reset_asked_for_a_suspended_account_tells_its_owner_the_truth(
    client, make_user, language
):
    """allauth answered a reset for a banned account's address as for an unknown one: "we
    have no record of such an account, sign up". The owner learns instead, in their own
    language, that the account is suspended; the page answers as for any address."""
    from accounts.services import profile_update, user_ban

    mod = make_user("mod", is_staff=True, is_superuser=True)
    eve = make_user("eve")
    profile_update(eve, language=language)
    user_ban(mod, eve, "cheating with a second account")
    answers = [
        client.post(reverse("account_reset_password"), {"email": address})
        for address in ("eve@example.com", "nobody@example.com", "mod@example.com")
    ]
    assert len({(answer.status_code, answer.url) for answer in answers}) == 1
    suspended, unknown, reset = mail.outbox
    assert suspended.to == ["eve@example.com"] and "/password/reset/key/" in reset.body
    assert "/accounts/signup/" in unknown.body
    with translation.override(language):
        subject = translation.gettext("Account suspended")
        told = translation.gettext(
            "A moderator suspended this account on %(date)s. While it is suspended you cannot"
            " sign in or play; your seats at tables under way are played by bots."
        ).split("%(date)s")
        asked = translation.gettext(
            "You, or someone else, asked to reset the password of the account with the"
            " address %(email)s."
        ) % {"email": "eve@example.com"}
        refused = translation.gettext("Its password cannot be reset while it is suspended.")
    assert (language == "en") == asked.startswith("You, or someone else"), asked
    assert suspended.subject.endswith(f"[Fibbers] {subject}")
    body = suspended.body.replace("\u200f", "")
    assert told[0].strip() in body and told[1].strip() in body
    assert asked in body and refused in body
    assert "/accounts/signup/" not in body and "/password/reset/key/" not in body
    assert "cheating" not in body, "the moderators' reason is their note, not a message"
