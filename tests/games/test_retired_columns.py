"""A column leaves the model a release before it leaves PostgreSQL: games migration 0013
took ``Seat.last_seen_version`` out of the model and kept the column (default 0) for the
processes of the earlier release; 0014 drops it. Both steps, forward and back, on the test
database's own schema, inside a transaction that is rolled back (PostgreSQL's DDL is
transactional)."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.db import connection, transaction
from django.db.migrations.state import ProjectState

from games.models import Seat

pytestmark = pytest.mark.django_db

pg_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite drops it in 0013")


def seat_columns() -> set[str]:
    with connection.cursor() as cursor:
        return {
            column.name
            for column in connection.introspection.get_table_description(cursor, "games_seat")
        }


def test_the_column_is_gone_from_model_and_table():
    assert "last_seen_version" not in {f.name for f in Seat._meta.get_fields()}
    assert "last_seen_version" not in seat_columns()


def immediate_constraints() -> None:
    # rows this test's transaction inserted leave deferred foreign-key checks pending, and
    # PostgreSQL alters no table with pending trigger events (a real migrate has none)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")


@pg_only
def test_0014_back_gives_0013s_column_for_the_earlier_release_and_forward_drops_it(started):
    game = started()
    drop = import_module("games.migrations.0014_seat_last_seen_version_dropped")
    apps = ProjectState().apps
    with transaction.atomic():
        immediate_constraints()
        with connection.schema_editor(atomic=False) as editor:
            drop.restore_column(apps, editor)
        # what a process of the earlier release did on every move, on seats this one inserted
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE games_seat SET last_seen_version = 3 WHERE game_id = %s AND index = 0",
                [game.pk],
            )
            cursor.execute(
                "SELECT index, last_seen_version FROM games_seat WHERE game_id = %s ORDER BY index",
                [game.pk],
            )
            assert cursor.fetchall() == [(0, 3), (1, 0), (2, 0)]
        # and this release still inserts seats while the column is there (its default fills it)
        assert started().seats.count() == 3
        immediate_constraints()
        with connection.schema_editor(atomic=False) as editor:
            drop.drop_column(apps, editor)
        assert "last_seen_version" not in seat_columns()
        transaction.set_rollback(True)
