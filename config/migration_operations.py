"""Schema operations for migrations that run against a live site."""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db.migrations.operations import AddIndex


class AddIndexWithoutLock(AddIndexConcurrently):
    """An index built with CREATE INDEX CONCURRENTLY on PostgreSQL: a plain CREATE INDEX holds
    off every write to its table while it reads all of it (a notification table of millions
    of rows would stall the moves that write notices). A plain index elsewhere (make run's
    SQLite). Its migration needs ``atomic = False``."""

    def database_forwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, *states)
        else:
            AddIndex.database_forwards(self, app_label, schema_editor, *states)

    def database_backwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, *states)
        else:
            AddIndex.database_backwards(self, app_label, schema_editor, *states)
