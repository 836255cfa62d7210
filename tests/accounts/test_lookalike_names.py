"""No player can pose as another (a web attacker's review): "Аӏісе" written wholly in
Cyrillic letters read as Alice at her own tables, and sign-up usernames skipped the display
name's rules ("dаve" with a Cyrillic "а", "dave" plus an invisible Hangul filler, a name of
fillers only, "Zed" while bob showed as "Zed")."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import User
from accounts.name_keys import name_key
from tests.accounts.test_display_names import save_name

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"
CYRILLIC_ALICE = "\u0410\u04cf\u0456\u0441\u0435"  # А ӏ і с е
FILLER = "\u3164"  # HANGUL FILLER: a letter to \w, nothing to the eye


def sign_up(client, username: str):
    return client.post(
        reverse("account_signup"),
        {
            "username": username,
            "email": f"new{len(username)}{ord(username[-1])}@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )


def test_a_name_in_another_alphabet_that_reads_as_a_players_is_refused(alice, bob):
    assert save_name(alice, "Alice").status_code == 302

    response = save_name(bob, CYRILLIC_ALICE)

    assert response.status_code == 200
    assert "or one that looks the same" in response.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == ""
    assert "or one that looks the same" in save_name(bob, "AIice").content.decode()
    # a whole Cyrillic name that passes for nobody's stays allowed, as does one's own name
    assert save_name(bob, "Борис").status_code == 302
    assert save_name(alice, "ALICE").status_code == 302


@pytest.mark.parametrize(
    ("username", "why"),
    [
        ("d\u0430ve", "may not mix Latin, Greek and Cyrillic"),  # a Cyrillic "а" in a Latin name
        (f"dave{FILLER}", "may not contain invisible characters"),
        (FILLER * 3, "may not contain invisible characters"),
        ("Zed", "or one that looks the same"),  # bob shows as "Zed"
        ("ZED", "or one that looks the same"),
        (CYRILLIC_ALICE, "or one that looks the same"),  # wholly Cyrillic, while Alice plays
        ("AIice", "or one that looks the same"),  # a capital i for the l
        ("A1ice", "or one that looks the same"),  # a one for the l
    ],
)
def test_sign_up_refuses_a_username_that_passes_for_another_player(client, bob, username, why):
    User.objects.create_user("dave", "dave@example.com", PASSWORD)
    User.objects.create_user("Alice", "alice@example.com", PASSWORD)
    bob.display_name = "Zed"
    bob.save()

    response = sign_up(client, username)

    assert response.status_code == 200, "refused on the form, no account made"
    assert why in response.content.decode()
    assert not User.objects.filter(username=username).exists()


def test_a_very_long_username_signs_up(client):
    """NFKC and casefolding lengthen a key: 81 "ß" (150 letters at most) made a 500."""
    response = sign_up(client, "ß" * 81)
    assert response.status_code == 302
    assert len(User.objects.get(username="ß" * 81).name_key) == 162


def test_a_name_kept_as_it_was_never_blocks_a_save(alice, bob):
    """Two names allowed before the keys ("Maeve", "Mæve") share one now: the second player
    could change nothing on their profile, their unchanged name refused."""
    User.objects.filter(pk=alice.pk).update(display_name="Maeve", name_key="maeve")
    User.objects.filter(pk=bob.pk).update(display_name="Mæve", name_key="maeve")
    assert save_name(User.objects.get(pk=bob.pk), "Mæve").status_code == 302


def test_clearing_a_display_name_may_not_bring_back_a_username_another_player_took(alice, bob):
    assert save_name(alice, "Queen").status_code == 302
    assert save_name(bob, "alice").status_code == 302  # nobody showed "alice"

    refused = save_name(User.objects.get(pk=alice.pk), "")

    assert refused.status_code == 200
    assert "Another player now goes by your username" in refused.content.decode()
    assert User.objects.get(pk=alice.pk).display_name == "Queen"


def test_sign_up_takes_ordinary_names_in_any_one_alphabet(client):
    for username in ("Čeněk", "Борис", "مریم", "Zoë"):
        response = sign_up(client, username)
        assert response.status_code == 302, (username, response.content.decode()[:2000])
        assert User.objects.get(username=username).name_key == name_key(username)


def test_the_key_follows_the_shown_name(alice):
    assert User.objects.get(pk=alice.pk).name_key == "alice"
    save_name(alice, "Ｑｕｅｅｎ")  # full width: NFKC
    assert User.objects.get(pk=alice.pk).name_key == "queen"
    save_name(alice, "")
    assert User.objects.get(pk=alice.pk).name_key == "alice"
    assert name_key(CYRILLIC_ALICE) == name_key("Alice") == name_key("ALICE")


@pytest.mark.django_db(transaction=True)  # 0020 drops and builds its index concurrently
def test_the_migration_fills_every_players_key(alice, bob):
    User.objects.update(name_key="")
    call_command("migrate", "accounts", "0018", verbosity=0)
    call_command("migrate", "accounts", verbosity=0)
    assert dict(User.objects.values_list("username", "name_key")) == {
        "alice": "alice",
        "bob": "bob",
    }
