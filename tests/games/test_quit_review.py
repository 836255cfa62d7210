"""A review of "Leave the game" (games/services/departure.py game_quit): what a departure
leaves behind at the table it left."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from games import services
from games.engines import registry
from games.models import PACE_SECONDS, ChatMessage, Game, Pace, PaceSwitch
from games.services import pace
from tests.games.helpers import seat_users, turn_game

pytestmark = pytest.mark.django_db


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_live_proposal_only_the_leaver_had_not_accepted_switches_when_they_leave(
    started, monkeypatch
):
    """Alice proposes the Live pace, bob accepts, carol (who had not answered) leaves the game.
    Every human left has accepted: the table plays live. It stayed a proposal nobody could
    answer (no one left to accept, and a second proposal is refused while one is open)."""
    monkeypatch.setattr(pace, "is_present", lambda game_id, user_id: True)
    game = turn_game(started)
    alice, bob, carol = (seat_users(game)[i] for i in range(3))
    services.live_propose(alice, game.pk)
    services.live_answer(bob, game.pk, accept=True)
    services.game_quit(carol, game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.live_offer is None, "a proposal left that nobody at the table can answer"
    assert game.live_since is not None
    assert PaceSwitch.objects.filter(game=game, kind=PaceSwitch.Kind.LIVE).exists()


def test_when_the_leaver_was_on_turn_the_next_wait_runs_at_the_live_pace(started, monkeypatch):
    """The same, the leaver on turn: the bot plays that turn in the same change, and the wait
    it opens gets the Live time, not the table's daily one (nor the old wait's deadline)."""
    monkeypatch.setattr(pace, "is_present", lambda game_id, user_id: True)
    game = turn_game(started)
    users = seat_users(game)
    leaver = registry.get(game.engine).waiting_for(game.state).seats[0]
    stay = [i for i in users if i != leaver]
    services.live_propose(users[stay[0]], game.pk)
    services.live_answer(users[stay[1]], game.pk, accept=True)
    services.game_quit(users[leaver], game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.live_since is not None and game.version > 0
    live_move, live_window = PACE_SECONDS[Pace.LIVE]
    assert game.deadline_at <= game.wait_opened_at + timedelta(seconds=max(live_move, live_window))
    assert game.deadline_at > game.wait_opened_at


def test_a_seat_already_left_is_not_asked_to_leave_again(started):
    """Two tabs: carol leaves in one, then presses Leave in the other (no JavaScript). The
    site asked again ("Leave the game?") and only after "Yes" said she was not playing; it
    should say so at once, as the button's own condition does."""
    game = turn_game(started)
    carol = seat_users(game)[2]
    services.game_quit(carol, game.pk)
    client = client_for(carol)
    answer = client.post(reverse("games:command", args=[game.pk, "quit"]))
    assert answer.status_code == 302, "a confirmation page for a seat that is no longer hers"
    said = [str(m) for m in get_messages(answer.wsgi_request)]
    assert said == ["You already left this game."]


def test_the_leaver_no_longer_reads_the_hidden_cards_of_the_seat_the_bot_plays(started):
    """After leaving, the seat is the bot's for good and the leaver has no stake in the game;
    yet their API (and page) still showed that seat's private view: the hand the bot is dealt
    and plays from, which they may tell the table in its talk."""
    game = turn_game(started)
    carol = seat_users(game)[2]
    services.game_quit(carol, game.pk)
    game = Game.objects.get(pk=game.pk)
    engine = registry.get(game.engine)
    assert engine.view(game.state, 2) != engine.view(game.state, None), "a hand to hide"
    body = client_for(carol).get(f"/api/games/{game.pk}").json()
    assert body["seat"] is None and body["legal_actions"] == []
    assert body["view"] == json.loads(json.dumps(engine.view(game.state, None))), (
        "the leaver sees what a spectator sees, not the hand the bot plays from"
    )
    # nor does she write in the players' talk (the table's spectators only read it)
    client_for(carol).post(reverse("games:chat_post", args=[game.pk]), {"text": "I had two rats"})
    assert not ChatMessage.objects.filter(game=game).exists()
