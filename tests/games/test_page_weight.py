"""No page is sent compressed, whatever the browser takes (static files are: whitenoise,
tests/test_static_files.py).

A table page holds a seat's hidden cards beside table talk the other players write, and its
script fetches the table's live parts again whenever they post: compressed, the length of that
answer would tell an eavesdropper on the player's network whether a guess at the hand, posted
as talk, matched (BREACH). My games and the notifications page hold no such secret today, but
compressing them bought no time on a phone (bench/phone_pages.py, bench/README.md: the ~100 KB
notifications page of a player at 30 tables painted no sooner gzipped, its cost is parsing,
not bytes) and would turn any secret a later change puts there into one.
"""

from __future__ import annotations

import pytest
from django.test import Client

from tests.games.helpers import play_to_the_end, seat_users

pytestmark = pytest.mark.django_db

EVERY_ENCODING = "gzip, deflate, br, zstd"  # what Chromium sends


def test_no_page_is_compressed(started):
    game = started("mogel-motte")
    alice = seat_users(game)[0]
    client = Client()
    client.force_login(alice)
    client.post(f"/games/{game.pk}/chat/post/", {"text": "a rat, a rat and a fly?"})
    paths = [
        f"/games/{game.pk}/",
        f"/games/{game.pk}/live/",
        f"/games/{game.pk}/chat/",
        "/games/",
        "/games/?part=lists",
        "/notifications/",
        "/friends/",
    ]
    for path in paths:
        response = client.get(path, HTTP_ACCEPT_ENCODING=EVERY_ENCODING)
        assert response.status_code == 200, path
        assert "Content-Encoding" not in response.headers, path
    play_to_the_end(game)
    replay = client.get(f"/games/{game.pk}/replay/", HTTP_ACCEPT_ENCODING=EVERY_ENCODING)
    assert replay.status_code == 200 and "Content-Encoding" not in replay.headers
