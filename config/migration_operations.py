"""Schema operations for migrations that run against a live site."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.contrib.postgres.operations import AddIndexConcurrently
from django.db.migrations.operations import AddConstraint, AddIndex
from django.db.models import UniqueConstraint

# A previous attempt's index that CREATE INDEX CONCURRENTLY left behind when it failed (a
# timeout, ^C): marked invalid, unused by queries, yet its name is taken.
INVALID_INDEX = """
    SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE c.relname = %s AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid
"""


@contextmanager
def _without_timeouts(connection: Any) -> Iterator[None]:
    """The session's statement and lock timeouts off, then back as they were. They keep a
    request from holding others up; a concurrent build holds up nobody, and it waits for every
    transaction older than its own to end: a move or a digest open for 5 s (the lock timeout)
    cancelled it; and a build takes longer the bigger its table (0.8 s for 5 million notices
    on the 2-core machine), one day past the 15 s statement timeout."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')"
        )
        statement_timeout, lock_timeout = cursor.fetchone()
        cursor.execute("SET statement_timeout = 0; SET lock_timeout = 0")
        try:
            yield
        finally:
            cursor.execute(
                "SELECT set_config('statement_timeout', %s, false), set_config('lock_timeout', %s, false)",
                [statement_timeout, lock_timeout],
            )


class AddIndexWithoutLock(AddIndexConcurrently):
    """An index built with CREATE INDEX CONCURRENTLY on PostgreSQL: a plain CREATE INDEX holds
    off every write to its table while it reads all of it (a notification table of millions
    of rows would stall the moves that write notices). A plain index elsewhere (make run's
    SQLite). Its migration needs ``atomic = False``.

    A concurrent build that fails leaves an invalid index of its name, and ``migrate`` run
    again stopped on "relation ... already exists": such a leftover is dropped first."""

    def database_forwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            AddIndex.database_forwards(self, app_label, schema_editor, *states)
            return
        with _without_timeouts(connection):
            with connection.cursor() as cursor:
                cursor.execute(INVALID_INDEX, [self.index.name])
                leftover = cursor.fetchone() is not None
            if leftover:
                schema_editor.execute(
                    f"DROP INDEX CONCURRENTLY IF EXISTS {schema_editor.quote_name(self.index.name)}"
                )
            super().database_forwards(app_label, schema_editor, *states)

    def database_backwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        if schema_editor.connection.vendor == "postgresql":
            with _without_timeouts(schema_editor.connection):
                super().database_backwards(app_label, schema_editor, *states)
        else:
            AddIndex.database_backwards(self, app_label, schema_editor, *states)


class AddConstraintWithoutLock(AddConstraint):
    """A partial unique constraint (a ``UniqueConstraint`` with a ``condition``: PostgreSQL keeps
    it as a unique index) built with CREATE UNIQUE INDEX CONCURRENTLY, for the reason of
    ``AddIndexWithoutLock``; plainly elsewhere (make run's SQLite). Its migration needs
    ``atomic = False``. A leftover invalid index of its name (a failed build) is dropped first."""

    model_name: str  # AddConstraint's own (the stubs leave them out)
    constraint: Any

    def __init__(self, model_name: str, constraint: Any) -> None:
        if not isinstance(constraint, UniqueConstraint) or constraint.condition is None:
            raise ValueError("AddConstraintWithoutLock builds partial unique constraints only")
        super().__init__(model_name, constraint)

    def database_forwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            super().database_forwards(app_label, schema_editor, *states)
            return
        _from_state, to_state = states
        model = to_state.apps.get_model(app_label, self.model_name)
        if not self.allow_migrate_model(connection.alias, model):
            return
        sql = str(self.constraint.create_sql(model, schema_editor))
        assert sql.startswith("CREATE UNIQUE INDEX "), sql
        with _without_timeouts(connection):
            with connection.cursor() as cursor:
                cursor.execute(INVALID_INDEX, [self.constraint.name])
                leftover = cursor.fetchone() is not None
            name = schema_editor.quote_name(self.constraint.name)
            if leftover:
                schema_editor.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {name}")
            schema_editor.execute(
                sql.replace("CREATE UNIQUE INDEX ", "CREATE UNIQUE INDEX CONCURRENTLY ", 1)
            )

    def database_backwards(self, app_label: str, schema_editor: Any, *states: Any) -> None:
        connection = schema_editor.connection
        if connection.vendor != "postgresql":
            super().database_backwards(app_label, schema_editor, *states)
            return
        with _without_timeouts(connection):
            schema_editor.execute(
                f"DROP INDEX CONCURRENTLY IF EXISTS {schema_editor.quote_name(self.constraint.name)}"
            )
