"""Review (issue 10/12): a secret window answer is observable by another seat before the window
closes, through the sequence numbers of that seat's own next move (events are numbered per game,
and version_for jumps over the hidden row)."""

from __future__ import annotations

import random

import pytest
from django.test import Client

from games import services
from games.engines import registry
from games.models import Game
from games.services.change import audience
from tests.games.helpers import next_human_move, seat_users

pytestmark = pytest.mark.django_db


def _secret_answer_and_public_aside(game: Game):
    """(answering seat, other seat, secret answer, the other's public out-of-turn move) while a
    Mogel Motte window is open, the other seat's move leaving the window open."""
    engine = registry.get(game.engine, game.rules_version)
    waiting = engine.waiting_for(game.state)
    humans = seat_users(game)
    if waiting.kind != "window":
        return None
    for seat in (s for s in waiting.seats if s in humans):
        for action in engine.legal_actions(game.state, seat):
            after, events = engine.apply(game.state, seat, action)
            if audience(seat, events) != [seat] or engine.waiting_for(after).kind != "window":
                continue
            for other in (s for s in humans if s != seat):
                for move in engine.legal_actions(after, other):
                    if move["type"] not in ("cheat", "accuse"):
                        continue
                    _s, ev = engine.apply(after, other, move)
                    if audience(other, ev) is None:
                        return seat, other, action, move
    return None


def test_a_secret_answer_does_not_show_in_the_numbers_of_another_seats_next_move(started):
    found = None
    for table in range(6):
        game = started("mogel-motte")
        rng = random.Random(table)
        for _ in range(600):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            found = _secret_answer_and_public_aside(game)
            if found:
                break
            seat, action = next_human_move(game, rng)
            services.act(seat_users(game)[seat], game.pk, game.version_for(seat), action)
        if found:
            break
    if not found:
        raise AssertionError("no window with a secret answer and a public out-of-turn move came up")
    answering, other, answer, move = found
    users = seat_users(game)
    client = Client()
    client.force_login(users[other])
    seen_before = game.version_for(other)
    services.act(users[answering], game.pk, game.version_for(answering), answer)  # secret
    game.refresh_from_db()
    assert registry.get(game.engine).waiting_for(game.state).kind == "window", "still open"
    services.act(users[other], game.pk, game.version_for(other), move)  # public, e.g. a cheat
    game.refresh_from_db()
    assert registry.get(game.engine).waiting_for(game.state).kind == "window", "still open"
    body = client.get(f"/api/games/{game.pk}").json()
    rows = client.get(f"/api/games/{game.pk}/events", {"after": seen_before}).json()["events"]
    # Had nobody answered, the other seat's own move would be numbered seen_before + 1.
    assert [r["seq"] for r in rows] == [seen_before + 1], (
        f"the numbering shows a hidden row before the window closed: {[r['seq'] for r in rows]}"
    )
    assert body["version"] == seen_before + 1
