"""A table that starts when full: the last seat taken starts the game (a daily table's creator
need not come back to press Start), its creator hears so, and Live tables, which wait for
everyone to be ready, never start by themselves."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import Notification
from games import services
from games.engines import registry
from games.models import Game, Invitation, Pace

pytestmark = pytest.mark.django_db


def _table(creator, **options) -> Game:
    return services.game_create(
        creator, engine="mogel-motte", seats=3, invite=["bob", "carol"], **options
    )


def _joined(game: Game, *players) -> Game:
    """``game`` as it stands once ``players`` took their seats, one after the other."""
    for player in players:
        services.game_join(player, game.pk)
    return Game.objects.get(pk=game.pk)


def _first(seat: int) -> dict[str, int]:
    return {registry.get("mogel-motte").start_option: seat}


def test_the_last_seat_starts_the_game_and_its_creator_hears_so(trio):
    alice, bob, carol = trio
    game = _table(alice, start_when_full=True, options=_first(1))  # bob plays first
    services.game_join(bob, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.LOBBY  # one seat is still free

    services.game_join(carol, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert game.started_at is not None and game.seed != 0
    seats = list(game.seats.order_by("index"))
    assert [s.user_id for s in seats] == [alice.pk, bob.pk, carol.pk]
    assert not any(s.is_bot for s in seats)
    assert game.state is not None and game.wait_kind == "turn"
    assert set(game.invitations.values_list("status", flat=True)) == {Invitation.Status.ACCEPTED}
    # the notice of the last seat says the game began, and stays unread (the earlier ones,
    # of a table that waited on her, are done with)
    unread = Notification.objects.filter(
        user=alice, kind=Notification.Kind.TABLE, read_at__isnull=True
    )
    assert [n.text for n in unread] == [
        f"{carol.name} took the last seat at your table of Mogel Motte #{game.pk}: "
        "the game has started."
    ]


def test_a_creator_whose_turn_opens_the_game_gets_only_that_turns_notice(trio):
    alice, bob, carol = trio
    game = _table(alice, start_when_full=True, options=_first(0))
    game = _joined(game, bob, carol)
    assert game.status == Game.Status.ACTIVE and game.wait_seat == 0
    unread = Notification.objects.filter(user=alice, read_at__isnull=True)
    assert [n.kind for n in unread] == [Notification.Kind.YOUR_TURN]


def test_without_the_option_a_full_table_waits_for_its_creator(trio):
    alice, bob, carol = trio
    game = _table(alice)
    game = _joined(game, bob, carol)
    assert game.status == Game.Status.LOBBY
    services.game_start(alice, game.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_live_table_never_starts_by_itself(trio):
    alice, bob, carol = trio
    game = _table(alice, pace=Pace.LIVE, start_when_full=True)
    assert game.start_when_full is False  # Live tables start when everyone is ready
    game = _joined(game, bob, carol)
    assert game.status == Game.Status.LOBBY


def test_the_form_offers_it_by_default_and_the_joiner_is_told(trio):
    alice, bob, carol = trio
    page = Client()
    page.force_login(alice)
    form = page.get("/games/new/").content.decode()
    box = re.search(r'<input type="checkbox" name="start_when_full"[^>]*>', form)
    assert box is not None and " checked" in box.group(0)
    made = page.post(
        "/games/new/",
        {
            "game": "mogel-motte",
            "seats": 3,
            "pace": Pace.DAILY,
            "join_policy": Game.JoinPolicy.INVITED,
            "bots": 0,
            "invite": ["bob", "carol"],
            "start_when_full": "on",
        },
    )
    game = Game.objects.get(created_by=alice)
    assert made.status_code == 302 and made["Location"] == f"/games/{game.pk}/"
    assert game.start_when_full is True
    lobby = page.get(f"/games/{game.pk}/").content.decode()
    assert "The game starts as soon as every seat is taken." in lobby

    services.game_join(bob, game.pk)
    joiner = Client()
    joiner.force_login(carol)
    answer = joiner.post(f"/games/{game.pk}/join/", follow=True)
    assert "You took the last seat: the game has started." in answer.content.decode()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_a_rematch_keeps_the_choice(trio):
    from tests.games.helpers import play_to_the_end

    alice, bob, carol = trio
    game = _table(alice, start_when_full=True)
    services.game_join(bob, game.pk)
    services.game_join(carol, game.pk)
    play_to_the_end(Game.objects.get(pk=game.pk))
    again, _made = services.game_rematch(alice, game.pk)
    assert again.start_when_full is True
    again = _joined(again, bob, carol)
    assert again.status == Game.Status.ACTIVE


def test_the_api_takes_it(trio):
    alice, bob, carol = trio
    from accounts.services import api_token_create

    _row, token = api_token_create(alice, "test")
    api = Client(headers={"Authorization": f"Bearer {token}"})
    made = api.post(
        "/api/games",
        {"game": "mogel-motte", "seats": 3, "invite": ["bob", "carol"], "start_when_full": True},
        content_type="application/json",
    )
    assert made.status_code == 201, made.content
    game = Game.objects.get(pk=made.json()["id"])
    assert game.start_when_full is True
    services.game_join(bob, game.pk)
    _row, carols = api_token_create(carol, "test")
    joined = Client(headers={"Authorization": f"Bearer {carols}"}).post(
        f"/api/games/{game.pk}/join"
    )
    assert joined.status_code == 200, joined.content
    assert joined.json()["status"] == "active"


def test_the_api_refuses_it_at_live_pace_and_makes_nothing(trio):
    alice, _bob, _carol = trio
    from accounts.services import api_token_create

    _row, token = api_token_create(alice, "test")
    api = Client(headers={"Authorization": f"Bearer {token}"})
    before = Game.objects.count()
    asked = {"game": "mogel-motte", "seats": 3, "pace": "live", "start_when_full": True}
    refused = api.post("/api/games", asked, content_type="application/json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["code"] == "live_starts_when_ready"
    assert "ready" in refused.json()["error"]
    assert Game.objects.count() == before
    made = api.post(
        "/api/games", {**asked, "start_when_full": False}, content_type="application/json"
    )
    assert made.status_code == 201, made.content


def test_the_lists_say_which_tables_start_when_full(trio, make_user):
    alice, bob, _carol = trio
    stranger = make_user("dana")
    soon = services.game_create(
        alice,
        engine="mogel-motte",
        seats=3,
        join_policy=Game.JoinPolicy.ANYONE,
        start_when_full=True,
    )
    later = services.game_create(
        alice, engine="imperador", seats=3, join_policy=Game.JoinPolicy.ANYONE
    )
    page = Client()
    page.force_login(stranger)
    listed = page.get("/games/open/").content.decode()
    rows = {game.pk: re.search(rf"#{game.pk}</a>.*?</li>", listed, re.S) for game in (soon, later)}
    assert rows[soon.pk] and "starts when full" in rows[soon.pk].group(0)
    assert rows[later.pk] and "starts when full" not in rows[later.pk].group(0)

    services.game_join(stranger, soon.pk)
    mine = page.get("/games/").content.decode()
    row = re.search(rf"#{soon.pk}</a>.*?</li>", mine, re.S)
    assert row and "starts when full" in row.group(0)

    services.game_join(bob, soon.pk)  # the last seat: the table plays
    assert Game.objects.get(pk=soon.pk).status == Game.Status.ACTIVE


def test_a_double_click_on_the_last_seat_is_told_it_has_a_seat(trio):
    alice, bob, carol = trio
    game = _table(alice, start_when_full=True)
    services.game_join(bob, game.pk)
    page = Client()
    page.force_login(carol)
    first = page.post(f"/games/{game.pk}/join/", follow=True).content.decode()
    second = page.post(f"/games/{game.pk}/join/", follow=True).content.decode()
    assert "You took the last seat: the game has started." in first
    assert "You already have a seat at this table." in second
    assert "already started" not in second
    assert game.seats.filter(user=carol).count() == 1


def test_a_table_full_of_bots_from_the_start_begins_at_once(trio):
    alice, _bob, _carol = trio
    page = Client()
    page.force_login(alice)
    answer = page.post(
        "/games/new/",
        {
            "game": "mogel-motte",
            "seats": 3,
            "pace": Pace.DAILY,
            "join_policy": Game.JoinPolicy.INVITED,
            "bots": 2,
            "start_when_full": "on",
        },
        follow=True,
    )
    game = Game.objects.get(created_by=alice)
    assert game.status == Game.Status.ACTIVE
    assert "The game has started." in answer.content.decode()


def test_the_start_ends_the_invitations_still_open(trio, make_user):
    from accounts.services import friendship_create

    alice, bob, carol = trio
    dave = make_user("dave")
    friendship_create(alice, dave)
    game = services.game_create(
        alice,
        engine="mogel-motte",
        seats=3,
        invite=["bob", "carol"],
        join_policy=Game.JoinPolicy.FRIENDS,
        start_when_full=True,
    )
    game = _joined(game, dave, bob)  # a friend not invited, then bob: carol's is left open
    assert game.status == Game.Status.ACTIVE
    assert game.invitations.get(to_user=carol).status == Invitation.Status.CANCELLED
    assert not Notification.objects.filter(
        user=carol, kind=Notification.Kind.INVITATION, read_at__isnull=True
    ).exists()
