"""Migrations run against a live site: an index added to an existing table is built without
holding off its writes (CREATE INDEX CONCURRENTLY), and the SQL says so."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.operations import AddIndex, CreateModel

from config.migration_operations import AddIndexWithoutLock

OUR_APPS = {"accounts", "games"}
# Written before AddIndexWithoutLock and applied long ago where it matters; none may join.
LOCKING_BEFORE = {
    ("accounts", "0005_notification_retention"),
    ("accounts", "0019_name_key"),
    ("games", "0012_scale_reads"),
    ("games", "0017_bots_moments_of_their_own"),
}


def _plain_index_additions() -> list[tuple[str, str, str]]:
    """Plain AddIndex operations on tables that existed before their migration (an index on a
    table the same migration creates locks nobody)."""
    loader = MigrationLoader(None, ignore_no_migrations=True)
    found = []
    for (app, name), migration in loader.disk_migrations.items():
        if app not in OUR_APPS or (app, name) in LOCKING_BEFORE:
            continue
        created = {op.name_lower for op in migration.operations if isinstance(op, CreateModel)}
        for operation in migration.operations:
            if (
                isinstance(operation, AddIndex)
                and not isinstance(operation, AddIndexWithoutLock)
                and operation.model_name_lower not in created
            ):
                found.append((app, name, operation.index.name))
    return found


def test_no_new_migration_adds_an_index_that_locks_its_table():
    assert _plain_index_additions() == []


@pytest.mark.django_db(transaction=True)  # sqlmigrate refuses a non-atomic one in a transaction
def test_the_push_queue_index_is_built_concurrently():
    out = io.StringIO()
    call_command("sqlmigrate", "accounts", "0020", stdout=out)
    assert connection.vendor == "postgresql"
    assert 'CREATE INDEX CONCURRENTLY "notification_push_pending"' in out.getvalue()
