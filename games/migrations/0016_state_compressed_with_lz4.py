"""PostgreSQL compresses the game's state with lz4 instead of pglz.

A mid-game state is ~3.9 KB as jsonb: past the 2 KB at which PostgreSQL compresses a row, so
every move compressed it and every read of the game decompressed it. pglz cost PostgreSQL
72–146 µs of CPU per locked read and update of such a row more than lz4 (bench/README.md); lz4
keeps it at ~1.7 KB where pglz made ~1.3 KB. Only values written from now on are lz4: a move
rewrites the state anyway. A server built without lz4 keeps pglz (the statement would fail
there). No lock beyond a brief catalogue update; no table rewrite.
"""

from django.db import migrations

LZ4_OFFERED = (
    "SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'"
)


def compression(method: str):
    def apply(apps, schema_editor):
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            return
        with connection.cursor() as cursor:
            cursor.execute(LZ4_OFFERED)
            row = cursor.fetchone()
        if row and row[0]:
            schema_editor.execute(
                f"ALTER TABLE games_game ALTER COLUMN state SET COMPRESSION {method}"
            )

    return apply


class Migration(migrations.Migration):
    dependencies = [("games", "0015_json_columns_through_orjson")]

    operations = [migrations.RunPython(compression("lz4"), compression("default"))]
