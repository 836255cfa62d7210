"""Time zones read in the player's language ("Česko — Praha"), not as IANA names
(accounts/time_zones.py): the profile's list, its choice kept across saves, and the emails."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import User
from accounts.templatetags.calendar_dates import zone_name

pytestmark = pytest.mark.django_db


def _options(body: str) -> dict[str, str]:
    select = re.search(r'<select name="time_zone".*?</select>', body, re.S).group(0)
    return dict(re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select))


@pytest.mark.parametrize(
    "language, prague, tehran",
    [
        ("cs", "Česko — Praha", "Írán — Teherán"),
        ("fa", "چک — پراگ", "ایران — تهران"),
        ("fr", "Tchéquie — Prague", "Iran — Téhéran"),
        ("pt-br", "Tchéquia — Praga", "Irã — Teerã"),
        ("en", "Czechia — Prague", "Iran — Tehran"),
    ],
)
def test_the_profile_names_zones_in_the_players_language(client, alice, language, prague, tehran):
    User.objects.filter(pk=alice.pk).update(language=language)
    client.force_login(alice)
    options = _options(client.get(reverse("profile")).content.decode())
    assert options["Europe/Prague"] == prague
    assert options["Asia/Tehran"] == tehran
    assert next(iter(options)) == "UTC"
    # one entry a zone: the old names ("Asia/Calcutta", "US/Eastern") are not listed again
    assert "Asia/Kolkata" in options and "Asia/Calcutta" not in options
    assert "US/Eastern" not in options
    assert len(set(options.values())) == len(options)


def test_a_zone_stored_by_its_old_name_stays_chosen_and_is_kept_by_a_save(client, alice):
    User.objects.filter(pk=alice.pk).update(time_zone="US/Eastern")
    client.force_login(alice)
    body = client.get(reverse("profile")).content.decode()
    assert re.search(r'<option value="US/Eastern" selected>', body)
    client.post(
        reverse("profile"),
        {
            "display_name": "",
            "avatar_colour": alice.avatar_colour,
            "language": "en",
            "time_zone": "US/Eastern",
            "email_preference": alice.email_preference,
        },
    )
    alice.refresh_from_db()
    assert alice.time_zone == "US/Eastern" and alice.language == "en"


def test_an_unlisted_zone_is_refused_by_the_form(client, alice):
    client.force_login(alice)
    response = client.post(
        reverse("profile"),
        {
            "avatar_colour": alice.avatar_colour,
            "language": "en",
            "time_zone": "US/Eastern",  # an old name that is not this player's own
            "email_preference": alice.email_preference,
        },
    )
    assert response.status_code == 200 and "Select a valid choice" in response.content.decode()
    alice.refresh_from_db()
    assert alice.time_zone == "UTC"


@pytest.mark.parametrize(
    "language, zone, said",
    [("cs", "Europe/Prague", "Česko — Praha"), ("fa", "Asia/Tehran", "ایران — تهران")],
)
def test_emails_name_the_zone_in_the_readers_language(language, zone, said):
    with translation.override(language):
        assert zone_name(zone) == said
        assert zone_name("") == "UTC"
