"""SQL round trips of the hot paths, counted exactly: adding a query fails these tests.

Inside the test's transaction, ``transaction.atomic`` is a SAVEPOINT / RELEASE pair: they
stand for the BEGIN and COMMIT a request makes on its own.
"""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.services import api_token_create
from config.statements import described
from games.api import GameOut, MoveOut
from games.models import Event, Game, Seat
from tests.games.helpers import (
    a_move_that_ends_the_turn,
    next_human_move,
    play_one_step,
    seat_users,
    turn_game,
)


@pytest.fixture(autouse=True)
def _own_cache(settings):
    """A cache of this process only: parallel test workers flush the shared Redis between
    tests (tests/conftest.py), which would drop a cached token in the middle of a count."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


def _sql(captured: CaptureQueriesContext) -> list[str]:
    return [q["sql"] for q in captured.captured_queries]


def _api_client(user) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(user, 'bench')[1]}")


def _counted_move(game: Game, seat: int, action: dict) -> tuple[dict, dict, list[str]]:
    """(the game before, the answer, the SQL of the move's POST) for one API move."""
    client = _api_client(seat_users(game)[seat])
    before = client.get(f"/api/games/{game.pk}").json()  # the token is cached from here on
    with CaptureQueriesContext(connection) as captured:
        response = client.post(
            f"/api/games/{game.pk}/actions",
            {"version": before["version"], "action": action, "key": "k1"},
            content_type="application/json",
        )
    assert response.status_code == 200, response.content
    return before, response.json(), _sql(captured)


@pytest.mark.django_db
def test_a_move_is_four_round_trips(started):
    game = started()
    seat, action = next_human_move(game, random.Random(3))
    before, body, sql = _counted_move(game, seat, action)
    # BEGIN; the game locked with its seats, players and the key check; the writes; COMMIT.
    # The mover's seat row is not written: nothing of it changed.
    assert len(sql) == 4, "\n".join(sql)
    assert sql[0].startswith("SAVEPOINT") and sql[-1].startswith("RELEASE SAVEPOINT")
    # the game row locked first; the seats and the key check start once the lock is held
    locked, seats, key_check = described(sql[1])
    assert locked.endswith("FOR NO KEY UPDATE") and '"games_game"' in locked
    assert '"games_seat"' in seats and '"games_event"' in key_check
    # the event, the game's row, the older wait notices marked read, the new turn notice
    event, game_row, superseded, notice = described(sql[2])
    assert event.startswith('INSERT INTO "games_event"')
    assert game_row.startswith('UPDATE "games_game"')
    assert superseded.startswith('UPDATE "accounts_notification" SET read_at')
    assert notice.startswith('INSERT INTO "accounts_notification"')
    assert body["version"] == before["version"] + 1
    assert body["players"] == before["players"]
    # encoded without ninja's validation: still exactly the documented fields
    assert set(before) == set(GameOut.model_fields)
    assert set(body) == set(MoveOut.model_fields) == set(GameOut.model_fields) | {"replayed"}
    assert body["replayed"] is False


@pytest.mark.django_db
def test_a_move_after_a_missed_deadline_also_clears_the_seats_count(started, monkeypatch):
    from datetime import timedelta

    from django.utils import timezone

    from games import services
    from games.engines import registry

    game = turn_game(started)
    engine, rng, users = registry.get(game.engine), random.Random(3), seat_users(game)
    (seat,) = engine.waiting_for(game.state).seats
    late = game.deadline_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: late)  # the seat's time runs out
    assert services.apply_deadline(game.pk)
    for _ in range(200):  # the others play until the seat is asked again
        game.refresh_from_db()
        if seat in engine.waiting_for(game.state).seats and engine.may_act(game.state, seat):
            break
        play_one_step(game, users, rng)
    assert Seat.objects.get(game=game, index=seat).consecutive_timeouts == 1
    # a move that ends the turn (a peek does not: the pass after it is the same turn)
    _before, _body, sql = _counted_move(game, seat, a_move_that_ends_the_turn(game, seat))
    assert len(sql) == 5, "\n".join(sql)  # the four above and the seat's row
    assert sql[2].startswith('UPDATE "games_seat"')
    assert Seat.objects.get(game=game, index=seat).consecutive_timeouts == 0


@pytest.mark.django_db
def test_the_same_key_again_is_two_round_trips_more_and_no_move(started):
    game = started()
    seat, action = next_human_move(game, random.Random(3))
    client = _api_client(seat_users(game)[seat])
    version = client.get(f"/api/games/{game.pk}").json()["version"]
    move = {"version": version, "action": action, "key": "again"}
    first = client.post(f"/api/games/{game.pk}/actions", move, content_type="application/json")
    with CaptureQueriesContext(connection) as captured:
        again = client.post(f"/api/games/{game.pk}/actions", move, content_type="application/json")
    assert first.status_code == again.status_code == 200
    assert again.json()["version"] == first.json()["version"]
    assert len(_sql(captured)) == 3  # BEGIN, the lock (which finds the key), COMMIT
    assert Event.objects.filter(game=game, key="again").count() == 1


@pytest.mark.django_db
def test_the_api_game_is_one_query(started):
    game = started()
    client = _api_client(seat_users(game)[0])
    client.get(f"/api/games/{game.pk}")
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/api/games/{game.pk}").status_code == 200
    assert len(_sql(captured)) == 1, "\n".join(_sql(captured))


