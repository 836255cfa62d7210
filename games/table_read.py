"""A game with its seats and their players in one round trip, built without the ORM's per-row
machinery.

Every page, API answer and socket ping of a table starts with this read. The ORM's
``select_related("game", "user")`` built a whole Game for each seat row (and decoded its
state each time): ~4.6 ms a read on this machine, against ~1.9 ms for the same rows turned
into model instances here (``bench/table_read.py``). The instances are the ORM's own
(``Model.from_db`` with the converters the compiler would apply), so nothing downstream can
tell the difference; tests/games/test_table_read.py compares the two field by field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Field, Model
from django.db.models.base import ModelState
from django.db.models.signals import post_init, pre_init

from accounts.models import User
from config.statements import default_connection, run_together
from games.models import Event, Game, Seat
from games.table_write import column_name

Converter = Callable[[Any, Any, Any], Any]


@cache
def _columns(model: type[Model]) -> list[Field]:
    return list(model._meta.concrete_fields)


def _select(model: type[Model], alias: str) -> str:
    quote = connection.ops.quote_name
    return ", ".join(f"{alias}.{quote(f.column)}" for f in _columns(model))


@cache
def _statements(vendor: str) -> tuple[str, str]:
    """The game's row, then its seats joined to their players (the game's columns, its state
    above all, are not repeated on every seat's row)."""
    quote = connection.ops.quote_name
    seat_game = quote(Seat._meta.get_field("game").column)
    seat_user = quote(Seat._meta.get_field("user").column)
    game_id, user_id = quote(Game._meta.pk.column), quote(User._meta.pk.column)
    game = f"SELECT {_select(Game, 'g')} FROM {quote(Game._meta.db_table)} g WHERE g.{game_id} = %s"
    seats = (
        f"SELECT {_select(Seat, 's')}, {_select(User, 'u')} "
        f"FROM {quote(Seat._meta.db_table)} s "
        f"LEFT JOIN {quote(User._meta.db_table)} u ON u.{user_id} = s.{seat_user} "
        f"WHERE s.{seat_game} = %s ORDER BY s.{quote('index')}"
    )
    return game, seats


Rows = list[tuple[Any, ...]]
Statements = list[tuple[str, list[Any]]]


def read_statements(game_id: int) -> Statements:
    """The game's row, then its seats with their players: what ``build`` takes."""
    game, seats = _statements(connection.vendor)
    return [(game, [game_id]), (seats, [game_id])]


def _execute(statements: Statements) -> list[Rows]:
    """Each statement's rows; on PostgreSQL all in one round trip."""
    return [rows or [] for rows, _count in run_together(statements)]


@cache
def _lock_statements(vendor: str) -> tuple[str, str]:
    """The game row locked (FOR NO KEY UPDATE: rows that reference it, events, can still be
    inserted), and the move an actor's idempotency key already made, if any."""
    game, _ = _statements(vendor)
    quote = connection.ops.quote_name
    event = Event._meta
    column = {name: quote(column_name(Event, name)) for name in ("game", "actor", "key", "action")}
    replayed = (
        f"SELECT e.{column['action']} FROM {quote(event.db_table)} e WHERE e.{column['game']} = %s "
        f"AND e.{column['actor']} = %s AND e.{column['key']} = %s LIMIT 1"
    )
    # SQLite has no row locks (its writers are serialised by the database lock)
    return game + (" FOR NO KEY UPDATE" if vendor == "postgresql" else ""), replayed


@cache
def _converters(model: type[Model], vendor: str) -> list[tuple[int, Any, list[Converter]]]:
    """What the SQL compiler applies to each column that has something to apply: the
    backend's, then the field's (column index, column, converters). Kept per database vendor:
    the backend's converters read only settings, never their connection's state, so the
    current connection is passed in when they run."""
    plan = []
    for index, field in enumerate(_columns(model)):
        column = field.get_col(model._meta.db_table)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if converters:
            plan.append((index, column, converters))
    return plan


@cache
def _attnames(model: type[Model]) -> list[str]:
    return [f.attname for f in _columns(model)]


def _instance(model: type[Model], values: Sequence[Any]) -> Any:
    db = default_connection()
    converted = list(values)
    for index, column, converters in _converters(model, db.vendor):
        value = converted[index]
        for convert in converters:
            value = convert(value, column, db)
        converted[index] = value
    if pre_init.has_listeners(model) or post_init.has_listeners(model):
        return model.from_db(db.alias, _attnames(model), converted)
    # What Model.from_db makes, without Model.__init__'s walk over the fields (a third of a
    # table read's Python): every column's attribute set, nothing else, state "from the db".
    # tests/games/test_table_read.py compares the instances with the ORM's field by field.
    instance = model.__new__(model)
    instance.__dict__.update(zip(_attnames(model), converted, strict=True))
    state = instance._state = ModelState()
    state.adding = False
    state.db = db.alias
    return instance


# The largest id a game row can have (a bigint). The ORM answers "no row" past it; these raw
# statements would fail with "bigint out of range" (a 500 for /games/9223372036854775808/).
MAX_ID = 2**63 - 1


def storable(game_id: int) -> bool:
    return 0 < game_id <= MAX_ID


def read_game_with_seats(game_id: int) -> tuple[Game, list[Seat]] | None:
    """The game and its seats (index order, each with its player or None), or None."""
    if not storable(game_id):
        return None
    return build(*_execute(read_statements(game_id)))


class Recorded:
    """The move an idempotency key already made (``action`` as the log holds it)."""

    def __init__(self, action: Any) -> None:
        self.action = action


def lock_game_with_seats(
    game_id: int, replay: tuple[int, str] | None = None
) -> tuple[Game, list[Seat], Recorded | None] | None:
    """Inside a transaction: the game row locked, then its seats with their players and the
    move ``replay`` (actor id, idempotency key) already made (None: none), or None (no game).
    The seats and the key are read by statements that start once the lock is held, so a
    change that waited for it sees what the change before it committed."""
    if not storable(game_id):
        return None
    locked, replayed = _lock_statements(connection.vendor)
    statements = [(locked, [game_id]), read_statements(game_id)[1]]
    if replay is not None:
        statements.append((replayed, [game_id, *replay]))
    results = _execute(statements)
    read = build(results[0], results[1])
    if read is None:
        return None
    if replay is None or not results[2]:
        return read[0], read[1], None
    action = Event._meta.get_field("action").from_db_value(results[2][0][0], None, connection)
    return read[0], read[1], Recorded(action)


def build(game_rows: Rows, seat_rows: Rows) -> tuple[Game, list[Seat]] | None:
    """The game and its seats from the two statements' rows (None: no such game)."""
    if not game_rows:
        return None
    game = _instance(Game, game_rows[0])
    seat_width = len(_columns(Seat))
    seats = []
    for row in seat_rows:
        seat = _instance(Seat, row[:seat_width])
        if row[seat_width] is not None:
            seat.user = _instance(User, row[seat_width:])
        seats.append(seat)
    return game, seats
