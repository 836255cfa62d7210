"""Upgrades from databases that earlier releases migrated: the migrations since must apply
over what those releases left, not only over a database migrated by today's files."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder

# 4c018ee..8098158^ shipped games 0013 under this name: it dropped the column at once
DROPPED_EARLY = ("games", "0013_drop_seat_last_seen_version")


def seat_columns() -> set[str]:
    with connection.cursor() as cursor:
        return {
            c.name for c in connection.introspection.get_table_description(cursor, "games_seat")
        }


@pytest.mark.django_db(transaction=True)  # migrations back and forth outside a test transaction
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
