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

from games.models import Event
from tests.games.helpers import play_until, seat_users

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
