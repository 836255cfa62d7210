"""A change's writes (games/table_write.py) store exactly what the ORM would: every written
column of the game as the instance holds it (a JSON field's None as SQL NULL, as the ORM
does), each event with all its fields and its id set; a row no longer at the locked
revision and version is not written; statements to run after the writes go in the same round
trip and answer their rows."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import services
from games.models import Event, Game
from games.table_write import GAME_WRITTEN, write_change

pytestmark = pytest.mark.django_db

# set when the table is made, never by a change (the ORM wrote the same 22 columns before)
FIXED = {
    "id",
    "engine",
    "rules_version",
    "options",
    "seats_count",
    "pace",
    "move_seconds",
    "window_seconds",
    "join_policy",
    "allow_spectators",
    "start_when_full",
    "spectator_chat",
    "learning",
    "rematch_of",
    "created_by",
    "created_at",
}


def fields(instance, names) -> dict:
    return {name: getattr(instance, instance._meta.get_field(name).attname) for name in names}


def event_fields(event: Event) -> dict:
    return {f.attname: getattr(event, f.attname) for f in Event._meta.concrete_fields}


def moved(game: Game) -> tuple[Game, list[Event]]:
    """The game as a change leaves it after two events, every written column changed."""
    revision, version = game.revision, game.version
    now = timezone.now()
    game.state = {**game.state, "marker": [1, "two", None]}
    game.version, game.revision = version + 2, revision + 1
    game.seat_versions = [version + 2] * 4
    game.seat_revisions = [revision + 1] * 4
    game.status = Game.Status.FINISHED
    game.result = {"losers": [1]}
    game.finished_at = now
    game.deadline_at = game.remind_at = None
    game.wait_mask, game.wait_seq, game.wait_kind = 0, game.wait_seq + 1, "window"
    game.wait_window, game.wait_seat, game.wait_opened_at = "slap", None, now
    game.sweep_failures, game.sweep_after = 2, now + timedelta(minutes=1)
    game.live_since, game.live_offer = now, None
    events = [
        Event(
            game=game,
            seq=version + 1 + i,
            seat=i,
            # placeholders, quotes and a backslash in values: bound as data, never as SQL
            action={"type": "peek", "n": i, "note": "%s %% %(x)s ' \\ ;"},
            events=[{"kind": "peeked", "data": {"seat": i}, "to": None}],
            reason=Event.Reason.MOVE,
            key=f"key{i} %s '; --" if i == 0 else "",
            audience=[0] if i else None,
            actor=game.created_by if i == 0 else None,
            created_at=now,
        )
        for i in range(2)
    ]
    return game, events


def test_the_written_columns_are_every_column_a_change_may_alter():
    names = {f.name for f in Game._meta.concrete_fields}
    assert set(GAME_WRITTEN) == names - FIXED


def test_the_game_and_its_events_are_stored_as_the_orm_would_store_them(started):
    game = Game.objects.get(pk=started().pk)
    revision, version = game.revision, game.version
    game, events = moved(game)
    assert write_change(game, events, revision, version) == []
    stored = Game.objects.get(pk=game.pk)
    assert fields(stored, GAME_WRITTEN) == fields(game, GAME_WRITTEN)
    with connection.cursor() as cursor:  # None in a JSON field is SQL NULL, as the ORM writes
        cursor.execute(
            "SELECT result IS NULL, live_offer IS NULL FROM games_game WHERE id = %s", [game.pk]
        )
        assert cursor.fetchone() == (False, True)
        cursor.execute(
            "SELECT audience IS NULL FROM games_event WHERE game_id = %s ORDER BY seq", [game.pk]
        )
        assert cursor.fetchall() == [(True,), (False,)]
    assert all(e.pk and not e._state.adding for e in events)
    rows = Event.objects.filter(game=game, seq__gt=version).order_by("seq")
    assert [event_fields(e) for e in rows] == [event_fields(e) for e in events]


def test_a_game_without_events_is_written_alone(started):
    game = Game.objects.get(pk=started().pk)
    revision, version = game.revision, game.version
    game.revision += 1
    assert write_change(game, [], revision, version) == []
    assert Game.objects.get(pk=game.pk).revision == revision + 1


@pytest.mark.parametrize("stale", ["revision", "version"])
def test_a_row_past_the_locked_revision_or_version_is_not_written(started, stale):
    game = Game.objects.get(pk=started().pk)
    before = fields(game, GAME_WRITTEN)
    revision, version = game.revision, game.version
    game, events = moved(game)
    with transaction.atomic():
        written = write_change(
            game,
            events,
            revision + (stale == "revision"),
            version + (stale == "version"),
        )
        transaction.set_rollback(True)  # what a change does on False (StaleVersion)
    assert written is None
    assert fields(Game.objects.get(pk=game.pk), GAME_WRITTEN) == before
    assert not Event.objects.filter(game=game, seq__gt=version).exists()


def test_statements_after_the_writes_go_in_the_same_round_trip_and_see_them(started):
    game = Game.objects.get(pk=started().pk)
    revision, version = game.revision, game.version
    game, events = moved(game)
    after = [
        ("SELECT version FROM games_game WHERE id = %s", [game.pk]),
        ("SELECT count(*) FROM games_event WHERE game_id = %s AND seq > %s", [game.pk, version]),
    ]
    with CaptureQueriesContext(connection) as queries:
        results = write_change(game, events, revision, version, then=after)
    expected_trips = 1 if connection.vendor == "postgresql" else 4
    assert len(queries) == expected_trips
    assert results == [([(version + 2,)], 1), ([(2,)], 1)]


def test_a_lost_compare_and_swap_answers_with_the_public_version(started):
    """Should the game's row change under a change (the row lock makes it unreachable in
    play), the stale answer carries the version everybody sees, not the total that also counts
    other seats' secret answers (a show of hands already answered in secret, here)."""
    from django.db.models import F

    from games.errors import StaleVersion
    from games.services.change import GameChange
    from tests.games.helpers import seat_users, to_the_show_of_hands

    game = started("imperador")
    users = seat_users(game)
    waiting = to_the_show_of_hands(game)
    first, second = waiting.seats[:2]
    services.act(users[first], game.pk, game.version_for(first), {"type": "hand", "choice": "down"})
    game.refresh_from_db()
    assert game.version > game.version_for(None)  # a secret answer is in the total
    with pytest.raises(StaleVersion) as stale, GameChange(game.pk) as change:
        change.apply(second, {"type": "hand", "choice": "raise"}, Event.Reason.MOVE)
        Game.objects.filter(pk=game.pk).update(revision=F("revision") + 1)
    game.refresh_from_db()
    assert stale.value.version == game.version_for(None)
