"""A share in hundredths is written each language's way.

Cockroach Poker Royal's "Honesty so far" wrote "(50%)" in every language, while the open
tables page already said "termine 50 % des tables" and «50٪ میزها»: French puts a narrow
no-break space before %, Czech a no-break space, and Persian writes the Arabic percent sign.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import services
from games.models import Event
from tests.games.helpers import play_to_the_end, play_until, seat_users

pytestmark = pytest.mark.django_db

SHARE = re.compile(r'<span class="muted">\((\d+)(\D{1,2})\)</span></td></tr>')
SIGNS = {"en": "%", "fr": "\u202f%", "cs": "\u00a0%", "pt": "%", "fa": "\u066a"}


def test_honesty_so_far_writes_its_shares_in_the_readers_language(started):
    game = play_until(
        lambda: started("cockroach-poker-royal"),
        lambda game: game if Event.objects.filter(game=game).count() >= 6 else None,
        seed=1,
    )
    client = Client()
    client.force_login(seat_users(game)[0])
    for lang, sign in SIGNS.items():
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        html = client.get(f"/games/{game.pk}/").content.decode()
        shares = SHARE.findall(html)
        assert shares, lang  # a player who made no claim yet has "—"
        assert {found for _n, found in shares} == {sign}, (lang, shares)


def test_a_hosts_share_of_finished_tables_is_written_in_the_readers_language(started, trio):
    """The open tables page said "finishes 100 % of tables" in English (a space before %) and
    "dohraje 100 % stolů" in Czech with a plain space, which may break the line there."""
    alice, bob, _carol = trio
    play_to_the_end(started("cockroach-poker-royal"))  # alice has finished one table of one
    services.game_create(alice, engine="imperador", seats=4, join_policy="friends")
    client = Client()
    client.force_login(bob)
    said = {
        "en": "finishes 100% of tables",
        "fr": "termine 100\u202f% des tables",
        "cs": "dohraje 100\u00a0% stolů",
        "pt": "termina 100% das mesas",
        "fa": "100\u066a میزها را تمام می‌کند",
    }
    for lang, words in said.items():
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        html = client.get(reverse("games:open_tables")).content.decode()
        assert f"({words})" in html, (lang, re.findall(r"\([^()]*100[^()]*\)", html))
