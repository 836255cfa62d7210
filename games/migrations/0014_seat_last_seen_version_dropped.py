"""The contract step of 0013: PostgreSQL drops ``games_seat.last_seen_version``.

0013 took the column out of the model and left it in PostgreSQL for one release, so processes
of the release before it could keep writing it during a rolling restart. That release has
been replaced by one that never touches the column, so it goes now. Dropping a column is a
catalogue change in PostgreSQL (no table rewrite); the connection's ``lock_timeout`` (5 s)
bounds the wait for its brief exclusive lock, so a long transaction fails the migration
instead of queueing every request behind it. SQLite dropped it in 0013 already.
"""

from django.db import migrations


def drop_column(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_seat DROP COLUMN IF EXISTS last_seen_version")


def restore_column(apps, schema_editor):
    # back to 0013's shape: the column present, filled with and defaulting to 0
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "ALTER TABLE games_seat ADD COLUMN last_seen_version integer NOT NULL DEFAULT 0"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_seat_last_seen_version_retired"),
    ]

    operations = [migrations.RunPython(drop_column, restore_column)]
