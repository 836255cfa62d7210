"""A finished game's reveal is replayed once and kept: a later page replays nothing and reads
no event row, yet tells what a fresh replay tells, in the viewer's language, with the names
the players have now."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from games import services
from games.engines import registry
from games.errors import NotActive
from games.models import Event
from tests.games.helpers import play_to_the_end

pytestmark = pytest.mark.django_db


def main_of(html: str) -> str:
    return html.split('class="replay-page', 1)[1].split("</main>", 1)[0]


def page(client: Client, game_id: int, step: int) -> str:
    response = client.get(reverse("games:replay", args=[game_id]), {"step": step})
    assert response.status_code == 200
    return main_of(response.content.decode())


@pytest.fixture
def counted_applies(monkeypatch):
    """How many moves the engines replayed (the real apply, counted)."""
    calls = {"n": 0}
    for engine in registry.ENGINES.values():
        real = engine.apply

        def counting(*args, _real=real, **kwargs):
            calls["n"] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(engine, "apply", counting)
    return calls


@pytest.mark.parametrize("engine", ["cockroach-poker-royal", "mogel-motte", "imperador"])
def test_after_the_first_page_a_reveal_page_replays_nothing(started, counted_applies, engine):
    game = play_to_the_end(started(engine), 2)
    moves = Event.objects.filter(game=game).count()
    client = Client()
    client.force_login(game.seats.get(index=1).user)
    counted_applies["n"] = 0  # the moves played above
    page(client, game.pk, 0)
    assert counted_applies["n"] == moves  # the first page replays the game once

    counted_applies["n"] = 0
    for step in (1, moves // 2, moves, moves + 5):
        with CaptureQueriesContext(connection) as queries:
            page(client, game.pk, step)
        assert not [q for q in queries if "games_event" in q["sql"]], step
    assert counted_applies["n"] == 0


def test_a_kept_page_tells_what_a_fresh_replay_tells(started):
    from django.core.cache import cache

    game = play_to_the_end(started("mogel-motte"), 2)
    client = Client()
    client.force_login(game.seats.get(index=0).user)
    steps = [0, 1, 7, Event.objects.filter(game=game).count()]
    for step in steps:
        cache.clear()
        fresh = page(client, game.pk, step)
        assert page(client, game.pk, step) == fresh, step


def test_a_kept_reveal_uses_each_viewers_language_and_the_names_of_now(started):
    game = play_to_the_end(started("mogel-motte"), 2)
    User.objects.filter(username="bob").update(display_name="Bobby")
    User.objects.filter(username="alice").update(language="en")
    User.objects.filter(username="carol").update(language="fr")
    alice, carol = Client(), Client()
    alice.force_login(User.objects.get(username="alice"))
    carol.force_login(User.objects.get(username="carol"))
    last = Event.objects.filter(game=game).count()

    first = page(alice, game.pk, 0)
    assert "The cards are dealt." in first and "Bobby" in first
    assert "Les cartes sont distribuées." in page(carol, game.pk, 0)
    assert "The cards are dealt." in page(alice, game.pk, 0)

    User.objects.filter(username="bob").update(display_name="Roberto")
    renamed = page(alice, game.pk, last)
    assert "Roberto" in renamed and "Bobby" not in renamed


def test_a_finished_game_cannot_change_so_its_kept_reveal_stays_true(started, alice):
    """The kept replay's key counts the log's rows; no path adds one to an over game."""
    game = play_to_the_end(started("cockroach-poker-royal"), 2)
    with pytest.raises(NotActive):
        services.game_abort(alice, game.pk, "too late")
