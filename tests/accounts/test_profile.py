"""The profile page: preferences, language switching, and personal API tokens."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import services
from accounts.models import ApiToken, EmailPreference
from accounts.tokens import token_from_authorization, user_for_token

pytestmark = pytest.mark.django_db

VALID = {
    "display_name": "  Alice   in  Chains ",
    "avatar_colour": "#8e44ad",
    "language": "fa",
    "time_zone": "Asia/Tehran",
    "email_preference": EmailPreference.DIGEST,
    "email_reminders": "",  # unchecked
}


@pytest.fixture
def as_alice(client, alice):
    client.force_login(alice)
    return client


def page_messages(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def test_profile_page_has_labelled_fields_and_account_links(as_alice):
    body = as_alice.get(reverse("profile")).content.decode()

    for field in ["display_name", "language", "time_zone"]:
        assert f'<label for="id_{field}">' in body
    assert "<legend>Avatar colour</legend>" in body
    assert f'href="{reverse("account_email")}"' in body
    assert f'href="{reverse("account_change_password")}"' in body
    assert 'aria-describedby="id_display_name_helptext"' in body
    assert 'href="/api/docs"' in body  # where a token's use is explained


def test_saving_the_profile_updates_it_and_switches_the_language(as_alice, alice):
    response = as_alice.post(reverse("profile"), VALID)

    assert response.status_code == 302
    assert response.url == reverse("profile")
    assert response.cookies["django_language"].value == "fa"
    alice.refresh_from_db()
    assert alice.display_name == "Alice in Chains"
    assert alice.avatar_colour == "#8e44ad"
    assert alice.language == "fa"
    assert alice.time_zone == "Asia/Tehran"
    assert alice.email_preference == EmailPreference.DIGEST
    assert alice.email_reminders is False
    assert alice.initials == "AI"

    page = as_alice.get(reverse("profile")).content.decode()
    assert 'lang="fa"' in page and 'dir="rtl"' in page
    assert "Alice in Chains" in page

    as_alice.post(reverse("profile"), {**VALID, "language": "cs"})
    page = as_alice.get(reverse("home")).content.decode()
    assert 'lang="cs"' in page and 'dir="ltr"' in page


def test_the_preferred_language_follows_the_player_to_a_new_browser(alice):
    services.profile_update(alice, language="pt")
    fresh = Client()
    fresh.force_login(alice)

    page = fresh.get(reverse("home")).content.decode()

    assert 'lang="pt"' in page


@pytest.mark.parametrize(
    "field,value",
    [
        ("avatar_colour", "#ffffff"),
        ("avatar_colour", "red"),
        ("language", "de"),
        ("time_zone", "Mars/Olympus_Mons"),
        ("email_preference", "always"),
        ("display_name", "x" * 41),
    ],
)
def test_bad_profile_input_is_shown_by_the_field_and_changes_nothing(as_alice, state, field, value):
    before = state()

    response = as_alice.post(reverse("profile"), {**VALID, field: value})

    assert response.status_code == 200
    assert list(response.context["form"].errors) == [field]
    body = response.content.decode()
    assert f'id="id_{field}_error"' in body
    assert re.search(f'aria-describedby="[^"]*id_{field}_error', body)
    assert "django_language" not in response.cookies
    assert state() == before


def test_the_profile_service_validates_too(alice, state):
    before = state()
    with pytest.raises(services.AccountsError):
        services.profile_update(alice, time_zone="Nowhere/Special")
    with pytest.raises(ValidationError):
        services.profile_update(alice, avatar_colour="#000000")
    assert alice.avatar_colour == "#1f6fa8"
    with pytest.raises(ValueError):
        services.profile_update(alice, is_staff=True)
    assert state() == before


# --- API tokens ---------------------------------------------------------------------------


def create_token(client, name="my bot"):
    return client.post(reverse("api_token_create"), {"name": name})


def test_a_new_token_is_shown_once_and_only_its_digest_is_stored(as_alice, alice):
    response = create_token(as_alice)

    assert response.status_code == 200
    raw = response.context["raw"]
    assert raw.startswith("fib_") and len(raw) > 40
    assert raw in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    token = ApiToken.objects.get()
    assert token.user == alice and token.name == "my bot"
    assert token.digest == hashlib.sha256(raw.encode()).hexdigest()
    assert token.prefix == raw[:8]
    stored = " ".join(str(value) for value in ApiToken.objects.values_list().get())
    assert raw not in stored

    profile = as_alice.get(reverse("profile")).content.decode()
    assert raw not in profile
    assert "my bot" in profile and f"{token.prefix}…" in profile
    assert user_for_token(raw) == alice


def test_revoking_a_token_stops_it(as_alice, alice):
    raw = create_token(as_alice).context["raw"]
    token = ApiToken.objects.get()

    response = as_alice.post(reverse("api_token_revoke", args=[token.pk]), follow=True)

    assert page_messages(response) == ["The token “my bot” is revoked."]
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert user_for_token(raw) is None
    assert list(response.context["tokens"]) == []
    assert "You have no API tokens." in response.content.decode()
    # a second tab's revoke (or a double click) says the same, not "page not found"
    revoked_at = token.revoked_at
    again = as_alice.post(reverse("api_token_revoke", args=[token.pk]), follow=True)
    assert again.status_code == 200
    assert page_messages(again) == ["The token “my bot” is revoked."]
    token.refresh_from_db()
    assert token.revoked_at == revoked_at


def test_a_stranger_cannot_revoke_my_token(alice, bob, state):
    _token, raw = services.api_token_create(alice, "mine")
    as_bob = Client()
    as_bob.force_login(bob)
    before = state()

    response = as_bob.post(reverse("api_token_revoke", args=[_token.pk]))

    assert response.status_code == 404
    assert state() == before
    assert user_for_token(raw) == alice


def test_a_token_needs_a_name(as_alice, state):
    before = state()
    response = create_token(as_alice, "   ")
    assert response.status_code == 200
    assert "name" in response.context["token_form"].errors
    assert 'id="id_name_error"' in response.content.decode()
    assert state() == before


def test_there_is_a_limit_on_active_tokens(as_alice, alice, state):
    for number in range(services.MAX_ACTIVE_TOKENS):
        services.api_token_create(alice, f"token {number}")
    before = state()

    response = create_token(as_alice)

    assert response.status_code == 302
    assert state() == before
    revoked = ApiToken.objects.first()
    services.api_token_revoke(alice, revoked)
    assert create_token(as_alice).status_code == 200


def test_user_for_token_notes_when_a_token_was_used(alice):
    token, raw = services.api_token_create(alice, "bot")
    assert token.last_used_at is None

    assert user_for_token(raw) == alice
    token.refresh_from_db()
    first_use = token.last_used_at
    assert first_use is not None

    # Within a minute it does not write again; later it does.
    assert user_for_token(raw) == alice
    token.refresh_from_db()
    assert token.last_used_at == first_use
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=first_use - timedelta(minutes=5))
    cache.clear()  # the resolved token is cached (accounts.tokens) with its last use
    assert user_for_token(raw) == alice
    token.refresh_from_db()
    assert token.last_used_at > first_use - timedelta(minutes=5)


@pytest.mark.parametrize("raw", ["", "   ", "fib_", "fib_not-a-real-token", "x" * 5000, None, 42])
def test_user_for_token_rejects_garbage(alice, raw):
    services.api_token_create(alice, "bot")
    assert user_for_token(raw) is None


def test_user_for_token_rejects_banned_and_inactive_owners(alice, bob, make_user):
    moderator = make_user("mod", is_staff=True)
    _token, alice_raw = services.api_token_create(alice, "bot")
    _token, bob_raw = services.api_token_create(bob, "bot")

    services.user_ban(moderator, alice, "spam")
    bob.is_active = False
    bob.save(update_fields=["is_active"])

    assert user_for_token(alice_raw) is None
    assert user_for_token(bob_raw) is None
    services.user_unban(moderator, alice)
    assert user_for_token(alice_raw) == alice


def test_tokens_are_independent(alice, bob):
    _a, alice_raw = services.api_token_create(alice, "bot")
    b, bob_raw = services.api_token_create(bob, "bot")
    services.api_token_revoke(bob, b)

    assert user_for_token(alice_raw) == alice
    assert user_for_token(bob_raw) is None


def test_revoking_another_players_token_in_the_service_is_refused(alice, bob):
    token, _raw = services.api_token_create(alice, "bot")
    with pytest.raises(services.TokenError):
        services.api_token_revoke(bob, token)
    token.refresh_from_db()
    assert token.revoked_at is None


def test_bearer_header_parsing():
    assert token_from_authorization("Bearer fib_abc") == "fib_abc"
    assert token_from_authorization("bearer  fib_abc ") == "fib_abc"
    assert token_from_authorization("Basic Zm9vOmJhcg==") is None
    assert token_from_authorization("Bearer ") is None
    assert token_from_authorization(None) is None


def test_last_seen_is_written_at_most_once_a_minute(alice):
    services.user_touch_last_seen(alice)
    first = alice.last_seen_at
    services.user_touch_last_seen(alice)
    alice.refresh_from_db()
    assert alice.last_seen_at == first
    alice.last_seen_at = timezone.now() - timedelta(minutes=2)
    services.user_touch_last_seen(alice)
    alice.refresh_from_db()
    assert alice.last_seen_at > first
