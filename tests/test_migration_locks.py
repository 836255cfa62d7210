"""Migrations run against a live site: an index added to an existing table is built without
holding off its writes (CREATE INDEX CONCURRENTLY), and the SQL says so."""

from __future__ import annotations

import io
import threading
from typing import Any

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import (
    AddConstraint,
    AddField,
    AddIndex,
    AlterField,
    CreateModel,
)
from django.db.models import CharField, UniqueConstraint

from accounts.models import Notification
from config.migration_operations import AddConstraintWithoutLock, AddIndexWithoutLock
from tests.live_server import second_connection

OUR_APPS = {"accounts", "games"}
# Written before AddIndexWithoutLock and applied long ago where it matters; none may join.
LOCKING_BEFORE = {
    ("accounts", "0003_display_name_rules"),
    ("accounts", "0005_notification_retention"),
    ("accounts", "0019_name_key"),
    ("games", "0008_learning_and_rematch"),
    ("games", "0012_scale_reads"),
    ("games", "0017_bots_moments_of_their_own"),
}


def _indexed(field: Any) -> bool:
    return bool(field.db_index or field.unique) and not field.primary_key


def _builds_an_index(operation: Any, before: Any) -> str | None:
    """The index a schema operation builds with a plain CREATE INDEX, if any: an index, a
    unique constraint, a field added with one (``db_index``, ``unique``, a foreign key), or a
    field altered to have one it had not (``before``: the field as it was)."""
    if isinstance(operation, AddIndex) and not isinstance(operation, AddIndexWithoutLock):
        return operation.index.name
    if (
        isinstance(operation, AddConstraint)
        and not isinstance(operation, AddConstraintWithoutLock)
        and isinstance(operation.constraint, UniqueConstraint)
    ):
        return operation.constraint.name
    if isinstance(operation, AddField) and _indexed(operation.field):
        return f"{operation.model_name}.{operation.name}"
    if isinstance(operation, AlterField) and _indexed(operation.field) and not _indexed(before):
        return f"{operation.model_name}.{operation.name}"
    return None


def _plain_index_additions(apps: set[str] = OUR_APPS) -> list[tuple[str, str, str]]:
    """Plain index builds on tables that existed before their migration (an index on a table
    the same migration creates locks nobody)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    found = []
    for (app, name), migration in loader.disk_migrations.items():
        if app not in apps or (app, name) in LOCKING_BEFORE:
            continue
        created = {op.name_lower for op in migration.operations if isinstance(op, CreateModel)}
        state = loader.project_state((app, name), at_end=False)
        for operation in migration.operations:
            before = None
            if isinstance(operation, AlterField):
                before = state.models[app, operation.model_name_lower].fields[operation.name]
            built = _builds_an_index(operation, before)
            if built and operation.model_name_lower not in created:
                found.append((app, name, built))
            operation.state_forwards(app, state)
    return found


def test_no_new_migration_adds_an_index_that_locks_its_table():
    assert _plain_index_additions() == []


def test_an_altered_field_that_gains_an_index_counts_as_a_plain_build():
    plain, indexed = CharField(max_length=20), CharField(max_length=20, db_index=True)
    gains = AlterField("game", "engine", indexed)
    assert _builds_an_index(gains, before=plain) == "game.engine"
    assert _builds_an_index(gains, before=indexed) is None  # it had one: nothing is built
    assert _builds_an_index(AlterField("game", "engine", plain), before=indexed) is None


@pytest.mark.django_db(transaction=True)  # sqlmigrate refuses a non-atomic one in a transaction
def test_the_push_queue_index_is_built_concurrently():
    out = io.StringIO()
    call_command("sqlmigrate", "accounts", "0020", stdout=out)
    assert connection.vendor == "postgresql"
    assert 'CREATE INDEX CONCURRENTLY "notification_push_pending"' in out.getvalue()


@pytest.mark.django_db(transaction=True)  # sqlmigrate refuses a non-atomic one in a transaction
def test_the_chat_line_numbers_are_made_unique_concurrently():
    out = io.StringIO()
    call_command("sqlmigrate", "games", "0022", stdout=out)
    assert 'CREATE UNIQUE INDEX CONCURRENTLY "one_chat_line_number"' in out.getvalue()


def _index_state(name: str) -> list[tuple[bool, str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT i.indisvalid, pg_get_indexdef(i.indexrelid) FROM pg_index i"
            " JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = %s",
            [name],
        )
        return cursor.fetchall()


@pytest.mark.django_db(transaction=True)
def test_migrate_again_after_a_failed_concurrent_build_builds_the_index(alice):
    """A concurrent build that fails (here: unique over equal rows; on a site, a timeout or
    ^C) leaves an invalid index of its name: the next ``migrate`` stopped on it."""
    call_command("migrate", "accounts", "0019", verbosity=0)
    try:
        for _ in range(2):
            Notification.objects.create(user=alice, kind="turn", text="Your turn")
        with pytest.raises(IntegrityError), connection.cursor() as cursor:
            cursor.execute(
                "CREATE UNIQUE INDEX CONCURRENTLY notification_push_pending"
                " ON accounts_notification (kind)"
            )
        assert [valid for valid, _ in _index_state("notification_push_pending")] == [False]

        call_command("migrate", "accounts", verbosity=0)

        ((valid, definition),) = _index_state("notification_push_pending")
        assert valid
        assert "(created_at) WHERE ((push)::text = 'pending'::text)" in definition
    finally:
        call_command("migrate", verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_a_concurrent_build_waits_for_a_transaction_longer_than_the_lock_timeout():
    """CREATE INDEX CONCURRENTLY waits for the transactions older than it, on any table; the
    site's 5 s lock timeout cancelled it behind any move, email or digest open that long."""
    call_command("migrate", "accounts", "0019", verbosity=0)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '200ms'")
        older = second_connection()
        older.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        older.execute("SELECT count(*) FROM games_game")  # its snapshot stays until COMMIT
        ends = threading.Timer(1.5, older.execute, ["COMMIT"])
        ends.start()
        try:
            call_command("migrate", "accounts", "0020", verbosity=0)
        finally:
            ends.join()
            older.close()
        assert [valid for valid, _ in _index_state("notification_push_pending")] == [True]
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_setting('lock_timeout')")
            assert cursor.fetchone() == ("200ms",)  # the session's own, back after the build
    finally:
        call_command("migrate", verbosity=0)
