"""A turn whose time ran out: the bot plays it, the history says so (it read as the player's
own move), and the player hears it (nothing told them until a third miss took their seat)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Notification
from games import services
from games.engines import registry
from games.models import Event, Game
from tests.games.helpers import play_to_the_end, seat_users, turn_game

pytestmark = pytest.mark.django_db


def run_out(game: Game, monkeypatch: pytest.MonkeyPatch) -> int:
    """The clock passes the current turn's deadline and its task runs; returns the seat."""
    (seat,) = registry.get(game.engine).waiting_for(game.state).seats
    game.refresh_from_db()
    assert game.deadline_at is not None
    later = game.deadline_at + timedelta(seconds=1)
    monkeypatch.setattr(timezone, "now", lambda: later)
    assert services.apply_deadline(game.pk)
    game.refresh_from_db()
    return seat


def page_of(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(reverse("games:table", args=[game.pk])).content.decode()


def test_the_table_reads_that_the_bot_played_a_turn_whose_time_ran_out(started, monkeypatch):
    game = turn_game(started)
    users = seat_users(game)
    missed = run_out(game, monkeypatch)
    name = users[missed].name
    watcher = users[(missed + 1) % 3]
    assert f"Time ran out: the bot played for {name}." in page_of(watcher, game)

    client = Client()
    client.force_login(watcher)
    rows = client.get(f"/api/games/{game.pk}/events").json()["events"]
    assert [row.get("timed_out") for row in rows] == [missed], "the one row the bot made"

    notes = Notification.objects.filter(user=users[missed], kind=Notification.Kind.TIMEOUT)
    assert [n.text for n in notes] == [
        f"Your time ran out at Cockroach Poker Royal #{game.pk}: the bot played your turn. "
        "Three in a row, and it plays your seat."
    ]
    assert not Notification.objects.filter(kind=Notification.Kind.TIMEOUT).exclude(
        user=users[missed]
    ), "the others hear it from the table, not from a notice"


def test_a_move_of_ones_own_reads_as_before(started):
    game = turn_game(started)
    users = seat_users(game)
    engine = registry.get(game.engine)
    (seat,) = engine.waiting_for(game.state).seats
    action = engine.legal_actions(game.state, seat)[0]
    services.act(users[seat], game.pk, game.version_for(seat), action)
    game.refresh_from_db()
    assert "Time ran out" not in page_of(users[(seat + 1) % 3], game)
    assert not Notification.objects.filter(kind=Notification.Kind.TIMEOUT).exists()


def test_the_history_names_a_players_own_moves_after_the_bot_took_their_seat(started, make_user):
    """Her own moves stayed "Carol (bot)" in the history once the bot had her seat; the
    reveal now names the bot's moves for her seat "(bot)", hers by her name."""
    game = turn_game(started)
    users = seat_users(game)
    engine = registry.get(game.engine)
    (mover,) = engine.waiting_for(game.state).seats
    player = users[mover]
    services.act(
        player, game.pk, game.version_for(mover), engine.legal_actions(game.state, mover)[0]
    )
    own_row = Event.objects.get(game=game, seat=mover)
    services.seat_to_bot(make_user("mod", is_staff=True), game.pk, mover, "test: away for good")
    watcher = users[(mover + 1) % 3]
    page = page_of(watcher, Game.objects.get(pk=game.pk))
    # names may open a sentence ("Bob offered…"): compared without case
    history = page.split('class="log"', 1)[1].split("</section>", 1)[0].lower()
    name = player.name.lower()
    assert f"{name} (bot)" not in history and name in history
    assert f"{player.name} (bot)" in page, "the players' list still says who plays the seat"

    game = play_to_the_end(Game.objects.get(pk=game.pk))
    client = Client()
    client.force_login(watcher)
    own_step = Event.objects.filter(game=game, seq__lte=own_row.seq).count()
    shown = client.get(reverse("games:replay", args=[game.pk]), {"step": own_step})
    step_text = shown.content.decode().split('class="step-events"', 1)[1].split("</ul>", 1)[0]
    assert name in step_text.lower() and f"{name} (bot)" not in step_text.lower()
    bot_row = Event.objects.filter(game=game, seat=mover, reason=Event.Reason.BOT).first()
    assert bot_row is not None
    bot_step = Event.objects.filter(game=game, seq__lte=bot_row.seq).count()
    shown = client.get(reverse("games:replay", args=[game.pk]), {"step": bot_step})
    assert f"{name} (bot)" in shown.content.decode().lower()


def test_under_a_minute_left_is_said_so_and_a_finished_table_says_game_over(started, monkeypatch):
    game = turn_game(started)
    users = seat_users(game)
    game.refresh_from_db()
    assert game.deadline_at is not None
    almost = game.deadline_at - timedelta(seconds=40)  # the clock, not the deadline, moves
    monkeypatch.setattr(timezone, "now", lambda: almost)
    page = page_of(users[0], game)
    assert "less than a minute left" in page and "0\xa0minutes left" not in page
    client = Client()
    client.force_login(users[0])
    listed = client.get(reverse("games:my_games")).content.decode()
    assert "less than a minute left" in listed

    game = play_to_the_end(Game.objects.get(pk=game.pk))
    status = page_of(users[0], game).split('id="status">', 1)[1].split("</p>", 1)[0]
    assert status.strip() == "Game over.", "a bare lowercase 'finished' stood there"
