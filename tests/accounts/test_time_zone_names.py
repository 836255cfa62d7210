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
    "language, prague, tehran, kolkata",
    [
        ("cs", "Česko — Praha", "Írán — Teherán", "Indie — Kalkata"),
        ("fa", "چک — پراگ", "ایران — تهران", "هند — کلکته"),
        ("fr", "Tchéquie — Prague", "Iran — Téhéran", "Inde — Calcutta"),
        ("pt-br", "Tchéquia — Praga", "Irã — Teerã", "Índia — Calcutá"),
        ("en", "Czechia — Prague", "Iran — Tehran", "India — Kolkata"),
    ],
)
def test_the_profile_names_zones_in_the_players_language(
    client, alice, language, prague, tehran, kolkata
):
    User.objects.filter(pk=alice.pk).update(language=language)
    client.force_login(alice)
    options = _options(client.get(reverse("profile")).content.decode())
    assert options["Europe/Prague"] == prague
    assert options["Asia/Tehran"] == tehran
    # CLDR keys this city by its old name (Asia/Calcutta)
    assert options["Asia/Kolkata"] == kolkata
    assert next(iter(options)) == "UTC"
    # one entry a zone: the old names ("Asia/Calcutta", "US/Eastern") are not listed again
    assert "Asia/Kolkata" in options and "Asia/Calcutta" not in options
    assert "US/Eastern" not in options
    assert len(set(options.values())) == len(options)


@pytest.mark.parametrize(
    "stored, shown, kept",
    [
        # an old name is shown, and saved, as the listed zone it stands for
        ("US/Eastern", "America/New_York", "America/New_York"),
        ("Asia/Calcutta", "Asia/Kolkata", "Asia/Kolkata"),
        # a zone the list has no entry for is listed for its player alone, and kept
        ("Etc/GMT+3", "Etc/GMT+3", "Etc/GMT+3"),
    ],
)
def test_a_stored_zone_the_list_does_not_name_stays_chosen(client, alice, stored, shown, kept):
    User.objects.filter(pk=alice.pk).update(time_zone=stored)
    client.force_login(alice)
    body = client.get(reverse("profile")).content.decode()
    assert f'<option value="{shown}" selected>' in body
    select = re.search(r'<select name="time_zone".*?</select>', body, re.S).group(0)
    assert select.count(" selected>") == 1
    client.post(
        reverse("profile"),
        {
            "display_name": "",
            "avatar_colour": alice.avatar_colour,
            "language": "en",
            "time_zone": shown,
            "email_preference": alice.email_preference,
        },
    )
    alice.refresh_from_db()
    assert alice.time_zone == kept and alice.language == "en"


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
