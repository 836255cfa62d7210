"""Tables against bots only start at once, and their bots play on the workers: one player
has few of them in play at a time (``MAX_BOT_TABLES_IN_PLAY``); tables with other players
are not counted."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import api_token_create, friendship_create
from games import services
from games.models import Game
from games.services.tables import MAX_BOT_TABLES_IN_PLAY
from tests.games.helpers import play_to_the_end

pytestmark = pytest.mark.django_db

REFUSED = (
    f"You already have {MAX_BOT_TABLES_IN_PLAY} tables in play against bots only: finish one first."
)


def _learn(client: Client) -> list[str]:
    response = client.post(reverse("games:learn", args=["mogel-motte"]), follow=True)
    return [str(message) for message in response.context["messages"]]


def test_learn_tables_in_play_are_few_and_a_finished_one_makes_room(alice):
    client = Client()
    client.force_login(alice)
    for _ in range(MAX_BOT_TABLES_IN_PLAY):
        assert _learn(client) == []
    learning = list(Game.objects.filter(created_by=alice))
    assert [g.status for g in learning] == [Game.Status.ACTIVE] * MAX_BOT_TABLES_IN_PLAY

    assert _learn(client) == [REFUSED]
    client.cookies["django_language"] = "fr"
    assert _learn(client) == [
        f"Vous avez déjà {MAX_BOT_TABLES_IN_PLAY} tables en cours contre des bots seulement\u202f:"
        " terminez-en une d’abord."
    ]
    client.cookies["django_language"] = "en"
    assert Game.objects.filter(created_by=alice).count() == MAX_BOT_TABLES_IN_PLAY, "nothing made"

    play_to_the_end(learning[0])
    assert _learn(client) == []
    assert Game.objects.filter(created_by=alice, status=Game.Status.ACTIVE).count() == 5


def _post(client: Client, path: str, body: dict | None = None) -> dict:
    answer = client.post(path, json.dumps(body or {}), content_type="application/json")
    return {**answer.json(), "http": answer.status_code}


def test_a_script_cannot_start_bot_tables_by_the_hundred_but_human_tables_start(alice, bob):
    _row, raw = api_token_create(bob, "script")
    script = Client(headers={"Authorization": f"Bearer {raw}"})
    bots_only = {"game": "imperador", "seats": 3, "bots": 2, "start_when_full": True}
    answers = [_post(script, "/api/games", bots_only) for _ in range(MAX_BOT_TABLES_IN_PLAY + 3)]

    assert [a["http"] for a in answers] == [201] * MAX_BOT_TABLES_IN_PLAY + [400] * 3
    assert {a["code"] for a in answers[MAX_BOT_TABLES_IN_PLAY:]} == {"too_many_bot_tables"}
    assert answers[-1]["error"] == REFUSED
    assert Game.objects.filter(created_by=bob).count() == MAX_BOT_TABLES_IN_PLAY
    # made to wait, then started with its empty seats given to bots: refused as well
    waiting = _post(script, "/api/games", {"game": "imperador", "seats": 3})
    started = _post(script, f"/api/games/{waiting['id']}/start")
    assert (started["http"], started["code"]) == (400, "too_many_bot_tables")
    assert Game.objects.get(pk=waiting["id"]).status == Game.Status.LOBBY
    # a table with another player starts as ever
    friendship_create(alice, bob)
    together = services.game_create(bob, engine="imperador", seats=3, invite=["alice"])
    services.game_join(alice, together.pk)
    assert _post(script, f"/api/games/{together.pk}/start")["http"] == 200
    assert Game.objects.get(pk=together.pk).status == Game.Status.ACTIVE
