"""The one-query table read (games/table_read.py) builds exactly what the ORM would: every
field of the game, of each seat and of each seat's player, in seat order, and answers
``game.seats.all()`` with no further query."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games import selectors, services
from games.models import Game, Seat


def fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def assert_same_as_the_orm(game_id: int) -> None:
    with CaptureQueriesContext(connection) as queries:
        read = selectors.game_with_seats(game_id)
        assert read is not None
        seats = list(read.seats.all())
        players = [s.user for s in seats]
    # the game and its seats with their players: one round trip (SQLite, in-process, takes
    # the two statements one by one)
    assert len(queries) == (1 if connection.vendor == "postgresql" else 2)

    game = Game.objects.prefetch_related("seats__user").get(pk=game_id)
    assert fields(read) == fields(game)
    expected = sorted(game.seats.all(), key=lambda s: s.index)
    assert [fields(s) for s in seats] == [fields(s) for s in expected]
    assert [fields(p) if p else None for p in players] == [
        fields(s.user) if s.user else None for s in expected
    ]
    assert all(isinstance(p, User) or p is None for p in players)
    assert all(s.game is read for s in seats)
    assert not read._state.adding and read._state.db == "default"
    for instance in [*seats, *(p for p in players if p)]:
        assert not instance._state.adding and instance._state.db == "default"


@pytest.mark.django_db
def test_the_seats_read_answer_counts_and_refine_in_the_database(started):
    """``game.seats`` answers from the read; a refinement is a query on this game's seats
    only (never on every seat of every game)."""
    game, _other = started("mogel-motte"), started("mogel-motte")
    read = selectors.game_with_seats(game.pk)
    assert read is not None
    with CaptureQueriesContext(connection) as queries:
        assert read.seats.count() == len(read.seats.all()) == game.seats_count
        assert read.seats.exists()
    assert len(queries) == 0
    first = list(read.seats.filter(index=0))
    assert [(s.game_id, s.index) for s in first] == [(game.pk, 0)]
    assert list(read.seats.order_by("-index").values_list("index", flat=True)) == list(
        reversed(range(game.seats_count))
    )


@pytest.mark.django_db
def test_a_started_table_reads_as_the_orm_reads_it(started):
    game = started("mogel-motte")
    assert isinstance(Game.objects.get(pk=game.pk).state, dict)  # a JSON column decoded
    assert_same_as_the_orm(game.pk)
    read = selectors.game_with_seats(game.pk)
    assert read is not None and read.state == game.state and read.deadline_at == game.deadline_at


@pytest.mark.django_db
def test_bots_empty_seats_and_a_lobby_read_as_the_orm_reads_them(trio):
    alice, _bob, _carol = trio
    lobby = services.game_create(alice, engine="imperador", seats=4, bots=1, invite=["bob"])
    assert Seat.objects.filter(game=lobby, user=None).exists()  # the bot's seat: no player
    assert_same_as_the_orm(lobby.pk)


@pytest.mark.django_db
def test_no_such_game_is_none():
    assert selectors.game_with_seats(10**9) is None


@pytest.mark.django_db
def test_a_game_without_seats_reads_with_none(trio):
    alice, _bob, _carol = trio
    game = services.game_create(alice, engine="imperador", seats=3)
    Seat.objects.filter(game=game).delete()
    read = selectors.game_with_seats(game.pk)
    assert read is not None and read.pk == game.pk and list(read.seats.all()) == []
