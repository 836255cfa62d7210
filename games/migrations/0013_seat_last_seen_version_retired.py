"""Seat.last_seen_version leaves the model: it was written on every move and read nowhere.

Expand, then contract: on PostgreSQL the column stays for this release with a default of 0,
so processes still running the code before it (a rolling restart after ``migrate``) keep
reading and writing it while new code inserts seats without it. A later migration drops it,
once no process of the earlier release is left. The embedded SQLite database is one process
restarted as a whole: its column is dropped at once.

A database migrated by 4c018ee..8098158^ has no such column any more: those releases dropped
it in ``0013_drop_seat_last_seen_version``, a migration that this one replaced under another
name. There is nothing left to retire, and ``ALTER COLUMN`` on it failed the whole upgrade
(``column "last_seen_version" of relation "games_seat" does not exist``), so both steps
first look whether the column is there.
"""

from django.db import migrations


def has_column(schema_editor) -> bool:
    connection = schema_editor.connection
    with connection.cursor() as cursor:
        columns = connection.introspection.get_table_description(cursor, "games_seat")
    return any(column.name == "last_seen_version" for column in columns)


def retire_column(apps, schema_editor):
    if not has_column(schema_editor):
        return
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_seat ALTER COLUMN last_seen_version SET DEFAULT 0")
        return
    seat = apps.get_model("games", "Seat")
    schema_editor.remove_field(seat, seat._meta.get_field("last_seen_version"))


def restore_column(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_seat ALTER COLUMN last_seen_version DROP DEFAULT")
        return
    seat = apps.get_model("games", "Seat")
    schema_editor.add_field(seat, seat._meta.get_field("last_seen_version"))


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_scale_reads"),
    ]

    operations = [
        # runs against the state that still has the field (its historical model)
        migrations.RunPython(retire_column, restore_column),
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.RemoveField(model_name="seat", name="last_seen_version")],
        ),
    ]
