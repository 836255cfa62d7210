"""After a move commits, its table hears of it first: the socket ping leaves before the
notices' push tasks are queued (on_commit runs its callbacks in order). Emails queue no task:
the worker's sweep finds them (tests/games/test_email_sweep.py)."""

from __future__ import annotations

import random

import pytest
from celery import current_app
from django.test import Client

from accounts.models import Notification
from accounts.services import api_token_create
from games import api, broadcast, services
from tests.games.helpers import next_human_move, seat_users
from tests.push_endpoint import subscribe


@pytest.mark.django_db(transaction=True)
def test_the_table_ping_leaves_before_the_notices_tasks(started, endpoint, monkeypatch):
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    for user in users.values():  # every player wants their turns pushed
        subscribe(user, endpoint)
    order: list[str] = []
    real_send, real_send_task = broadcast._send, current_app.send_task

    def send(pings):
        order.extend(group.split("-")[0] for group, _message in pings)  # "game" or "user"
        real_send(pings)

    def send_task(name, *args, **kwargs):
        order.append(name)
        return real_send_task(name, *args, **kwargs)

    monkeypatch.setattr(broadcast, "_send", send)
    monkeypatch.setattr(current_app, "send_task", send_task)
    seat, action = next_human_move(game, random.Random(4))
    before = Notification.objects.count()
    services.act(users[seat], game.pk, game.version_for(seat), action)

    assert Notification.objects.count() > before  # the move opened a wait with its notice
    tasks = [name for name in order if "." in name]
    assert tasks, order  # the notice's push was queued
    assert order[0] == "game", order
    assert order.index("game") < order.index(tasks[0])


@pytest.mark.django_db(transaction=True)
def test_through_the_api_the_answer_is_made_before_the_ping_and_the_push(
    started, endpoint, monkeypatch
):
    """In a request the mover waits for neither: both leave once the answer is sent
    (config/after_response.py), still the ping first."""
    game = started("cockroach-poker-royal")
    users = seat_users(game)
    for user in users.values():
        subscribe(user, endpoint)
    order: list[str] = []
    real_send_now, real_send_task = broadcast._send_now, current_app.send_task
    real_answer = api._game_answer

    def send_now(pings):
        order.extend(group.split("-")[0] for group, _message in pings)
        real_send_now(pings)

    def send_task(name, *args, **kwargs):
        order.append(name)
        return real_send_task(name, *args, **kwargs)

    def answer(request, game, **extra):
        order.append("answer")
        return real_answer(request, game, **extra)

    monkeypatch.setattr(broadcast, "_send_now", send_now)
    monkeypatch.setattr(current_app, "send_task", send_task)
    monkeypatch.setattr(api, "_game_answer", answer)
    seat, action = next_human_move(game, random.Random(4))
    client = Client(HTTP_AUTHORIZATION=f"Bearer {api_token_create(users[seat], 'test')[1]}")
    response = client.post(
        f"/api/games/{game.pk}/actions",
        {"version": game.version_for(seat), "action": action, "key": "k"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    tasks = [name for name in order if "." in name]
    assert tasks, order  # the wait's notice was pushed
    assert order[:2] == ["answer", "game"], order
    assert order.index("game") < order.index(tasks[0])
