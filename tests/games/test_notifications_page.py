"""The notifications page: one row per table (its newest notice, the earlier ones folded under
it), a friend request on its own, "Mark read" for a whole table, and older pages."""

from __future__ import annotations

import random
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.utils import timezone

from accounts import notifications
from accounts.models import Notification
from accounts.selectors import EARLIER_SHOWN, NOTICES_PAGE
from accounts.services import friend_request_send
from games import services
from games.models import Game
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db


def _rows(html: str) -> list[str]:
    listing = html.split('class="card-list notice-groups"', 1)[1]
    # not a folded list's end (which its link to the table's own page may follow)
    folded_end = r"</ul>(?!\s*(?:<p class=\"all-notices\">.*\s*)?</details>)"
    listing = re.split(folded_end, listing, maxsplit=1)[0]
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
    for i in range(NOTICES_PAGE):  # a page's worth more tables, older than table 7's notices
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
    assert len(rows) == NOTICES_PAGE
    assert "Reviewed." in rows[0] and "Note 119 about table 7." in rows[1]
    assert "119 earlier notices from this table" in rows[1]
    assert sum("about table 7" in row for row in rows) == 1
    second = client.get("/notifications/?page=2").content.decode()
    assert "about table 7" not in second
    last, oldest = 1000 + NOTICES_PAGE - 2, 1000 + NOTICES_PAGE - 1
    assert [
        (f"Old news of table {last}." in r, f"Old news of table {oldest}." in r)
        for r in _rows(second)
    ] == [
        (True, False),
        (False, True),
    ]

    answer = client.post("/notifications/read/", _form_fields(rows[1]))
    assert answer["Location"] == "/notifications/"
    assert not Notification.objects.filter(user=alice, game_id=7, read_at=None).exists()
    assert Notification.objects.filter(user=alice, game_id=None, read_at=None).count() == 1


def test_older_notices_are_on_the_next_pages(alice):
    rest = NOTICES_PAGE // 2  # the second page's
    total = NOTICES_PAGE + rest
    notices = [
        notifications.Notice(alice, Notification.Kind.REPORT, f"Report number {i} was reviewed.")
        for i in range(total)
    ]
    for i in range(0, total, 5):  # five at a time: each batch a moment later than the last
        notifications.notify_all(notices[i : i + 5])
    client = Client()
    client.force_login(alice)

    first = client.get("/notifications/").content.decode()
    assert len(_rows(first)) == NOTICES_PAGE
    assert f"Report number {total - 1} was" in first
    assert f"Report number {rest - 1} was" not in first
    assert 'rel="next" href="?page=2"' in first and 'rel="prev"' not in first

    second = client.get("/notifications/?page=2").content.decode()
    assert len(_rows(second)) == rest
    assert f"Report number {rest - 1} was" in second and "Report number 0 was" in second
    assert f"Report number {rest} was" not in second
    assert 'rel="prev" href="?page=1"' in second and 'rel="next"' not in second
    # a page past the end shows the last one, not an error
    assert "Report number 0 was" in client.get("/notifications/?page=9").content.decode()


def test_a_long_tables_row_folds_its_newest_few_and_counts_and_marks_the_rest(alice, monkeypatch):
    """The page read every earlier notice of each table to fold 50 (a player at 50 tables:
    thousands of rows and ~100 KB of page, phone review). It folds the newest few, counts them
    all, links to the table's own page for the rest, and an unread one left out still marks
    the row unread."""
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
    assert len(loaded) <= 1 + EARLIER_SHOWN + 10, f"{len(loaded)} notices read for a row"
    folded = row.split('<ul class="earlier">', 1)[1].split("</ul>", 1)[0]
    assert "119 earlier notices from this table" in row
    assert folded.count("<li") == EARLIER_SHOWN
    last_folded = 119 - EARLIER_SHOWN
    assert "Note 118 about table 7." in folded
    assert f"Note {last_folded} about table 7." in folded
    assert f"Note {last_folded - 1} about table 7." not in folded
    assert '<a href="/notifications/table/7/">All notices from this table</a>' in row
    assert row.startswith(' class="unread"'), "the unread oldest notice marks its row"


def _tables_of_notices(alice, tables: int, each: int) -> None:
    """``each`` notices at each of ``tables`` tables (ids 2000…), every table's oldest unread
    and the others read, as after a player read them at the table."""
    for n in range(each):
        notifications.notify_all(
            [
                notifications.Notice(
                    alice,
                    Notification.Kind.TABLE,
                    f"Quick! Mogel Motte #{2000 + t} needs your answer (number {n}).",
                    game_id=2000 + t,
                    url=f"/games/{2000 + t}/",
                )
                for t in range(tables)
            ]
        )
    oldest = [
        Notification.objects.filter(user=alice, game_id=2000 + t).order_by("created_at", "pk")[0]
        for t in range(tables)
    ]
    read = Notification.objects.filter(user=alice).exclude(pk__in=[n.pk for n in oldest])
    notifications.mark_read(alice, list(read.values_list("pk", flat=True)))


