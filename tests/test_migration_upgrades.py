"""Upgrades from databases that earlier releases migrated: the migrations since must apply
over what those releases left, not only over a database migrated by today's files."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import AddField, CreateModel
from django.db.migrations.recorder import MigrationRecorder
from django.db.models.fields import NOT_PROVIDED
from django.test.utils import CaptureQueriesContext
from psycopg.types.json import Jsonb

from accounts.models import FriendRequest, Notification, User
from games.services import game_create
from tests.live_server import second_connection

# 4c018ee..8098158^ shipped games 0013 under this name: it dropped the column at once
DROPPED_EARLY = ("games", "0013_drop_seat_last_seen_version")


def seat_columns() -> set[str]:
    with connection.cursor() as cursor:
        return {
            c.name for c in connection.introspection.get_table_description(cursor, "games_seat")
        }


@pytest.mark.django_db(transaction=True)  # migrations back and forth outside a test transaction
@pytest.mark.slow
def test_a_database_whose_seat_column_an_earlier_release_dropped_migrates():
    """A site on 4c018ee..8098158^ has no games_seat.last_seen_version; 0013 set its default
    and failed there, so the upgrade stopped with the games tables of the older schema."""
    recorder = MigrationRecorder(connection)
    call_command("migrate", "games", "0012", verbosity=0)
    try:
        with connection.cursor() as cursor:
            cursor.execute("ALTER TABLE games_seat DROP COLUMN last_seen_version")
        recorder.record_applied(*DROPPED_EARLY)

        call_command("migrate", "games", verbosity=0)

        assert "last_seen_version" not in seat_columns()
        applied = {name for app, name in recorder.applied_migrations() if app == "games"}
        assert {"0013_seat_last_seen_version_retired", "0020_admin_words"} <= applied
    finally:
        recorder.record_unapplied(*DROPPED_EARLY)
        call_command("migrate", verbosity=0)


@pytest.mark.django_db(transaction=True)
@pytest.mark.slow
def test_a_database_that_still_has_the_column_retires_then_drops_it():
    call_command("migrate", "games", "0012", verbosity=0)
    try:
        assert "last_seen_version" in seat_columns()
        call_command("migrate", "games", "0013", verbosity=0)
        # kept one release for rolling restarts, with a default for the new code's inserts
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT column_default FROM information_schema.columns"
                " WHERE table_name = 'games_seat' AND column_name = 'last_seen_version'"
            )
            assert cursor.fetchall() == [("0",)]
    finally:
        call_command("migrate", verbosity=0)
    assert "last_seen_version" not in seat_columns()


@pytest.mark.django_db(transaction=True)  # the fill's batches commit: seen from a second connection
def test_name_keys_fill_a_batch_at_a_time_with_the_players_table_open(make_user, monkeypatch):
    """0019 filled the keys in its own transaction after ADD COLUMN: accounts_user stayed
    locked against every read (each signed-in request) until the last player was written."""
    fill = importlib.import_module("accounts.migrations.0022_name_keys_filled")
    players = [make_user(name) for name in ("alice", "bob", "carol", "dave", "erin")]
    User.objects.update(name_key="")
    monkeypatch.setattr(fill, "BATCH", 2)
    seen: list[tuple[str, str]] = []
    computed = fill.name_key

    def key_while_another_request_reads(name: str) -> str:
        if name == "erin":  # the third batch: the first two are committed
            with second_connection() as other:
                other.execute("SET lock_timeout = '1s'")
                seen.extend(
                    other.execute(
                        "SELECT username, name_key FROM accounts_user ORDER BY id"
                    ).fetchall()
                )
                # another player's request writes their row meanwhile
                other.execute(
                    "UPDATE accounts_user SET last_seen_at = now() WHERE id = %s",
                    [players[0].pk],
                )
        return computed(name)

    monkeypatch.setattr(fill, "name_key", key_while_another_request_reads)
    with connection.schema_editor(atomic=False) as editor:
        fill.fill_keys(django_apps, editor)

    assert seen == [
        ("alice", "alice"),
        ("bob", "bob"),
        ("carol", "carol"),
        ("dave", "dave"),
        ("erin", ""),
    ]
    assert dict(User.objects.values_list("username", "name_key")) == {
        p.username: p.username for p in players
    }


@pytest.mark.django_db
def test_name_keys_already_filled_are_not_written_again(make_user):
    """A site that ran 0019 before the fill moved to 0022 has its keys: 0022 only reads."""
    fill = importlib.import_module("accounts.migrations.0022_name_keys_filled")
    make_user("alice")
    make_user("bob", display_name="Bob Dvořák")
    with connection.schema_editor() as editor, CaptureQueriesContext(connection) as queries:
        fill.fill_keys(django_apps, editor)
    statements = [q["sql"].split()[0] for q in queries.captured_queries]
    assert "SELECT" in statements
    assert "UPDATE" not in statements


# NOT NULL columns added to tables in use with a Python default only, before this was held
# (Django drops the database default once the column is filled). The release before each
# inserted rows without it while a rolling restart replaced its processes; 0009's, 0012's and
# games 0019's have a database default since (accounts 0021, games 0021), the older ones are
# past every upgrade that starts from 0d2fd89 or later.
ADDED_WITHOUT_DB_DEFAULT = {
    ("accounts", "0002_user_away_until_user_vacation_days_used_and_more"),
    ("accounts", "0007_push_subscriptions"),
    ("accounts", "0008_email_queue"),
    ("accounts", "0009_friend_request_by_email"),
    ("accounts", "0012_notification_language"),
    ("games", "0004_wait_fields"),
    ("games", "0005_seat_observations"),
    ("games", "0008_learning_and_rematch"),
    ("games", "0010_table_talk"),
    ("games", "0012_scale_reads"),
    ("games", "0019_start_when_full"),
}


def test_a_new_not_null_column_on_a_table_in_use_has_a_database_default():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    found = []
    for (app, name), migration in loader.disk_migrations.items():
        if app not in {"accounts", "games"} or (app, name) in ADDED_WITHOUT_DB_DEFAULT:
            continue
        created = {op.name_lower for op in migration.operations if isinstance(op, CreateModel)}
        for operation in migration.operations:
            field = getattr(operation, "field", None)
            if (
                isinstance(operation, AddField)
                and operation.model_name_lower not in created
                and not field.null
                and field.db_default is NOT_PROVIDED
            ):
                found.append((app, name, operation.name))
    assert found == []


@pytest.mark.parametrize(
    "table, column, make",
    [
        ("accounts_notification", "language", "notice"),
        ("accounts_friendrequest", "by_email", "friend_request"),
        ("games_game", "start_when_full", "table"),
    ],
)
def test_a_row_written_by_the_release_before_the_column_is_taken(
    table, column, make, make_user, alice
):
    """The older release's INSERT names every column but the new one: the database fills it."""
    bob = make_user("bob")
    if make == "notice":
        row = Notification.objects.create(user=alice, kind="turn", text="Your turn")
    elif make == "friend_request":
        row = FriendRequest.objects.create(from_user=alice, to_user=bob)
    else:
        row = game_create(alice, engine="mogel-motte", seats=3)
    with connection.cursor() as cursor:
        columns = [
            c.name
            for c in connection.introspection.get_table_description(cursor, table)
            if c.name not in {"id", column}
        ]
        names = ", ".join(f'"{c}"' for c in columns)
        cursor.execute(f"SELECT {names} FROM {table} WHERE id = %s", [row.pk])
        values = cursor.fetchone()
        if make == "friend_request":  # one pending request a pair: the copy takes its place
            cursor.execute(f"DELETE FROM {table} WHERE id = %s", [row.pk])
        cursor.execute(
            f"INSERT INTO {table} ({names}) VALUES ({', '.join(['%s'] * len(values))})"
            f" RETURNING {column}",
            [Jsonb(v) if isinstance(v, (dict, list)) else v for v in values],
        )
        assert cursor.fetchone()[0] in ("", False)
