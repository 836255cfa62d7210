"""Several SQL statements in one round trip, each prepared once per connection.

With client-side binding (Django's default for psycopg) statements joined by ``;`` travel as
one simple query, and each result follows the one before it (``nextset``). In READ COMMITTED
each statement still takes its own snapshot once the one before it has ended, so a statement
sees what the ones before it wrote and the rows they locked. SQLite runs one statement per
call: there they go one by one, with the same results.

On PostgreSQL each statement is prepared on the connection the first time it runs there
(``PREPARE``, in the same round trip) and then only ``EXECUTE``\\ d with its values bound as
literals: the server parses and plans the wide reads and writes of a move once per
connection instead of on every request, which halved its CPU for a move's locked read
(bench/README.md). Prepared statements belong to the session and are not transactional
(a ROLLBACK keeps them), so what a connection holds is known exactly, except after a round
trip that prepared some and failed: then the next one starts with ``DEALLOCATE ALL``.
``DB_PREPARED_STATEMENTS=false`` (behind a transaction-mode pooler) binds every statement
into the text instead.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from weakref import WeakKeyDictionary

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.pq import ExecStatus

Statement = tuple[str, list[Any]]
Result = tuple[list[tuple[Any, ...]] | None, int]  # (rows, or None without a result set; count)

# Past this many on one connection, new statements run unprepared: a statement text that
# carries its values would otherwise leave one prepared statement per call on the server.
MAX_PREPARED = 200
_PLACEHOLDER = re.compile(r"%([%s])")


def default_connection() -> BaseDatabaseWrapper:
    """The default connection itself. ``django.db.connection`` is a proxy: every attribute read
    through it is a lookup in a context-local, so code that reads the connection per value or
    per column (tens of times a move) takes it once from here."""
    return connections[DEFAULT_DB_ALIAS]


def joined(statements: list[Statement]) -> Statement:
    """The statements as one simple query with their parameters, for a psycopg client-side
    cursor of one's own (games/live_read.py)."""
    return "; ".join(sql for sql, _ in statements), [p for _, params in statements for p in params]


@dataclass
class _Held:
    """The statements prepared on one PostgreSQL session."""

    names: set[str] = field(default_factory=set)
    unsure: bool = False  # a round trip that prepared statements failed: which did is unknown


# keyed by psycopg's connection: a new connection (after a reconnect) starts with none
_held: WeakKeyDictionary[Any, _Held] = WeakKeyDictionary()
_texts: dict[str, str] = {}  # prepared name -> the statement, for ``described``
_SEPARATOR = re.compile(r"; (?=PREPARE fibbers_|EXECUTE fibbers_|DEALLOCATE ALL)")


@dataclass(frozen=True)
class _Shape:
    name: str
    prepare: str
    execute: str  # with a %s per parameter, bound by the cursor's mogrify


@lru_cache(maxsize=1024)
def _shape(sql: str) -> _Shape:
    name = "fibbers_" + hashlib.blake2b(sql.encode(), digest_size=8).hexdigest()
    number = itertools.count(1)
    body = _PLACEHOLDER.sub(lambda m: "%" if m[1] == "%" else f"${next(number)}", sql)
    count = next(number) - 1
    arguments = f"({', '.join(['%s'] * count)})" if count else ""
    return _Shape(name, f"PREPARE {name} AS {body}", f"EXECUTE {name}{arguments}")


def described(sql: str) -> list[str]:
    """The statements a round trip sent by ``run_together`` ran, as their code wrote them
    (``%s`` for each value): ``PREPARE`` and ``DEALLOCATE`` left out, each ``EXECUTE`` replaced
    by what it executes. For tests and diagnostics."""
    found = []
    for part in _SEPARATOR.split(sql):
        if part.startswith(("PREPARE fibbers_", "DEALLOCATE ALL")):
            continue
        name = part.removeprefix("EXECUTE ").split("(", 1)[0]
        found.append(_texts.get(name, part) if part.startswith("EXECUTE fibbers_") else part)
    return found


def run_together(statements: list[Statement]) -> list[Result]:
    """Each statement's rows (None for one that returns none) and row count, in order."""
    results: list[Result] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            return _run_prepared(cursor, statements)
        for sql, params in statements:
            cursor.execute(sql, params)
            results.append(_result(cursor))
    return results


def _run_prepared(cursor: Any, statements: list[Statement]) -> list[Result]:
    bind = cursor.cursor.mogrify
    held = _held.setdefault(cursor.cursor.connection, _Held())
    ahead: list[str] = ["DEALLOCATE ALL"] if held.unsure else []
    known = set() if held.unsure else held.names
    limit = MAX_PREPARED if settings.DB_PREPARED_STATEMENTS else 0
    new: set[str] = set()
    texts = []
    for sql, params in statements:
        shape = _shape(sql)
        if shape.name not in known and shape.name not in new:
            if len(known) + len(new) >= limit:
                texts.append(bind(sql, params))
                continue
            ahead.append(shape.prepare)
            new.add(shape.name)
            if len(_texts) < 10 * MAX_PREPARED:
                _texts[shape.name] = sql
        texts.append(bind(shape.execute, params) if params else shape.execute)
    try:
        cursor.execute("; ".join([*ahead, *texts]))
    except Exception:
        held.unsure = held.unsure or bool(new)
        raise
    if held.unsure:
        held.names, held.unsure = new, False
    else:
        held.names |= new
    for _ in ahead:  # PREPARE and DEALLOCATE answer without rows
        cursor.nextset()
    results = [_pg_result(cursor)]
    while len(results) < len(statements):
        cursor.nextset()
        results.append(_pg_result(cursor))
    return results


def _pg_result(cursor: Any) -> Result:
    # not ``description``: psycopg builds a Column object for each of its columns (~75 a move)
    status = cursor.cursor.pgresult.status
    rows = cursor.fetchall() if status == ExecStatus.TUPLES_OK else None
    return rows, cursor.rowcount


def _result(cursor: Any) -> Result:
    rows = cursor.fetchall() if cursor.description is not None else None
    return rows, cursor.rowcount