@pytest.mark.django_db
def test_a_page_of_events_is_two_queries(started):
    game = started()
    client = _api_client(seat_users(game)[0])
    client.get(f"/api/games/{game.pk}")
    with CaptureQueriesContext(connection) as captured:
        assert client.get(f"/api/games/{game.pk}/events?after=0").status_code == 200
    assert len(_sql(captured)) == 2, "\n".join(_sql(captured))


@pytest.mark.django_db
def test_a_revoked_token_is_refused_at_once(started):
    from accounts.models import ApiToken
    from accounts.services import api_token_revoke

    game = started()
    alice = seat_users(game)[0]
    token, raw = api_token_create(alice, "t")
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    assert client.get(f"/api/games/{game.pk}").status_code == 200  # cached now
    api_token_revoke(alice, ApiToken.objects.get(pk=token.pk))
    assert client.get(f"/api/games/{game.pk}").status_code == 401


@pytest.mark.django_db
def test_a_banned_players_cached_token_is_refused_at_once(started, admin_user):
    from accounts.services import user_ban

    game = started()
    alice = seat_users(game)[0]
    client = _api_client(alice)
    assert client.get(f"/api/games/{game.pk}").status_code == 200
    user_ban(admin_user, alice, "spam")
    refused = client.get(f"/api/games/{game.pk}")
    assert (refused.status_code, refused.json()["code"]) == (403, "account_suspended")
    assert Game.objects.filter(pk=game.pk).exists()


def _page_queries(client: Client, url: str) -> list[str]:
    client.get(url)  # the once-a-minute "last seen" write happens here, not below
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return _sql(captured)


@pytest.mark.django_db
def test_the_table_page_query_count(started):
    game = started()
    client = Client()
    client.force_login(seat_users(game)[0])
    sql = _page_queries(client, f"/games/{game.pk}/")
    # session, player, the game with its seats and players, notices marked read, the log,
    # the bell's unread count
    # 6 for the table itself, + the table talk (read mark upsert, messages) and the live-pace log
    assert len(sql) == 9, "\n".join(sql)


@pytest.mark.django_db
def test_a_page_of_my_games_query_count(started, alice, bob):
    for _ in range(3):
        started()
    from games import services

    services.game_create(alice, engine="imperador", seats=3, invite=["bob"])
    services.game_create(bob, engine="imperador", seats=3, invite=["alice"])
    client = Client()
    client.force_login(alice)
    sql = _page_queries(client, "/games/")
    # session, player; invitations; the open games (your move, waiting on others, gathering
    # players); a page of finished games; the players of every listed or inviting table; who
    # is invited to the tables gathering players; the bell
    # 8 for the lists, + the unread table talk (one query) and the stamp's seats (the page's
    # invitations serve its invitations)
    assert len(sql) == 10, "\n".join(sql)
    page = client.get("/games/").content.decode()
    assert page.count("</strong> #") == 4
    # more invitations and tables gathering players: not one query more
    services.game_create(bob, engine="cockroach-poker-royal", seats=4, invite=["alice"])
    services.game_create(alice, engine="cockroach-poker-royal", seats=4, invite=["bob"])
    assert len(_page_queries(client, "/games/")) == 10


@pytest.mark.django_db
def test_finished_games_come_a_page_at_a_time_newest_first(alice):
    from games import selectors, services

    ids = []
    for _ in range(selectors.MY_GAMES_FINISHED_PAGE + 2):
        game = services.game_create(alice, engine="imperador", seats=3)
        services.game_cancel(alice, game.pk)
        ids.append(game.pk)
    first = selectors.my_games(alice)
    assert [g.pk for g in first.finished] == ids[::-1][: selectors.MY_GAMES_FINISHED_PAGE]
    assert first.older == first.finished[-1].pk
    second = selectors.my_games(alice, before=first.older)
    assert [g.pk for g in second.finished] == ids[:2][::-1]
    assert second.older is None
    client = Client()
    client.force_login(alice)
    page = client.get(f"/games/?before={first.older}").content.decode()
    assert f"#{ids[0]}</a>" in page and f"#{ids[-1]}</a>" not in page


@pytest.mark.django_db
@pytest.mark.parametrize("engine_name", ["imperador", "mogel-motte"])
@pytest.mark.slow
def test_your_move_follows_a_window_seat_by_seat(started, engine_name):
    """A reaction window waits on several seats: each is listed under "your move" until it
    answered, and no longer after (wait_mask), without the others' answers showing."""
    from games import selectors, services
    from games.engines import registry

    rng = random.Random(5)
    partly_answered = 0  # windows seen after some of their seats answered, others still owing
    for _table in range(5):
        game = started(engine_name)
        engine = registry.get(game.engine)
        users = seat_users(game)
        owing: set[int] = set()
        wait_seq = None
        for _ in range(200):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            waiting = engine.waiting_for(game.state)
            # the same window, some seats off it by their answers (the set may also grow back
            # within a window: a card returned by an accusation)
            if (
                waiting.kind == "window"
                and game.wait_seq == wait_seq
                and set(waiting.seats) < owing
            ):
                partly_answered += 1
            owing, wait_seq = set(waiting.seats), game.wait_seq
            for seat, user in users.items():
                listed = {g.pk for g in selectors.my_games(user).mine}
                assert (game.pk in listed) == (seat in waiting.seats), (seat, waiting)
            seat, action = next_human_move(game, rng)
            services.act(users[seat], game.pk, game.version_for(seat), action)
        if partly_answered >= 3:
            break
    assert partly_answered >= 3, "no window was seen part-answered"
