"""Display names: one per active player (case-insensitive), no control or direction characters."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.accounts.admin_forms import user_change_form_data

pytestmark = pytest.mark.django_db


def save_name(user, name: str):
    client = Client()
    client.force_login(user)
    return client.post(
        "/profile/",
        {
            "display_name": name,
            "avatar_colour": "#1f6fa8",
            "language": "en",
            "time_zone": "UTC",
            "email_preference": "each",
        },
    )


def test_a_name_another_active_player_shows_is_refused(alice, bob, carol):
    assert save_name(alice, "Queen").status_code == 302
    response = save_name(bob, "queen")
    assert response.status_code == 200 and "already goes by that name" in response.content.decode()
    # Nor the username of a player who shows by it (carol has no display name).
    assert "already goes by that name" in save_name(bob, "CAROL").content.decode()
    bob.refresh_from_db()
    assert bob.display_name == ""


@pytest.mark.parametrize("name", ["evil\u202etxt.exe", "a\u2066b", "rtl\u200f"])
def test_direction_characters_are_refused(alice, name):
    response = save_name(alice, name)
    assert response.status_code == 200
    assert "control or direction characters" in response.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_the_database_holds_both_rules(alice, bob):
    User.objects.filter(pk=alice.pk).update(display_name="Twin")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=bob.pk).update(display_name="twin")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.filter(pk=bob.pk).update(display_name="x\u202ey")
    # A banned (inactive) player's old name does not block anyone.
    User.objects.filter(pk=alice.pk).update(is_active=False)
    User.objects.filter(pk=bob.pk).update(display_name="twin")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Bob\u200b", "invisible characters"),  # zero-width space
        ("Bob\u200d", "invisible characters"),  # zero-width joiner
        ("B\u00adob", "invisible characters"),  # soft hyphen
        ("Bo\u200cb", "invisible characters"),  # a non-joiner between Latin letters
        ("\u0412ob", "mix Latin, Greek and Cyrillic"),  # a Cyrillic "В"
        ("B\u03bfb", "mix Latin, Greek and Cyrillic"),  # a Greek omicron
        ("\uff22\uff4f\uff42", "already goes by that name"),  # full-width "Ｂｏｂ"
        ("Bob\u034f", "invisible characters"),  # combining grapheme joiner
        ("Bob\ufe0f", "invisible characters"),  # variation selector
        ("Bob\u2800", "invisible characters"),  # blank braille pattern
        ("Bob\u3164", "invisible characters"),  # Hangul filler
        ("B\u0585b", "mix Latin, Greek and Cyrillic"),  # an Armenian "օ"
    ],
)
def test_a_name_that_only_looks_like_anothers_is_refused(alice, bob, name, message):
    response = save_name(alice, name)
    assert response.status_code == 200 and message in response.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == ""


@pytest.mark.parametrize("name", ["نیک\u200cنام", "Борис", "Ζωή", "Zoë Dvořák", "جان 2"])
def test_names_in_one_alphabet_and_persian_spelling_are_kept(alice, name):
    assert save_name(alice, name).status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == name


def test_the_admin_form_checks_names_too(as_admin, alice, bob):
    """The admin's user form refused no name: a taken one ended in a database error."""
    alice.display_name = "Queen"
    alice.save()  # through the model, which keeps the name's look-alike key
    data = user_change_form_data(as_admin, bob)
    for name, message in (("queen", "already goes by that name"), ("Bob\u200b", "invisible")):
        response = as_admin.post(
            reverse("admin:accounts_user_change", args=[bob.pk]), {**data, "display_name": name}
        )
        assert response.status_code == 200 and message in response.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == ""
