"""A game whose last human goes to the bot is played out in bounded chunks, never an error."""

from __future__ import annotations

from collections import Counter

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse

from games import services
from games.engines import registry
from games.models import Event, Game
from games.services.change import BOT_CHUNK

pytestmark = pytest.mark.django_db

CASES = [
    (slug, players)
    for slug, engine in sorted(registry.ENGINES.items())
    for players in range(engine.min_players, engine.max_players + 1)
]


def started_with_one_human(alice, slug: str, players: int) -> Game:
    """A started table of one human and bots that still runs (with v2 rules the bots can end a
    Cockroach Poker game before the human's first turn: then another table is dealt)."""
    for _ in range(20):
        game = services.game_create(alice, engine=slug, seats=players, bots=players - 1)
        services.game_start(alice, game.pk)
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            return game
    raise AssertionError("twenty tables ended before the human's first turn")


@pytest.mark.parametrize(("slug", "players"), CASES)
def test_the_last_human_handed_to_the_bot_the_game_ends_in_chunks_without_an_error(
    alice, admin_user, slug, players
):
    game = started_with_one_human(alice, slug, players)
    services.seat_to_bot(admin_user, game.pk, 0, "test: the last human leaves")
    chunks = 0
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            break
        assert game.deadline_at is not None, "an active game always has a deadline"
        assert services.apply_deadline(game.pk) is True  # due now: the next chunk
        chunks += 1
        assert chunks < 100
    assert game.status == Game.Status.FINISHED
    assert registry.get(slug).result(game.state) is not None
    # every change stamps its events with its own time: the biggest group is the longest chunk
    per_change = Counter(Event.objects.filter(game=game).values_list("created_at", flat=True))
    assert max(per_change.values()) <= BOT_CHUNK


def test_banning_the_only_human_at_a_table_of_bots_through_the_admin_is_no_server_error(
    alice, as_admin
):
    game = started_with_one_human(alice, "cockroach-poker-royal", 6)
    before = Event.objects.filter(game=game).count()
    response = as_admin.post(
        reverse("admin:accounts_user_changelist"),
        {
            "action": "ban_users",
            ACTION_CHECKBOX_NAME: [alice.pk],
            "index": 0,
            "apply": "yes",
            "reason": "test",
        },
    )
    assert response.status_code == 302
    game.refresh_from_db()
    seat = game.seats.get(index=0)
    assert seat.is_bot and seat.bot_reason == "banned"
    assert game.status == Game.Status.FINISHED or game.deadline_at is not None
    assert 0 < Event.objects.filter(game=game).count() - before <= BOT_CHUNK


def test_a_play_out_past_the_longest_game_ends_without_a_result_and_tells_the_players(
    alice, admin_user, monkeypatch
):
    from accounts.models import Notification

    engine = registry.get("mogel-motte")
    monkeypatch.setattr(type(engine), "max_moves", lambda self, players: 1)  # a buggy engine
    for _table in range(10):  # a table that outlasts the hand-over's chunk of bot moves
        game = started_with_one_human(alice, "mogel-motte", 5)
        services.seat_to_bot(admin_user, game.pk, 0, "test: the last human leaves")
        game.refresh_from_db()
        if game.status == Game.Status.ACTIVE:
            break
    assert game.status == Game.Status.ACTIVE
    for _ in range(5):
        if game.status != Game.Status.ACTIVE:
            break
        services.apply_deadline(game.pk)
        game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.result["abandoned"]
    notice = Notification.objects.filter(user=alice, game_id=game.pk, kind="finished").get()
    assert "without a result" in notice.text
