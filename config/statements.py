"""Several SQL statements in one round trip.

With client-side binding (Django's default for psycopg) statements joined by ``;`` travel as
one simple query, and each result follows the one before it (``nextset``). Each statement is
bound on its own (``mogrify``) and the bound texts are joined: psycopg caches the parse of a
query's placeholders only for texts under 4 KB with at most 50 parameters, which a change's
writes together exceed, and parsing them again cost ~0.1 ms a move. In READ COMMITTED
each statement still takes its own snapshot once the one before it has ended, so a statement
sees what the ones before it wrote and the rows they locked. SQLite runs one statement per
call: there they go one by one, with the same results.
"""

from __future__ import annotations

from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from psycopg.pq import ExecStatus

Statement = tuple[str, list[Any]]
Result = tuple[list[tuple[Any, ...]] | None, int]  # (rows, or None without a result set; count)


def default_connection() -> BaseDatabaseWrapper:
    """The default connection itself. ``django.db.connection`` is a proxy: every attribute read
    through it is a lookup in a context-local, so code that reads the connection per value or
    per column (tens of times a move) takes it once from here."""
    return connections[DEFAULT_DB_ALIAS]


def joined(statements: list[Statement]) -> Statement:
    """The statements as one simple query with their parameters, for a psycopg client-side
    cursor of one's own (games/live_read.py); ``run_together`` binds each one first."""
    return "; ".join(sql for sql, _ in statements), [p for _, params in statements for p in params]


def run_together(statements: list[Statement]) -> list[Result]:
    """Each statement's rows (None for one that returns none) and row count, in order."""
    results: list[Result] = []
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            bind = cursor.cursor.mogrify
            cursor.execute("; ".join(bind(sql, params) for sql, params in statements))
            results.append(_pg_result(cursor))
            while len(results) < len(statements):
                cursor.nextset()
                results.append(_pg_result(cursor))
            return results
        for sql, params in statements:
            cursor.execute(sql, params)
            results.append(_result(cursor))
    return results


def _pg_result(cursor: Any) -> Result:
    # not ``description``: psycopg builds a Column object for each of its columns (~75 a move)
    status = cursor.cursor.pgresult.status
    rows = cursor.fetchall() if status == ExecStatus.TUPLES_OK else None
    return rows, cursor.rowcount


def _result(cursor: Any) -> Result:
    rows = cursor.fetchall() if cursor.description is not None else None
    return rows, cursor.rowcount
