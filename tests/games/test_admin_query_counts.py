"""The moderators' admin pages take as many SQL round trips for many rows as for few: a
column, filter or inline that asks the database once per row (an N+1) fails these tests.
The tables behind the lists grow to thousands of games, seats, lines and notices."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import ModerationLog, Notification, User
from accounts.moderators import make_moderator
from accounts.notifications import notify
from accounts.services import user_block
from games import services
from games.models import Event, Game
from games.services import chat
from tests.games.helpers import play_one_step, seat_users

pytestmark = pytest.mark.django_db

LISTS = (
    "admin:games_game_changelist",
    "admin:games_seat_changelist",
    "admin:games_invitation_changelist",
    "admin:games_report_changelist",
    "admin:games_chatmessage_changelist",
    "admin:accounts_user_changelist",
    "admin:accounts_notification_changelist",
    "admin:accounts_moderationlog_changelist",
    "admin:accounts_friendrequest_changelist",
    "admin:accounts_friendship_changelist",
    "admin:accounts_block_changelist",
)


@pytest.fixture(autouse=True)
def _own_cache(settings):
    """A cache of this process only (as tests/games/test_query_counts.py): a shared one
    emptied by another test worker between two counts would change what they count."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def _client(user: User) -> Client:
    client = Client()
    client.force_login(User.objects.get(pk=user.pk))  # permissions fresh
    return client


def _queries(client: Client, url: str) -> int:
    client.get(url)  # the first look warms what any page reads once (the session, the perms)
    with CaptureQueriesContext(connection) as captured:
        answer = client.get(url)
    assert answer.status_code == 200, url
    return len(captured)


def _tables(started, trio, admin_user, make_user, count: int) -> None:
    """``count`` more tables, each with what the lists show: seats, invitations, a line of
    table talk, a report, a notice, a moderation log row, a block and a player."""
    alice, bob, _carol = trio
    for _ in range(count):
        game = started()
        chat.post(alice, game.pk, "you bluff badly")
        services.report_create(bob, game.pk, "alice", "abuse", "rude")
        notify(alice, Notification.Kind.GAME_FINISHED, "over", "/", game.pk)
        ModerationLog.objects.create(
            actor=admin_user, action="game_abort", game_id=game.pk, reason="test"
        )
        user_block(make_user(f"p{Game.objects.count()}"), bob)


def test_the_admins_lists_take_as_many_queries_for_many_rows_as_for_few(
    started, trio, admin_user, make_user
):
    moderator = make_user("moddy")
    make_moderator(moderator)
    readers = {"moderator": _client(moderator), "superuser": _client(admin_user)}

    _tables(started, trio, admin_user, make_user, 1)
    few = {(who, page): _queries(c, reverse(page)) for who, c in readers.items() for page in LISTS}
    _tables(started, trio, admin_user, make_user, 3)
    many = {(who, page): _queries(c, reverse(page)) for who, c in readers.items() for page in LISTS}

    assert many == few


def test_a_revealed_games_event_log_takes_as_many_queries_for_a_long_game(as_admin, started):
    """Every row of the event log names who made it: one query per move, hundreds for a long
    game, when the inline fetched each row's player on its own."""
    game = started()
    step = reverse("admin:games_game_reveal", args=[game.pk])
    page = as_admin.post(step)["Location"]
    users, rng = seat_users(game), random.Random(3)

    def played(moves: int) -> int:
        for _ in range(moves):
            play_one_step(Game.objects.get(pk=game.pk), users, rng)
        return _queries(as_admin, page)

    few = played(1)
    many = played(4)

    assert Event.objects.filter(game=game, actor__isnull=False).count() >= 4
    assert many == few


def test_the_chat_list_counts_its_lines_once(started, trio, make_user):
    """Table talk is the largest table the moderators page through (a line is a row): the
    list counted it twice a page, the second time for "(N total)" beside a search's answers
    (50 ms a count at 500,000 lines), as the notices' list no longer does."""
    alice, _bob, _carol = trio
    game = started()
    chat.post(alice, game.pk, "you bluff badly")
    moderator = make_user("moddy")
    make_moderator(moderator)
    client = _client(moderator)
    url = reverse("admin:games_chatmessage_changelist")

    for query in ({}, {"q": "bluff"}):
        client.get(url, query)
        with CaptureQueriesContext(connection) as captured:
            client.get(url, query)
        counts = [q["sql"] for q in captured.captured_queries if "COUNT(" in q["sql"]]
        chat_counts = [sql for sql in counts if '"games_chatmessage"' in sql]
        assert len(chat_counts) == 1, (query, chat_counts)
