"""Review (issue 10): a seat taken back during a bot play-out inherits the chunk's "due now"
deadline, so the returning player's first wait is timed out at once."""

from __future__ import annotations

import pytest
from django.utils import timezone

from games import services
from games.engines import registry
from games.models import Event, Game
from games.services import change as change_module
from tests.games.helpers import miss_until_the_bot_plays, seat_users

pytestmark = pytest.mark.django_db


def test_a_seat_taken_back_mid_play_out_gets_its_own_full_time(started, monkeypatch):
    monkeypatch.setattr(change_module, "BOT_CHUNK", 3)  # small chunks: the play-out pauses often
    for _table in range(10):
        game = started("mogel-motte")
        alice = seat_users(game)[0]
        # everybody missed three turns: the bot plays all seats, each may be taken back
        game = miss_until_the_bot_plays(game, {0, 1, 2}, monkeypatch)
        engine = registry.get(game.engine, game.rules_version)
        for _chunk in range(300):
            assert services.apply_deadline(game.pk) is True  # the play-out's next chunk
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            if 0 in engine.waiting_for(game.state).seats:
                break
        if game.status != Game.Status.ACTIVE:
            continue
        # The play-out paused (deadline "now") on a wait that asks seat 0; alice comes back.
        assert game.deadline_at <= timezone.now()
        services.seat_reclaim(alice, game.pk)
        game.refresh_from_db()
        span = game.window_seconds if game.wait_kind == "window" else game.move_seconds
        assert game.deadline_at is not None and game.deadline_at > timezone.now(), (
            f"alice's {game.wait_kind} is due already: the play-out chunk's deadline was kept "
            f"(she should have about {span} s)"
        )
        return
    raise AssertionError("no play-out paused on seat 0 in ten tables")


def test_a_seat_taken_back_mid_play_out_is_not_timed_out_by_the_next_sweep(started, monkeypatch):
    monkeypatch.setattr(change_module, "BOT_CHUNK", 3)
    for _table in range(10):
        game = started("mogel-motte")
        alice = seat_users(game)[0]
        game = miss_until_the_bot_plays(game, {0, 1, 2}, monkeypatch)
        engine = registry.get(game.engine, game.rules_version)
        for _chunk in range(300):
            assert services.apply_deadline(game.pk) is True
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE or 0 in engine.waiting_for(game.state).seats:
                break
        if game.status != Game.Status.ACTIVE:
            continue
        services.seat_reclaim(alice, game.pk)
        last = game.version
        services.sweep_due()  # the beat's next sweep, seconds later
        timed_out = Event.objects.filter(game=game, seq__gt=last, reason=Event.Reason.TIMEOUT)
        assert not timed_out.exists(), [e.action for e in timed_out]
        return
    raise AssertionError("no play-out paused on seat 0 in ten tables")
