"""The table's history reads newest first, the switches to the Live pace included: a proposal,
its acceptances and the switch itself, made within one second, read in the order they
happened (the acceptance read above the switch it brought about)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from tests.games.helpers import seat_users

pytestmark = pytest.mark.django_db


def test_switches_in_one_second_read_newest_first(started, monkeypatch):
    game = started("cockroach-poker-royal")  # daily pace
    users = seat_users(game)
    pages = {}
    for seat, user in users.items():
        pages[seat] = Client()
        pages[seat].force_login(user)
        assert pages[seat].get(f"/games/{game.pk}/").status_code == 200  # present at the table
    real_now = timezone.now
    still = real_now()
    monkeypatch.setattr(timezone, "now", lambda: still)  # the three answers in one instant
    services.live_propose(users[0], game.pk)
    services.live_answer(users[1], game.pk, True)
    services.live_answer(users[2], game.pk, True)
    monkeypatch.setattr(timezone, "now", real_now)

    html = pages[0].get(f"/games/{game.pk}/").content.decode()
    names = [user.name for _seat, user in sorted(users.items())]
    said = [
        "Everyone accepted: the table plays live now.",
        f"{names[2]} wants to play live.",
        f"{names[1]} wants to play live.",
        f"{names[0]} proposes to play live now.",
    ]
    at = [html.find(text) for text in said]
    assert all(i >= 0 for i in at), dict(zip(said, at, strict=True))
    assert at == sorted(at)  # newest first
