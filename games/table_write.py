"""A change's writes, its new events and the game's row (and the notices it sends), in one
round trip, without the ORM's per-call compiling.

Every move ends with these two statements. Through the ORM (``bulk_create`` and
``QuerySet.update`` of 22 columns) they cost ~1 ms of Python a move on this machine, most of
it building the same SQL again each time; here the SQL is built once per database vendor
from the models' metadata and only the values are prepared per call, with the fields' own
``pre_save`` and ``get_db_prep_save``, as the ORM's compilers do. On PostgreSQL the
statements go in one round trip (config/statements.py, as games/table_read.py reads).
tests/games/test_table_write.py compares the rows written with what the ORM writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model

from config.statements import Result, Statement, default_connection, run_together
from games.models import Event, Game

# What a change may alter in the game's row: everything else is fixed once the table exists.
GAME_WRITTEN = (
    "state",
    "version",
    "revision",
    "seat_versions",
    "seat_revisions",
    "status",
    "result",
    "started_at",
    "finished_at",
    "seed",
    "deadline_at",
    "remind_at",
    "bots_at",
    "wait_mask",
    "wait_seq",
    "wait_kind",
    "wait_window",
    "wait_seat",
    "wait_opened_at",
    "sweep_failures",
    "sweep_after",
    "live_since",
    "live_offer",
)


def column_name(model: type[Model], name: str) -> str:
    """The column of one of ``model``'s own fields."""
    field = model._meta.get_field(name)
    assert isinstance(field, Field)  # a column of the model's table, not a relation's far side
    return field.column


@cache
def _event_fields() -> list[Any]:
    return [f for f in Event._meta.concrete_fields if not f.primary_key]


@cache
def _insert_events(vendor: str, rows: int) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(f.column) for f in _event_fields())
    row = "(" + ", ".join(["%s"] * len(_event_fields())) + ")"
    return (
        f"INSERT INTO {quote(Event._meta.db_table)} ({columns}) "
        f"VALUES {', '.join([row] * rows)} RETURNING {quote(Event._meta.pk.column)}"
    )


@cache
def row_update(
    model: type[Model], names: tuple[str, ...], vendor: str, *, also: tuple[str, ...] = ()
) -> str:
    """``UPDATE`` of ``model``'s columns ``names`` (a ``%s`` each, in order) for the row whose
    primary key is the next ``%s``, and whose columns ``also`` still hold the ones after it."""
    quote = connection.ops.quote_name
    column = {name: quote(column_name(model, name)) for name in (*names, *also)}
    assignments = ", ".join(f"{column[name]} = %s" for name in names)
    checks = "".join(f" AND {column[name]} = %s" for name in also)
    return (
        f"UPDATE {quote(model._meta.db_table)} SET {assignments} "
        f"WHERE {quote(model._meta.pk.column)} = %s{checks}"
    )


def _event_values(events: list[Event]) -> list[Any]:
    db = default_connection()
    return [
        field.get_db_prep_save(field.pre_save(event, True), db)
        for event in events
        for field in _event_fields()
    ]


@cache
def _fields(model: type[Model], names: tuple[str, ...]) -> list[Any]:
    return [model._meta.get_field(name) for name in names]


def row_values(instance: Model, names: tuple[str, ...]) -> list[Any]:
    """The instance's ``names`` as the ORM would write them (each field's ``get_db_prep_save``),
    for ``row_update``."""
    db = default_connection()
    return [
        field.get_db_prep_save(getattr(instance, field.attname), db)
        for field in _fields(type(instance), names)
    ]


def write_change(
    game: Game,
    events: list[Event],
    revision: int,
    version: int,
    then: Sequence[Statement] = (),
) -> list[Result] | None:
    """Inserts ``events`` (setting their ids), writes the game's changed columns where its row
    still has the ``revision`` and ``version`` it was locked with, then runs ``then``'s
    statements, all in one round trip. Returns ``then``'s results; None when the game's row
    was not written (the caller's transaction must roll back, events included)."""
    statements: list[Statement] = []
    if events:
        statements.append((_insert_events(connection.vendor, len(events)), _event_values(events)))
    statements.append(
        (
            row_update(Game, GAME_WRITTEN, connection.vendor, also=("revision", "version")),
            [*row_values(game, GAME_WRITTEN), game.pk, revision, version],
        )
    )
    results = run_together([*statements, *then])
    if events:
        rows, _count = results.pop(0)
        for event, (pk,) in zip(events, rows or [], strict=True):
            event.pk = pk
            event._state.adding, event._state.db = False, connection.alias
    _rows, updated = results.pop(0)
    return results if updated == 1 else None
