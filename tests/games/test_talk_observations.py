"""What one audience of a table can observe of the talk of another: nothing. At a table whose
spectators talk among themselves, a player's socket was pinged for every spectator's line (no
text, but the moment and the count of their talk, and a fetch of the page's talk each time);
and the lines were numbered across the whole site, so the numbers a player read counted the
talk at every other table, and the gap between two lines at theirs, the spectators' talk."""

from __future__ import annotations

import asyncio
import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from accounts.services import friendship_create
from games.models import Game, Report
from games.services import chat
from tests.games.helpers import seat_users
from tests.games.test_chat import client_for
from tests.games.test_consumers import connect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def own_talk(started, make_user):
    """A started table whose spectators talk among themselves, and dave, a friend of alice
    who watches it."""
    game = started("imperador", spectator_chat="own", allow_spectators=True)
    dave = make_user("dave")
    friendship_create(seat_users(game)[0], dave)
    return game, dave


def test_spectators_talk_sends_nothing_to_a_players_socket_and_players_talk_nothing_to_theirs(
    own_talk,
):
    game, dave = own_talk
    alice, bob = seat_users(game)[0], seat_users(game)[1]

    async def scenario():
        player, connected, _ = await connect(alice, game.pk)
        assert connected
        spectator, connected, _ = await connect(dave, game.pk)
        assert connected
        await player.receive_json_from(timeout=5)  # the state on connecting
        await spectator.receive_json_from(timeout=5)

        await sync_to_async(chat.post)(dave, game.pk, "Alice holds the fox")
        assert await spectator.receive_json_from(timeout=5) == {"type": "chat"}
        assert await player.receive_nothing(timeout=1.5), "a spectator's line pinged a player"

        await sync_to_async(chat.post)(bob, game.pk, "Nice bluff, Alice")
        assert await player.receive_json_from(timeout=5) == {"type": "chat"}
        assert await spectator.receive_nothing(timeout=1.5), "a player's line pinged a spectator"

        await player.disconnect()
        await spectator.disconnect()

    asyncio.run(scenario())


def _lines(client: Client, game: Game) -> tuple[list[int], list[str]]:
    """The talk a reader's page shows: each line's number (data-id, the one its socket's hello
    sends back), and where its "Report this message" forms post (others' lines only)."""
    html = client.get(reverse("games:chat", args=[game.pk])).content.decode()
    numbers = [int(n) for n in re.findall(r'<li data-id="(\d+)"', html)]
    return numbers, re.findall(r'action="([^"]*/report/)"', html)


def test_two_lines_at_a_table_show_no_gap_whatever_is_said_elsewhere(own_talk, started):
    """Bob reads two lines of Alice's with a day of talk between them at another table and
    among the spectators of his own: the numbers his page holds say nothing of either."""
    game, dave = own_talk
    alice, bob = seat_users(game)[0], seat_users(game)[1]
    elsewhere = started("cockroach-poker-royal")
    people_elsewhere = seat_users(elsewhere)
    chat.post(alice, game.pk, "first")
    for n in range(3):
        chat.post(people_elsewhere[n % 3], elsewhere.pk, f"elsewhere {n}")
        chat.post(dave, game.pk, f"among spectators {n}")
    chat.post(alice, game.pk, "second")

    bob_reads = client_for(bob)
    numbers, reports = _lines(bob_reads, game)
    assert numbers == [1, 2]
    assert reports == [reverse("games:chat_report", args=[game.pk, n]) for n in (1, 2)]
    assert _lines(client_for(dave), game)[0] == [1, 2, 3]  # the spectators' own numbers

    # the report form names the line as its reader sees it, and reports that line
    bob_reads.post(reports[1])
    report = Report.objects.get(reporter=bob)
    assert report.reported == alice and "second" in report.text


def test_a_report_of_a_number_no_line_has_reports_nothing(own_talk):
    """Another channel's number, a number past the last, 0, one past any integer column: no
    such line, nothing reported (and no server error)."""
    game, dave = own_talk
    alice, bob = seat_users(game)[0], seat_users(game)[1]
    chat.post(alice, game.pk, "to the players")
    chat.post(dave, game.pk, "to the spectators")
    chat.post(dave, game.pk, "again to the spectators")
    for line in (2, 3, 0, 10**20):
        answer = client_for(bob).post(f"/games/{game.pk}/chat/{line}/report/")
        assert answer.status_code == 302 and answer["Location"] == reverse("games:my_games")
    assert not Report.objects.exists()


def test_a_player_who_left_counts_the_spectators_talk_on_my_games_not_the_players(own_talk):
    """Bob left the table (the bot plays his seat): he reads the spectators' talk now,
    and My games counted the players' lines, which he cannot read, as unread."""
    from games.services.departure import game_quit

    game, dave = own_talk
    alice, bob, carol = (seat_users(game)[i] for i in range(3))
    game_quit(bob, game.pk)
    chat.post(alice, game.pk, "now that Bob is gone")
    chat.post(alice, game.pk, "we can talk")
    assert "💬" not in client_for(bob).get(reverse("games:my_games")).content.decode()
    chat.post(dave, game.pk, "welcome, Bob")
    assert "💬 1" in client_for(bob).get(reverse("games:my_games")).content.decode()
    # carol, still playing, counts the players' two lines, not the spectators' one
    assert "💬 2" in client_for(carol).get(reverse("games:my_games")).content.decode()
