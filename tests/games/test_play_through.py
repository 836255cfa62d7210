"""Whole games of every engine, played by three people through the pages and through the API."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.urls import reverse

from games.engines import registry
from games.models import Event, Game
from tests.games.helpers import assert_replays, form_fields, next_human_move, seat_users

ENGINES = sorted(registry.ENGINES)
MAX_MOVES = 3000


def clients_for(game: Game) -> dict[int, Client]:
    clients = {}
    for seat, user in seat_users(game).items():
        client = Client()
        client.force_login(user)
        clients[seat] = client
    return clients


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.slow
def test_three_people_play_a_whole_game_through_the_pages(started, engine):
    game = started(engine)
    clients = clients_for(game)
    rng = random.Random(11)
    for step in range(MAX_MOVES):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        seat, action = next_human_move(game, rng)
        client = clients[seat]
        if step % 7 == 0:
            page = client.get(reverse("games:table", args=[game.pk]))
            assert page.status_code == 200
            assert f'name="type" value="{action["type"]}"' in page.content.decode()
        response = client.post(
            reverse("games:act", args=[game.pk]),
            form_fields(action, game.version_for(seat), f"k{step}"),
        )
        assert response.status_code == 302
        after = Game.objects.get(pk=game.pk)
        assert after.version > game.version, f"move {action} was not applied"
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.result["winners"] or game.result["losers"]
    for client in clients.values():
        page = client.get(reverse("games:table", args=[game.pk]))
        assert "Watch the full reveal" in page.content.decode()
        reveal = client.get(reverse("games:replay", args=[game.pk]) + "?step=1")
        assert reveal.status_code == 200
    assert_replays(game)


@pytest.mark.django_db
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.slow
def test_three_people_play_a_whole_game_through_the_api(trio, engine):
    clients = {}
    for user in trio:
        client = Client()
        client.force_login(user)
        clients[user.username] = client
    created = clients["alice"].post(
        "/api/games",
        json.dumps({"game": engine, "seats": 3, "invite": ["bob", "carol"]}),
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert clients["bob"].post(f"/api/games/{game_id}/join").status_code == 200
    assert clients["carol"].post(f"/api/games/{game_id}/join").status_code == 200
    started_body = clients["alice"].post(f"/api/games/{game_id}/start").json()
    assert started_body["status"] == "active"
    by_seat = {s.index: clients[s.user.username] for s in Game.objects.get(pk=game_id).seats.all()}
    rng = random.Random(5)
    engine_impl = registry.get(engine)
    for _ in range(MAX_MOVES):
        bodies = {seat: c.get(f"/api/games/{game_id}").json() for seat, c in by_seat.items()}
        if bodies[0]["status"] != "active":
            break
        owed = [
            seat
            for seat, body in bodies.items()
            if body["legal_actions"]
            and seat in engine_impl.waiting_for(Game.objects.get(pk=game_id).state).seats
        ]
        seat = rng.choice(owed)
        body = bodies[seat]
        game = Game.objects.get(pk=game_id)
        action = engine_impl.bot_action(game.state, seat, rng)
        assert action in body["legal_actions"]
        answer = by_seat[seat].post(
            f"/api/games/{game_id}/actions",
            json.dumps({"version": body["version"], "action": action, "key": f"{body['version']}"}),
            content_type="application/json",
        )
        assert answer.status_code == 200, answer.content
        assert answer.json()["version"] > body["version"]
    final = clients["bob"].get(f"/api/games/{game_id}").json()
    assert final["status"] == "finished"
    assert final["view"]["over"] is True
    # the log comes a page at a time: follow "next" to the end
    events, after = [], 0
    while after is not None:
        page = clients["bob"].get(f"/api/games/{game_id}/events?after={after}&limit=40").json()
        events += page["events"]
        after = page["next"]
    assert len(events) == Event.objects.filter(game_id=game_id).count()
    assert [e["seq"] for e in events] == sorted({e["seq"] for e in events})
    assert all("action" in e for e in events), "after the end every bluff is shown"
    assert_replays(Game.objects.get(pk=game_id))
