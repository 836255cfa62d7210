"""After a move commits, its table hears of it first: the socket ping leaves before the
notices' push tasks are queued (on_commit runs its callbacks in order). Emails queue no task:
the worker's sweep finds them (tests/games/test_email_sweep.py)."""

from __future__ import annotations

import random

import pytest
from celery import current_app

from accounts.models import Notification
from games import broadcast, services
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
