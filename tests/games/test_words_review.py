"""Words a native player tripped over (a review in Czech, French and Portuguese): the loser
hears the winners joined with "and"; an invitee's state is what they did; a learner finds
the moves before the rules."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Notification
from games import services
from games.models import Game
from tests.games.helpers import play_to_the_end, seat_users

pytestmark = pytest.mark.django_db


def client_for(user, language: str = "en") -> Client:
    client = Client()
    client.force_login(user)
    client.cookies["django_language"] = language
    return client


def test_the_loser_hears_the_winners_joined_with_and(started):
    game = play_to_the_end(started("cockroach-poker-royal"))  # one loser, two winners
    users = seat_users(game)
    (loser,) = [s for s in users if s not in game.result["winners"]]
    first, second = (users[s].name for s in sorted(game.result["winners"]))
    text = Notification.objects.get(user=users[loser], kind=Notification.Kind.GAME_FINISHED).text
    assert f"{first} and {second} won." in text, text


def test_an_invitees_state_in_a_lobby_says_what_they_did(trio):
    alice, bob, carol = trio
    game = services.game_create(alice, engine="imperador", seats=3, invite=["bob", "carol"])
    services.game_join(bob, game.pk)
    services.invitation_decline(carol, game.pk)
    page = client_for(alice, "cs").get(reverse("games:my_games")).content.decode()
    assert "bob (přijal(a))" in page and "carol (odmítl(a))" in page
    page = client_for(alice, "fr").get(reverse("games:my_games")).content.decode()
    assert "bob (a accepté)" in page


def test_a_learner_finds_the_moves_before_the_rules(alice):
    game = services.game_learn(alice, "imperador")
    page = client_for(alice).get(reverse("games:table", args=[game.pk])).content.decode()
    assert Game.objects.get(pk=game.pk).learning
    assert 'data-live="moves"' in page
    assert page.index('data-live="moves"') < page.index("How to play")
