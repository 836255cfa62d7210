"""Statements run together (config/statements.py) are prepared once per PostgreSQL connection,
then executed by name with their values; what the process believes a connection holds is
what the server holds, through a rollback, a failed round trip and the cap."""

from __future__ import annotations

import uuid

import pytest
from django.db import DataError, connection, transaction
from django.test.utils import CaptureQueriesContext

from config import statements
from config.statements import described, run_together

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(
        "connection.vendor != 'postgresql'", reason="prepared statements are PostgreSQL's"
    ),
]


def fresh(sql: str) -> str:
    """``sql`` with a column alias no other test uses: a statement never prepared before."""
    return f'{sql} AS "c_{uuid.uuid4().hex}"'


def sent(statements_: list[tuple[str, list]]) -> tuple[list, str]:
    with CaptureQueriesContext(connection) as captured:
        results = run_together(statements_)
    assert len(captured) == 1  # one round trip, whatever it prepares
    return results, captured[0]["sql"]


def held_by_server() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements WHERE name LIKE 'fibbers_%%'")
        return {name for (name,) in cursor.fetchall()}


def held_by_process() -> set[str]:
    with connection.cursor() as cursor:
        return statements._held[cursor.cursor.connection].names


def test_a_statement_is_prepared_the_first_time_then_only_executed():
    plus_one = fresh("SELECT %s::int + 1, 'a%%b', %s::text")
    first, first_sql = sent([(plus_one, [41, "it's; -- %s"])])
    again, again_sql = sent([(plus_one, [1, "x"])])
    assert first == [([(42, "a%b", "it's; -- %s")], 1)]
    assert again == [([(2, "a%b", "x")], 1)]
    assert first_sql.startswith("PREPARE fibbers_") and "; EXECUTE fibbers_" in first_sql
    assert again_sql.startswith("EXECUTE fibbers_") and "PREPARE" not in again_sql
    assert described(first_sql) == described(again_sql) == [plus_one]
    assert held_by_process() == held_by_server()


def test_writes_and_reads_answer_rows_and_counts_in_order(alice):
    name = f"{fresh('SELECT first_name')} FROM accounts_user WHERE id = %s"
    rename = "UPDATE accounts_user SET first_name = %s WHERE id = %s"
    for given in ("Ali", "Alicja"):  # prepared, then executed
        results = run_together([(rename, [given, alice.pk]), (name, [alice.pk])])
        assert results == [(None, 1), ([(given,)], 1)]


def test_a_rollback_keeps_what_was_prepared():
    statement = fresh("SELECT %s::int * 2")
    with transaction.atomic():
        assert run_together([(statement, [21])]) == [([(42,)], 1)]
        transaction.set_rollback(True)
    results, sql = sent([(statement, [4])])
    assert results == [([(8,)], 1)] and sql.startswith("EXECUTE ")
    assert held_by_process() == held_by_server()


def test_after_a_failed_round_trip_that_prepared_the_next_starts_over():
    kept = fresh("SELECT %s::int - 1")
    run_together([(kept, [1])])
    failing = fresh("SELECT 1 / %s::int")
    with pytest.raises(DataError), transaction.atomic():
        run_together([(failing, [0])])  # prepared, then division by zero
    results, sql = sent([(kept, [10]), (failing, [2])])
    assert results == [([(9,)], 1), ([(0,)], 1)]
    assert sql.startswith("DEALLOCATE ALL; PREPARE fibbers_")
    assert held_by_process() == held_by_server()
    assert sent([(kept, [3])])[1].startswith("EXECUTE ")


def test_past_the_cap_a_statement_runs_unprepared(monkeypatch):
    monkeypatch.setattr(statements, "MAX_PREPARED", len(held_by_process()))
    statement = fresh("SELECT %s::int + 2")
    results, sql = sent([(statement, [1])])
    assert results == [([(3,)], 1)]
    assert sql == statement.replace("%s", "1") and held_by_process() == held_by_server()


def test_turned_off_every_statement_is_bound_into_the_text(settings):
    settings.DB_PREPARED_STATEMENTS = False  # behind a transaction-mode pooler
    statement = fresh("SELECT %s::text || 'b'")
    results, sql = sent([(statement, ["a's"])])
    assert results == [([("a'sb",)], 1)]
    assert sql == statement.replace("%s", "'a''s'") and held_by_process() == held_by_server()
