"""The notifications page: one row per table (its newest notice, the earlier ones folded under
it), a friend request on its own, "Mark read" for a whole table, and older pages."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts import notifications
from accounts.models import Notification
from accounts.services import friend_request_send
from games import services
from games.models import Game
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db


def _rows(html: str) -> list[str]:
    listing = html.split('class="card-list notice-groups"', 1)[1]
    listing = re.split(r"</ul>(?!\s*</details>)", listing, maxsplit=1)[0]  # not a folded list
    return re.split(r"\n  <li", listing)[1:]


def _play_until(game: Game, user, notices: int, rng: random.Random) -> None:
    """Real moves until ``user`` has had ``notices`` notices about this table."""
    for _ in range(400):
        if Notification.objects.filter(user=user, game_id=game.pk).count() >= notices:
            return
        move = next_human_move(game, rng)
        assert move is not None, "the game stopped waiting on a human"
        seat, action = move
        services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
        game.refresh_from_db()
    raise AssertionError("too few notices")


def test_a_tables_notices_fold_under_its_newest(started, make_user):
    first, second = started(), started("mogel-motte")
    alice = seat_users(first)[0]
    rng = random.Random(3)
    _play_until(first, alice, 3, rng)
    friend_request_send(make_user("dana"), alice)
    _play_until(second, alice, 1, rng)
    notes = list(Notification.objects.filter(user=alice).order_by("-created_at", "-pk"))
    games = [n.game_id for n in notes]
    assert games.count(first.pk) >= 3 and None in games

    client = Client()
    client.force_login(alice)
    rows = _rows(client.get("/notifications/").content.decode())

    # one row per table and one for the friend request, in the order of their newest notices
    expected: list[int | None] = []
    for game_id in games:
        if game_id is None or game_id not in expected:
            expected.append(game_id)
    assert len(rows) == len(expected) == 3
    for row, game_id in zip(rows, expected, strict=True):
        group = [n for n in notes if n.game_id == game_id] if game_id else []
        if game_id is None:
            assert "dana" in row and "earlier notice" not in row
            continue
        newest, earlier = group[0], group[1:]
        assert row.index(newest.text) < row.index("<details") if earlier else newest.text in row
        if earlier:
            count = len(earlier)
            word = "notice" if count == 1 else "notices"
            assert f"{count} earlier {word} from this table" in row
            folded = row.split("<details", 1)[1]
            assert all(n.text in folded for n in earlier)


def test_mark_read_on_a_row_marks_every_notice_of_that_table(trio, make_user):
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)  # each join tells the creator: two unread notices
    services.game_join(carol, game.pk)
    friend_request_send(make_user("dana"), alice)
    client = Client()
    client.force_login(alice)
    row = _rows(client.get("/notifications/").content.decode())[1]
    assert f'name="game" value="{game.pk}"' in row
    assert Notification.objects.filter(user=alice, game_id=game.pk, read_at=None).count() == 2

    answer = client.post("/notifications/read/", _form_fields(row))
    assert answer.status_code == 302 and answer["Location"] == "/notifications/"
    assert not Notification.objects.filter(user=alice, game_id=game.pk, read_at=None).exists()
    # the friend request is another row: still unread
    assert Notification.objects.filter(user=alice, game_id=None, read_at=None).count() == 1


def _form_fields(row: str) -> dict[str, str]:
    form = row.split("<form", 1)[1].split("</form>", 1)[0]
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
    fields.pop("csrfmiddlewaretoken", None)
    return fields


def test_a_table_with_more_notices_than_a_page_is_one_row_on_one_page(alice):
    """Pages count rows, not notices: a table's 120 notices were a row on page 1 and the same
    table again on page 2."""
    notices = [
        notifications.Notice(alice, Notification.Kind.TABLE, f"Note {i} about table 7.", game_id=7)
        for i in range(120)
    ]
    for i in range(0, 120, 10):  # ten at a time: each batch a moment later than the last
        notifications.notify_all(notices[i : i + 10])
    notifications.notify_all([notifications.Notice(alice, Notification.Kind.REPORT, "Reviewed.")])
    for i in range(100):  # 100 more tables, older than table 7's notices
        Notification.objects.create(
            user=alice,
            kind=Notification.Kind.TABLE,
            text=f"Old news of table {1000 + i}.",
            game_id=1000 + i,
            created_at=timezone.now() - timedelta(days=2, minutes=i),
        )
    client = Client()
    client.force_login(alice)
    first = client.get("/notifications/").content.decode()
    rows = _rows(first)
    assert len(rows) == 100
    assert "Reviewed." in rows[0] and "Note 119 about table 7." in rows[1]
    assert "119 earlier notices from this table" in rows[1]
    assert sum("about table 7" in row for row in rows) == 1
    second = client.get("/notifications/?page=2").content.decode()
    assert "about table 7" not in second
    assert [
        ("Old news of table 1098" in r, "Old news of table 1099" in r) for r in _rows(second)
    ] == [
        (True, False),
        (False, True),
    ]

    answer = client.post("/notifications/read/", _form_fields(rows[1]))
    assert answer["Location"] == "/notifications/"
    assert not Notification.objects.filter(user=alice, game_id=7, read_at=None).exists()
    assert Notification.objects.filter(user=alice, game_id=None, read_at=None).count() == 1


def test_older_notices_are_on_the_next_pages(alice):
    notices = [
        notifications.Notice(alice, Notification.Kind.REPORT, f"Report number {i} was reviewed.")
        for i in range(130)
    ]
    for i in range(0, 130, 10):  # ten at a time: each batch a moment later than the last
        notifications.notify_all(notices[i : i + 10])
    client = Client()
    client.force_login(alice)

    first = client.get("/notifications/").content.decode()
    assert len(_rows(first)) == 100
    assert "Report number 129 was" in first and "Report number 29 was" not in first
    assert 'rel="next" href="?page=2"' in first and 'rel="prev"' not in first

    second = client.get("/notifications/?page=2").content.decode()
    assert len(_rows(second)) == 30
    assert "Report number 29 was" in second and "Report number 0 was" in second
    assert "Report number 30 was" not in second
    assert 'rel="prev" href="?page=1"' in second and 'rel="next"' not in second
    # a page past the end shows the last one, not an error
    assert "Report number 0 was" in client.get("/notifications/?page=9").content.decode()


def test_a_long_tables_row_folds_its_newest_fifty_and_counts_and_marks_the_rest(alice, monkeypatch):
    """The page read every earlier notice of each table to fold 50 (a player at 50 tables:
    thousands of rows and ~100 KB of page, phone review). It folds the newest 50, counts them
    all, and an unread one past the 50 still marks the row unread."""
    notices = [
        notifications.Notice(alice, Notification.Kind.TABLE, f"Note {i} about table 7.", game_id=7)
        for i in range(120)
    ]
    for i in range(0, 120, 10):  # ten at a time: each batch a moment later than the last
        notifications.notify_all(notices[i : i + 10])
    oldest, *newer = Notification.objects.filter(user=alice).order_by("created_at", "pk")
    assert oldest.text == "Note 0 about table 7."
    notifications.mark_read(alice, [n.pk for n in newer])  # all but the oldest, as the page does
    client = Client()
    client.force_login(alice)
    loaded = []  # the notices the page read from the database
    from_db = Notification.from_db.__func__  # type: ignore[attr-defined]

    def counted(cls, *args, **kwargs):
        loaded.append(1)
        return from_db(cls, *args, **kwargs)

    monkeypatch.setattr(Notification, "from_db", classmethod(counted))
    (row,) = _rows(client.get("/notifications/").content.decode())
    assert len(loaded) <= 1 + 50 + 10, f"{len(loaded)} notices read for a row and its 50"
    folded = row.split('<ul class="earlier">', 1)[1].split("</ul>", 1)[0]
    assert "119 earlier notices from this table" in row
    assert folded.count("<li") == 50
    assert "Note 118 about table 7." in folded and "Note 69 about table 7." in folded
    assert "Note 68 about table 7." not in folded
    assert row.startswith(' class="unread"'), "the unread oldest notice marks its row"
