"""The status line of a window (play-through review): it said "Everyone may answer" also of a
slap, which is owed, and listed the reader among the others. Now the asked player reads
"Your answer is wanted · Also asked: Bob", the others "Asked to answer: Alice and Bob"
(in a secret window, who has answered already is not said). The rules open in a new tab:
at a Live table they took the player off the table and its clock."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games.models import Game
from tests.games.helpers import seat_users, to_the_show_of_hands

pytestmark = pytest.mark.django_db


def _page(user, game: Game) -> str:
    client = Client()
    client.force_login(user)
    return client.get(f"/games/{game.pk}/").content.decode()


def _status(user, game: Game) -> str:
    page = _page(user, game)
    status = page.split('id="status">', 1)[1].split("</p>", 1)[0]
    return " ".join(re.sub(r"<[^>]+>", " ", status).split())


def test_the_window_says_who_else_is_asked_and_not_that_anyone_may(started):
    game = started("imperador")
    waiting = to_the_show_of_hands(game)
    game.refresh_from_db()
    users = seat_users(game)
    first, second = waiting.seats[:2]
    (unasked,) = [i for i in range(3) if i not in waiting.seats]

    mine = _status(users[first], game)
    theirs = _status(users[unasked], game)

    assert "Your answer is wanted" in mine
    assert f"Also asked: {users[second].name}" in mine and users[first].name not in mine
    assert f"Asked to answer: {users[first].name} and {users[second].name}" in theirs
    assert "may answer" not in mine + theirs


def test_the_rules_open_beside_the_table(started):
    game = started("mogel-motte")
    page = _page(seat_users(game)[0], game)
    link = page.split('class="rules-link"', 1)[1].split(">", 1)[0]
    assert 'target="_blank"' in link and 'rel="noopener"' in link


def _emperor_giving_back_a_value_held_twice(state: dict) -> bool:
    giving = state["turn"]["giving"]
    if state["phase"] != "give" or giving is None:
        return False
    value = state["cards"][giving["not"]][1]
    hand = state["hands"][state["emperor"]]
    return sum(1 for c in hand if state["cards"][c] == ["number", value]) > 1


def test_the_emperors_give_says_which_copy_may_not_go(started):
    """ "Give a card of your choice (not the one you just received)" beside a "2" button read
    as forbidding the 2 the emperor already held (play-through review)."""
    from tests.games.helpers import engine_state_where

    game = started("imperador")
    state = engine_state_where("imperador", 3, _emperor_giving_back_a_value_held_twice)
    Game.objects.filter(pk=game.pk).update(state=state)
    game.refresh_from_db()
    value = state["cards"][state["turn"]["giving"]["not"]][1]

    page = _page(seat_users(game)[state["emperor"]], game)

    assert f"any but the {value} you just received (your other {value} may go)" in page
    assert "not the one you just received" not in page


def test_the_sound_switch_sits_at_the_top_beside_the_rules(started):
    """At the page's foot, below the players, nobody found it before a window passed in
    silence (play-through review)."""
    game = started("mogel-motte")
    page = _page(seat_users(game)[0], game)
    toolbar = page.split('class="toolbar"', 1)[1].split('id="live-root"', 1)[0]
    assert 'id="sound-toggle"' in toolbar and 'class="rules-link"' in toolbar
