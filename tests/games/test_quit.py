"""Leaving a game in play: the page asks first, the bot plays the seat to the end at once (the
others do not wait a whole deadline for it), the others hear who left, the seat is not the
player's to take back, and their record counts the game as abandoned."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts import email_queue
from accounts.models import Notification
from accounts.services import api_token_create
from games import selectors, services
from games.engines import registry
from games.errors import GameError, NotActive, NotAllowed
from games.models import Event, Game, PlayerRecord, Seat
from tests.games.helpers import (
    miss_until_the_bot_plays,
    play_to_the_end,
    seat_users,
    to_the_show_of_hands,
    turn_game,
)

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def on_turn(game: Game) -> int:
    return registry.get(game.engine).waiting_for(game.state).seats[0]


def test_the_page_asks_then_the_bot_plays_the_seat_at_once(started):
    game = turn_game(started)
    mover = on_turn(game)
    users = seat_users(game)
    leaver = users[mover]
    client = client_for(leaver)
    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    assert f'action="/games/{game.pk}/quit/"' in page and "Leave the game</button>" in page

    moves_before = Event.objects.filter(game=game, seat=mover).count()
    asked = client.post(reverse("games:command", args=[game.pk, "quit"]))
    assert asked.status_code == 200, "without JavaScript the site asks on a page of its own"
    assert "Leave the game?" in asked.content.decode()
    assert "Yes, leave the game" in asked.content.decode()
    assert not Seat.objects.get(game=game, index=mover).is_bot, "asking changed nothing"

    done = client.post(reverse("games:command", args=[game.pk, "quit"]), {"confirmed": "1"})
    assert done.url == reverse("games:table", args=[game.pk])
    said = [str(m) for m in get_messages(done.wsgi_request)]
    assert said == ["You left the game; the bot plays your seat to the end."]
    seat = Seat.objects.get(game=game, index=mover)
    assert (seat.is_bot, seat.bot_reason, seat.reclaimable) == (True, "left", False)
    game.refresh_from_db()
    assert Event.objects.filter(game=game, seat=mover).count() == moves_before + 1, (
        "the bot made the turn the others were waiting on, at once"
    )
    assert game.status != Game.Status.ACTIVE or not (
        game.wait_kind == "turn" and game.wait_seat == mover
    )

    heard = {
        n.user_id: n.text for n in Notification.objects.filter(kind=Notification.Kind.SEAT_TO_BOT)
    }
    others = [u for i, u in users.items() if i != mover]
    assert sorted(heard) == sorted(u.pk for u in others), "the others hear it, not the leaver"
    assert all(f"{leaver.name} left" in text for text in heard.values())

    page = client.get(reverse("games:table", args=[game.pk])).content.decode()
    assert "Leave the game</button>" not in page and "Take back my seat" not in page
    with pytest.raises(GameError, match="not yours to take back"):
        services.seat_reclaim(leaver, game.pk)


def test_a_seat_the_bot_already_plays_can_be_left_for_good(started, monkeypatch):
    game = turn_game(started)
    alice = seat_users(game)[0]
    game = miss_until_the_bot_plays(game, {0}, monkeypatch)
    assert Seat.objects.get(game=game, index=0).bot_reason == "timeouts"
    assert (
        "Leave the game</button>"
        in client_for(alice).get(reverse("games:table", args=[game.pk])).content.decode()
    ), "a seat she may take back is still hers to leave"
    services.game_quit(alice, game.pk)
    seat = Seat.objects.get(game=game, index=0)
    assert (seat.is_bot, seat.bot_reason) == (True, "left")
    with pytest.raises(NotActive, match="You already left this game"):
        services.game_quit(alice, game.pk)


def test_the_record_counts_the_game_as_abandoned(started):
    game = turn_game(started)
    alice, bob = seat_users(game)[0], seat_users(game)[1]
    services.game_quit(alice, game.pk)
    play_to_the_end(Game.objects.get(pk=game.pk))
    left = PlayerRecord.objects.get(user=alice, engine=game.engine)
    stayed = PlayerRecord.objects.get(user=bob, engine=game.engine)
    assert (left.abandoned, left.played) == (1, 0)
    assert (stayed.abandoned, stayed.played) == (0, 1)


def test_the_api_leaves_a_game_and_refuses_what_cannot_be_left(started, make_user):
    game = turn_game(started)
    alice = seat_users(game)[0]
    _token, raw = api_token_create(alice, "script")

    def quit_() -> tuple[int, dict]:
        answer = Client().post(f"/api/games/{game.pk}/quit", HTTP_AUTHORIZATION=f"Bearer {raw}")
        return answer.status_code, json.loads(answer.content)

    status, body = quit_()
    assert status == 200 and body["id"] == game.pk
    assert body["players"][0] == f"{alice.name} (bot)" and body["legal_actions"] == []
    version = Game.objects.get(pk=game.pk).version
    status, body = quit_()
    assert (status, body["error"], body["code"]) == (409, "You already left this game.", "left")
    assert Game.objects.get(pk=game.pk).version == version, "a refusal leaves the game as it was"


def test_a_finished_game_or_a_stranger_has_nothing_to_leave(started, make_user):
    game = play_to_the_end(turn_game(started))
    with pytest.raises(NotActive):
        services.game_quit(seat_users(game)[0], game.pk)
    with pytest.raises(NotAllowed):
        services.game_quit(make_user("dave"), game.pk)


def test_a_seat_the_bot_plays_is_never_your_turn_in_my_games(started):
    """The bot holds a window's answer until its moment: the game waits on the seat meanwhile,
    but not on the player who left it."""
    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    leaver, stays = users[waiting.seats[0]], users[waiting.seats[1]]
    services.game_quit(leaver, game.pk)
    game.refresh_from_db()
    assert game.wait_window == "hands" and game.wait_mask & (1 << waiting.seats[0]), (
        "the bot has not answered yet: the wait still counts its seat"
    )
    assert [g.pk for g in selectors.my_games(stays).mine] == [game.pk]
    left = selectors.my_games(leaver)
    assert [g.pk for g in left.mine] == [] and [g.pk for g in left.others] == [game.pk]


def test_the_delayed_email_of_a_wait_is_not_sent_once_its_player_left(started, settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    users = seat_users(game)
    leaver, stays = users[waiting.seats[0]], users[waiting.seats[1]]
    services.game_quit(leaver, game.pk)  # the bot holds the seat's answer for its moment
    email_queue.sweep(timezone.now() + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY + 5))
    window = Notification.Kind.WINDOW
    state = {
        who: Notification.objects.get(user=who, game_id=game.pk, kind=window).email
        for who in (leaver, stays)
    }
    assert state == {leaver: Notification.Email.SKIPPED, stays: Notification.Email.SENT}
    assert [m.to for m in mail.outbox] == [[stays.email]]


def test_a_player_who_left_is_told_the_result_not_congratulated_on_the_bots_win(started):
    """ "You won at …!" went to a player whose seat the bot played to a win after they left
    (mail review). Three-player Cockroach Poker has one loser: the seat left usually wins."""
    for seed in range(1, 9):
        game = turn_game(started)
        alice = seat_users(game)[0]
        services.game_quit(alice, game.pk)
        game = play_to_the_end(Game.objects.get(pk=game.pk), seed=seed)
        if 0 in game.result["winners"]:
            break
    else:
        raise AssertionError("the bot in the seat left never won in 8 games")
    told = Notification.objects.get(user=alice, game_id=game.pk, kind="finished").text
    stayed = next(s for s in game.result["winners"] if s != 0)
    winner = Notification.objects.get(
        user=seat_users(game)[stayed], game_id=game.pk, kind="finished"
    ).text
    assert told.startswith(f"Cockroach Poker Royal #{game.pk} is over:"), told
    assert winner == f"You won at Cockroach Poker Royal #{game.pk}!"
