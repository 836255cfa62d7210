"""Review (issue 10): waits that should be new but are treated as continued."""

from __future__ import annotations

import random

import pytest

from games import services
from games.engines import registry
from games.models import Event, Game
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db


def _waiting(game: Game):
    return registry.get(game.engine, game.rules_version).waiting_for(game.state)


def _drive_to_emperor_staying(started, timeout_instead: bool = False):
    """Plays Imperador tables (human moves chosen by the bot) until the emperor's move ends a
    turn with "emperor_stays": the same seat starts a new turn. Returns (game, seq_before,
    wait_seq_before) just before that move, or plays it when not ``timeout_instead``."""
    engine = registry.get("imperador")
    for seed in range(40):
        game = started("imperador")
        rng = random.Random(seed)
        for _ in range(200):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            seat, action = next_human_move(game, rng)
            _new, events = engine.apply(game.state, seat, action)
            if any(e.kind == "emperor_stays" for e in events):
                return game, seat, action
            services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
    raise AssertionError("no emperor stayed in 40 games")


def test_imperador_emperor_who_stays_gets_a_new_wait_for_his_new_turn(started):
    """Rules: after an undecided turn the emperor stays and plays a new turn. Waiting.turn has no
    ``step`` in Imperador, so the new turn continues the wait that opened when the hands window
    closed: no new wait_seq, no fresh deadline (the old turn's remaining time), no new nudge."""
    game, seat, action = _drive_to_emperor_staying(started)
    before_seq = game.wait_seq
    services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
    game.refresh_from_db()
    move = Event.objects.filter(game=game).order_by("-seq").first()
    assert _waiting(game).kind == "turn" and _waiting(game).seats == (seat,)
    assert game.state["phase"] == "announce"
    assert game.wait_seq == before_seq + 1, "a new turn is a new wait"
    assert game.wait_opened_at == move.created_at, "its clock starts with the new turn"


def test_imperador_timeout_of_a_turn_does_not_play_the_emperors_next_turn(started):
    """_time_out finishes the missed turn "while the wait is the same": with no step, the bot
    plays on into the emperor's *next* turn (announces a band for him) in the same timeout."""
    game, _seat, _action = _drive_to_emperor_staying(started)
    # the emperor is away at exactly this point of his turn: the deadline passes
    services.force_deadline(game.created_by, game.pk, "review: the emperor is away")
    game.refresh_from_db()
    timed_out = list(
        Event.objects.filter(game=game, reason=Event.Reason.TIMEOUT).values_list(
            "action", flat=True
        )
    )
    kinds = [
        e["kind"]
        for ev in Event.objects.filter(game=game, reason=Event.Reason.TIMEOUT)
        for e in ev.events
    ]
    assert "emperor_stays" in kinds
    assert not any(a["type"] == "announce" for a in timed_out), (
        f"the bot played the emperor's next turn too: {timed_out}"
    )