def test_the_page_of_a_player_at_many_tables_stays_small(alice):
    """At 60 tables with 20 notices each the page folded 50 of each table's and listed 100
    tables: ~300 KB to a phone. Now a page lists NOTICES_PAGE tables with their newest few
    each; counts and unread marks still count every notice."""
    _tables_of_notices(alice, tables=60, each=20)
    client = Client()
    client.force_login(alice)
    page = client.get("/notifications/").content
    assert len(page) < 40_000, f"{len(page)} bytes"
    rows = _rows(page.decode())
    assert len(rows) == NOTICES_PAGE
    for row in rows:
        assert "19 earlier notices from this table" in row
        assert row.count("needs your answer") == 1 + EARLIER_SHOWN
        assert "(number 0)" not in row  # the oldest, left out ...
        assert row.startswith(' class="unread"')  # ... still marks its table unread
        assert re.search(r'<a href="/notifications/table/20\d\d/">All notices from this', row)
    assert 'rel="next" href="?page=2"' in page.decode()


def test_a_tables_own_page_has_all_its_notices_a_page_at_a_time(alice, bob):
    _tables_of_notices(alice, tables=2, each=60)
    client = Client()
    client.force_login(alice)
    first = client.get("/notifications/table/2000/").content.decode()
    assert first.count("Mogel Motte #2000 needs") == 50 and "#2001" not in first
    assert "(number 59)" in first and "(number 10)" in first and "(number 9)" not in first
    assert 'rel="next" href="?page=2"' in first
    second = client.get("/notifications/table/2000/?page=2").content.decode()
    assert second.count("Mogel Motte #2000 needs") == 10
    unread = re.findall(r'<li class="unread">.*?</li>', second, re.S)
    assert len(unread) == 1 and "(number 0)" in unread[0]

    form = second.split('<form method="post" action="/notifications/read/">', 1)[1]
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.split("</form>", 1)[0]))
    fields.pop("csrfmiddlewaretoken")
    answer = client.post("/notifications/read/", fields)
    assert answer["Location"] == "/notifications/table/2000/?page=2"
    assert not Notification.objects.filter(user=alice, game_id=2000, read_at=None).exists()
    assert Notification.objects.filter(user=alice, game_id=2001, read_at=None).count() == 1

    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"  # the language menu
    persian = client.get("/notifications/table/2001/").content.decode()
    assert '<html lang="fa" dir="rtl">' in persian and "اعلان‌های میز #2001" in persian

    stranger = Client()
    stranger.force_login(bob)  # none of these notices are bob's
    assert stranger.get("/notifications/table/2000/").status_code == 404


STALE = "Nothing was marked read: this page was out of date. Here are your notices as they are now."


def test_mark_read_from_a_page_drawn_before_notices_had_names_marks_nothing_and_says_so(
    alice, make_user
):
    """A page drawn before the last release posts a notice's row number: it matched nothing,
    and the answer was "Marked as read." The row number is not taken (taken, it would tell a
    player which numbers are their notices: what the names hide); the answer says the page
    was out of date and shows the notices as they are."""
    friend_request_send(make_user("dana"), alice)
    (note,) = Notification.objects.filter(user=alice, read_at=None)
    client = Client()
    client.force_login(alice)

    answer = client.post("/notifications/read/", {"id": str(note.pk), "page": "1"}, follow=True)

    assert [str(m) for m in answer.context["messages"]] == [STALE]
    assert answer.redirect_chain == [("/notifications/", 302)]
    assert Notification.objects.get(pk=note.pk).read_at is None
    assert 'class="badge">1<' in answer.content.decode()  # the list now: still unread
    # another player's row number: the same answer, and their notice stays as it was
    friend_request_send(make_user("emil"), make_user("fritz"))
    (theirs,) = Notification.objects.exclude(user=alice)
    answer = client.post("/notifications/read/", {"id": str(theirs.pk), "page": "1"}, follow=True)
    assert [str(m) for m in answer.context["messages"]] == [STALE]
    assert Notification.objects.get(pk=theirs.pk).read_at is None


def test_mark_read_of_notices_read_meanwhile_says_nothing_was_marked(alice, make_user):
    """Read in another tab (or all of them marked there): "Marked as read." for nothing."""
    friend_request_send(make_user("dana"), alice)
    client = Client()
    client.force_login(alice)
    row = _rows(client.get("/notifications/").content.decode())[0]
    notifications.mark_read(alice)  # another tab's "Mark all as read"

    for fields in (_form_fields(row), {}):
        answer = client.post("/notifications/read/", fields, follow=True)
        assert [str(m) for m in answer.context["messages"]] == [STALE], fields


def test_mark_read_that_marks_says_so(alice, make_user):
    friend_request_send(make_user("dana"), alice)
    client = Client()
    client.force_login(alice)
    row = _rows(client.get("/notifications/").content.decode())[0]

    answer = client.post("/notifications/read/", _form_fields(row), follow=True)

    assert [str(m) for m in answer.context["messages"]] == ["Marked as read."]
    assert not Notification.objects.filter(user=alice, read_at=None).exists()
