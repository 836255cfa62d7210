"""When a history entry happened, as the table's log says it: the weekday and time while that
names one day (the last six), the date and time before. A daily game runs for weeks: "Tue 14:05"
named two Tuesdays, and the log read out of order. In the reader's calendar (Persian: Solar
Hijri)."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games import services
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db

STAMPS = re.compile(r'<ol class="history">.*?<time datetime="[^"]+">([^<]+)</time>', re.S)


def _newest_stamp(user: User, game_id: int) -> str:
    client = Client()
    client.force_login(user)
    page = client.get(f"/games/{game_id}/").content.decode()
    found = STAMPS.search(page)
    assert found, "the history shows when its newest entry happened"
    return found.group(1)


# the longest pace a table may have: nothing times out while the clock is moved on below
LONGEST = {"pace": "custom", "move_seconds": 14 * 86400, "window_seconds": 14 * 86400}


def _one_move(started) -> tuple[int, User]:
    game = started(**LONGEST)
    users = seat_users(game)
    seat, action = next_human_move(game, random.Random(5))
    services.act(users[seat], game.pk, game.version_for(seat), action)
    return game.pk, users[0]


@pytest.mark.parametrize(("days", "dated"), [(0, False), (5, False), (6, True), (13, True)])
def test_an_entry_older_than_six_days_says_its_date(started, monkeypatch, days, dated):
    game_id, alice = _one_move(started)
    made = timezone.now()
    later = made + timedelta(days=days, minutes=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    stamp = _newest_stamp(alice, game_id)
    weekday = timezone.localtime(made).strftime("%a")
    if dated:
        # the month in words ("Dec. 8, 2026"): "12/08/2026" reads two ways
        day = timezone.localtime(made)
        assert str(day.year) in stamp and day.strftime("%b") in stamp, stamp
        assert not stamp.startswith(weekday), stamp
    else:
        assert stamp.startswith(weekday), stamp


def test_a_persian_reader_reads_the_date_on_the_solar_hijri_calendar(started, monkeypatch):
    game_id, alice = _one_move(started)
    alice.language = "fa"
    alice.save(update_fields=["language"])
    later = timezone.now() + timedelta(days=13)
    monkeypatch.setattr(timezone, "now", lambda: later)
    stamp = _newest_stamp(alice, game_id)
    assert re.match(r"\d{1,2} [\u0600-\u06ff]+ 14\d\d، \d\d:\d\d$", stamp), stamp
