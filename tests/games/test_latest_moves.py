"""The board says what the last moves did (a play-through review): in Imperador and Mogel
Motte the result of a turn (the reveal, a race won, the gifts one got, a round's end) left the
board as soon as the next turn began, and stood only in the History, a screen and a half below
on a phone. "Last moves" above the board shows the newest entries of the viewer's own log: every
line there is one the viewer's History shows too (secret lines only to whom they concern)."""

from __future__ import annotations

import random
import re

import pytest
from django.test import Client

from games import services
from games.models import Game
from tests.games.helpers import play_one_step, seat_users

pytestmark = pytest.mark.django_db


def _entries(part: str) -> list[list[str]]:
    """The lines of each <li> entry, newest first, the passing ("minor") ones left out; an
    entry of nothing else too."""
    entries = [
        [
            re.sub(r"<[^>]+>", "", text).strip()
            for classes, text in re.findall(r'<p class="(event[^"]*)">(.*?)</p>', li, re.S)
            if "minor" not in classes
        ]
        for li in re.findall(r"<li>(.*?)</li>", part, re.S)
    ]
    return [lines for lines in entries if lines]


def _page(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


@pytest.mark.parametrize("engine", ["imperador", "mogel-motte"])
def test_just_now_shows_each_seat_its_newest_history_entries(started, engine):
    game = started(engine)
    users = seat_users(game)
    rng = random.Random(3)
    for _step in range(25):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        play_one_step(game, users, rng)
    game.refresh_from_db()

    for seat, user in users.items():
        page = _page(user, game)
        latest = _entries(page.split('class="latest"', 1)[1].split("</section>", 1)[0])
        history = _entries(page.split('class="log"', 1)[1].split("</section>", 1)[0])
        assert len(latest) == 3, seat
        # the History's three newest entries, their passing lines ("minor") left out
        assert latest == history[:3], seat


def _live_lobby_bob_ready(trio) -> Game:
    """alice's Live table of Mogel Motte, bob and carol seated, bob ready."""
    alice, bob, carol = trio
    game = services.game_create(
        alice, engine="mogel-motte", seats=3, pace="live", invite=["bob", "carol"]
    )
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    services.seat_ready(bob, game.pk)
    return game


def test_a_ready_player_at_a_live_table_reads_whom_it_waits_for(trio):
    """A ready invitee read "You are ready" and nothing else while the table waited for its
    creator's Start (play-through review)."""
    _alice, bob, carol = trio
    game = _live_lobby_bob_ready(trio)

    assert "Not ready yet: carol" in re.sub(r"\s+", " ", _page(bob, game))
    services.seat_ready(carol, game.pk)
    for user in (bob, carol):
        assert "Everyone is ready: waiting for alice to start the game." in _page(user, game)


def test_the_ready_line_costs_no_query_of_its_own(trio):
    """Naming the creator read their user again (a review of the change: 12 queries with one
    player ready, 13 with all)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    _alice, bob, carol = trio
    game = _live_lobby_bob_ready(trio)
    client = Client()
    client.force_login(bob)
    client.get(f"/games/{game.pk}/")
    with CaptureQueriesContext(connection) as one_ready:
        client.get(f"/games/{game.pk}/")
    services.seat_ready(carol, game.pk)
    with CaptureQueriesContext(connection) as all_ready:
        page = client.get(f"/games/{game.pk}/").content.decode()
    assert "waiting for alice to start" in page
    assert len(all_ready) <= len(one_ready)
