"""The table's history reads newest first, the switches to the Live pace included: a proposal,
its acceptances and the switch itself, made within one second, read in the order they
happened (the acceptance read above the switch it brought about)."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games import services
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db


def _present_pages(game, users) -> dict:
    """Each seat's player signed in with the table open (present: they may go live)."""
    pages = {}
    for seat, user in users.items():
        pages[seat] = Client()
        pages[seat].force_login(user)
        assert pages[seat].get(f"/games/{game.pk}/").status_code == 200
    return pages


def test_switches_in_one_second_read_newest_first(started, monkeypatch):
    game = started("cockroach-poker-royal")  # daily pace
    users = seat_users(game)
    pages = _present_pages(game, users)
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


def test_a_switch_after_a_move_in_the_same_second_reads_above_it(started, monkeypatch):
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    pages = {}
    for seat, user in users.items():
        pages[seat] = Client()
        pages[seat].force_login(user)
        pages[seat].get(f"/games/{game.pk}/")  # present at the table
    second = timezone.now().replace(microsecond=0) + timedelta(seconds=1)
    real_now = timezone.now
    rng = random.Random(3)
    seat, action = next_human_move(game, rng)
    monkeypatch.setattr(timezone, "now", lambda: second + timedelta(milliseconds=100))
    services.act(users[seat], game.pk, game.version_for(seat), action)
    monkeypatch.setattr(timezone, "now", lambda: second + timedelta(milliseconds=800))
    services.live_propose(users[0], game.pk)
    monkeypatch.setattr(timezone, "now", real_now)

    html = pages[1].get(f"/games/{game.pk}/").content.decode()
    history = html[html.index('<ol class="history">') :]
    items = re.findall(r"<li>(.*?)</li>", history, re.S)
    assert "proposes to play live now." in items[0]  # the newest: above the move it followed
    assert "proposes to play live now." not in items[1]


def test_a_proposal_to_play_live_shows_at_the_top_of_the_page_it_waits_on(started):
    """The proposal sat in the players' box below the board and the talk, out of sight on a
    phone (live review): where it waits on the reader, it is in the status part at the top;
    the proposer, who has nothing to answer, reads it in the players' box."""
    game = started("cockroach-poker-royal")  # daily pace
    users = seat_users(game)
    pages = _present_pages(game, users)
    services.live_propose(users[0], game.pk)

    asked = pages[1].get(f"/games/{game.pk}/").content.decode()
    status = asked.split('data-live="status"')[1].split('data-live="')[0]
    assert "Play live now? Accepted so far:" in status and "Accept: play live" in status
    assert asked.count("Accept: play live") == 1
    proposer = pages[0].get(f"/games/{game.pk}/").content.decode()
    assert (
        "Play live now? Accepted so far:"
        not in proposer.split('data-live="status"')[1].split('data-live="')[0]
    )
    assert "Play live now? Accepted so far:" in proposer
