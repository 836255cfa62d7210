"""The benchmark's floor endpoint: exactly one locked read, one write and one insert; absent
unless BENCH_ENDPOINTS is on."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import clear_url_caches

import config.urls
from games.models import Event, Game


def _load_urls(settings, on: bool) -> None:
    settings.BENCH_ENDPOINTS = on
    importlib.reload(config.urls)
    clear_url_caches()


@pytest.fixture
def bench_urls(settings):
    """config/urls.py as loaded with BENCH_ENDPOINTS on; reloaded as it was afterwards."""
    before = settings.BENCH_ENDPOINTS
    _load_urls(settings, True)
    yield
    _load_urls(settings, before)


@pytest.fixture
def floor_game(alice):
    return Game.objects.create(
        engine="cockroach-poker-royal",
        seats_count=3,
        move_seconds=86400,
        window_seconds=3600,
        status=Game.Status.ABORTED,
        seed=0,
        created_by=alice,
        version=7,
    )


def _statements(queries: list[dict]) -> list[str]:
    """The SQL the view ran, without the savepoints the test's own transaction adds."""
    return [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"].upper()]


@pytest.mark.django_db
def test_floor_is_one_locked_read_one_write_one_insert(client, bench_urls, floor_game):
    with CaptureQueriesContext(connection) as captured:
        response = client.post(f"/bench/floor/{floor_game.pk}/")
    assert response.status_code == 200
    assert response.json() == {"id": floor_game.pk, "version": 8}

    select, update, insert = _statements(captured.captured_queries)
    assert select.startswith("SELECT") and select.endswith("FOR NO KEY UPDATE")
    assert update.startswith('UPDATE "games_game" SET "version" = 8')
    assert insert.startswith('INSERT INTO "games_event"')

    floor_game.refresh_from_db()
    assert floor_game.version == 8
    event = Event.objects.get(game=floor_game)
    assert (event.seq, event.action) == (8, {"type": "floor"})


@pytest.mark.django_db
def test_floor_statement_count(client, bench_urls, floor_game, django_assert_num_queries):
    # 3 statements + the savepoint pair of transaction.atomic inside the test's transaction.
    with django_assert_num_queries(5):
        assert client.post(f"/bench/floor/{floor_game.pk}/").status_code == 200


@pytest.mark.django_db
def test_bare_runs_no_sql(client, bench_urls, django_assert_num_queries):
    with django_assert_num_queries(0):
        response = client.get("/bench/bare/")
    assert response.status_code == 200
    assert response.json() == {"ok": True}
    assert client.post("/bench/bare/").status_code == 405


@pytest.mark.django_db
def test_floor_refuses_get_and_unknown_games(client, bench_urls, floor_game):
    assert client.get(f"/bench/floor/{floor_game.pk}/").status_code == 405
    assert client.post(f"/bench/floor/{floor_game.pk + 1000}/").status_code == 404
    floor_game.refresh_from_db()
    assert floor_game.version == 7


@pytest.mark.django_db
def test_floor_is_not_mounted_unless_bench_endpoints_is_on(client, settings, floor_game):
    before = settings.BENCH_ENDPOINTS
    _load_urls(settings, False)
    try:
        response = client.post(f"/bench/floor/{floor_game.pk}/")
    finally:
        _load_urls(settings, before)
    assert response.status_code == 404
    floor_game.refresh_from_db()
    assert floor_game.version == 7
    assert not Event.objects.filter(game=floor_game).exists()
