"""A turn move made on a page the game moved on from (its turn was played meanwhile) was
answered "Too late: the moment passed before your answer arrived.", the words of a race or a
slap answered after its window closed. A turn has no moment to miss: the page was behind,
and the answer says so, with the table as it is now (words review, 2026-12-07)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from accounts.services import api_token_create
from games import services
from games.engines import registry
from games.errors import StaleVersion
from games.models import Event, Game
from tests.games.helpers import seat_users

pytestmark = pytest.mark.django_db

ENGINE = registry.get("cockroach-poker-royal")
MOVED_ON = "The game moved on since you loaded it. Here is the current position."


def _turn_played_by_the_bot_meanwhile(started, monkeypatch) -> tuple[Game, int, dict, int]:
    """A table whose first player loaded her turn and let its deadline pass: the bot plays
    that turn when her move arrives. Returns the game, her seat, her offer and the version
    her page was drawn at."""
    now = timezone.now()
    clock = {"now": now}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    game = started(ENGINE.slug, pace="custom", move_seconds=60, window_seconds=5)
    (seat,) = ENGINE.waiting_for(game.state).seats
    offer = ENGINE.legal_actions(game.state, seat)[0]
    clock["now"] = game.deadline_at + timedelta(seconds=1)
    return game, seat, offer, game.version_for(seat)


def test_a_stale_turn_move_says_the_game_moved_on_not_too_late(started, monkeypatch):
    game, seat, offer, seen = _turn_played_by_the_bot_meanwhile(started, monkeypatch)
    user = seat_users(game)[seat]

    with pytest.raises(StaleVersion) as refused:
        services.act(user, game.pk, seen, offer)

    assert (refused.value.code, refused.value.message) == ("stale_version", MOVED_ON)
    game.refresh_from_db()
    assert ENGINE.waiting_for(game.state).seats != [seat]  # the bot played her turn
    assert not Event.objects.filter(game=game, actor=user).exists()


def test_the_table_page_says_a_stale_turn_moved_on(started, monkeypatch):
    game, seat, offer, seen = _turn_played_by_the_bot_meanwhile(started, monkeypatch)
    page = Client()
    page.force_login(seat_users(game)[seat])
    form = {"version": str(seen), "type": offer["type"]}
    form.update({f"f_{name}": json.dumps(value) for name, value in offer.items() if name != "type"})

    answer = page.post(f"/games/{game.pk}/act/", form, follow=True)

    assert [str(m) for m in answer.context["messages"]] == [MOVED_ON]
    assert not Event.objects.filter(game=game, actor=seat_users(game)[seat]).exists()


def test_the_api_answers_a_stale_turn_with_stale_version_and_the_table_now(started, monkeypatch):
    game, seat, offer, seen = _turn_played_by_the_bot_meanwhile(started, monkeypatch)
    token = api_token_create(seat_users(game)[seat], "script")[1]

    answer = Client().post(
        f"/api/games/{game.pk}/actions",
        {"version": seen, "action": offer},
        content_type="application/json",
        headers={"Authorization": f"Bearer {token}"},
    )

    body = answer.json()
    assert answer.status_code == 409
    assert (body["code"], body["error"]) == ("stale_version", MOVED_ON)
    game.refresh_from_db()
    assert body["version"] == game.version_for(seat) == body["game"]["version"]
