"""Review (issue 10): the email of a "your answer" notice goes out after the seat answered."""

from __future__ import annotations

import random

import pytest

from accounts.models import Notification
from accounts.notifications import email_decision
from games import services
from games.engines import registry
from games.models import Game
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db


def test_a_window_notice_is_not_emailed_once_its_seat_has_answered(started):
    game = started("imperador")
    engine = registry.get(game.engine)
    rng = random.Random(5)
    for _ in range(400):
        game.refresh_from_db()
        assert game.status == Game.Status.ACTIVE
        waiting = engine.waiting_for(game.state)
        if waiting.kind == "window" and len(waiting.seats) >= 2:
            break
        seat, action = next_human_move(game, rng)
        services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
    users = seat_users(game)
    first = sorted(waiting.seats)[0]
    note = Notification.objects.get(
        user=users[first], kind=Notification.Kind.WINDOW, wait_seq=game.wait_seq
    )
    # the player answers from an API client (or a phone app) within the email delay
    action = engine.bot_action(game.state, first, rng)
    services.act(users[first], game.pk, game.version_for(first), action)
    game.refresh_from_db()
    assert engine.waiting_for(game.state).kind == "window", "others still owe: the window is open"
    note.refresh_from_db()
    assert email_decision(note) == "skip", "'needs your answer' emailed after the answer was given"
