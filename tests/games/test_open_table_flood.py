"""One player cannot push everyone else's tables out of the Open tables list: the tables a
player has made that still wait for players are few (``MAX_UNSTARTED_TABLES``)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from accounts.services import api_token_create
from games import services
from games.models import Game
from games.services.tables import MAX_UNSTARTED_TABLES

pytestmark = pytest.mark.django_db

SCANNED = 200  # selectors.open_tables reads the newest 4 x 50 open tables


def _create(client: Client) -> dict:
    body = {"game": "cockroach-poker-royal", "seats": 3, "join_policy": "anyone"}
    answer = client.post("/api/games", json.dumps(body), content_type="application/json")
    return {"status": answer.status_code, **answer.json()}


def test_a_player_cannot_flood_the_open_tables_list(alice, bob, carol):
    """Two hundred open tables sent by a script in a minute (within the API's limits) were
    the whole list every other player read for two weeks: alice's table was gone from it."""
    mine = services.game_create(alice, engine="imperador", seats=3, join_policy="anyone")
    _row, raw = api_token_create(bob, "script")
    script = Client(headers={"Authorization": f"Bearer {raw}"})

    answers = [_create(script) for _ in range(SCANNED)]

    made = [a for a in answers if a["status"] == 201]
    assert len(made) == MAX_UNSTARTED_TABLES
    refused = answers[MAX_UNSTARTED_TABLES]
    assert (refused["status"], refused["code"]) == (400, "too_many_unstarted_tables")
    assert Game.objects.filter(created_by=bob).count() == MAX_UNSTARTED_TABLES
    reader = Client()
    reader.force_login(carol)
    page = reader.get(reverse("games:open_tables")).content.decode()
    assert reverse("games:table", args=[mine.pk]) in page


def test_a_table_started_or_cancelled_makes_room_for_another(alice, bob):
    tables = [
        services.game_create(bob, engine="cockroach-poker-royal", seats=3, join_policy="anyone")
        for _ in range(MAX_UNSTARTED_TABLES)
    ]
    services.game_cancel(bob, tables[0].pk)

    again = services.game_create(bob, engine="cockroach-poker-royal", seats=3, bots=2)
    assert again.status == Game.Status.LOBBY  # made: one of the few waits no more
