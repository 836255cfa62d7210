"""The games' JSON columns (games/fields.py) go through orjson on PostgreSQL and store and read
back exactly what Django's own JSONField did: the same jsonb in the row, the same Python value
out of it, integers past 64 bits included, through the ORM and a change's own writes. The
state, past PostgreSQL's 2 KB, is compressed with lz4."""

from __future__ import annotations

import importlib
import json
import math
import random

import pytest
from django.db import connection, models

from games import fields, services
from games.models import Event, Game
from games.table_read import read_game_with_seats
from games.table_write import write_change
from tests.games.helpers import next_human_move, seat_users

LZ4_OFFERED = importlib.import_module("games.migrations.0016_state_compressed_with_lz4").LZ4_OFFERED

pytestmark = pytest.mark.django_db

AWKWARD = {
    "text": "quote ' backslash \\ percent %s %% newline \n tab \t nul-free ünïcödé 🂡 ﷽",
    "ints": [0, -1, 2**62, 2**63 - 1, -(2**63), 2**64 - 1],
    "past_64_bits": [2**64, 2**70, -(2**63) - 1, -(10**25)],
    "nineteen_digits": -9999999999999999999,
    "int_keys": {1: "one", 2: [True, False, None]},
    "nested": [[[]], {}, {"": ""}],
    "tuple": (1, "two"),
}


def stock(value):
    """What Django's JSONField hands back for ``value``: the standard library's round trip."""
    return json.loads(json.dumps(value))


def test_every_json_column_of_the_games_goes_through_orjson():
    for model in (Game, Event):
        for field in model._meta.concrete_fields:
            if isinstance(field, models.JSONField):
                assert isinstance(field, fields.JSONField), f"{model.__name__}.{field.name}"


def test_the_fast_path_is_taken_for_ordinary_values():
    assert isinstance(fields.dumps({"a": [1, None]}), bytes)  # orjson's answer, not json's str
    assert fields.dumps({1: "x"}) == b'{"1":"x"}'


def test_a_states_nineteen_digit_seed_is_read_by_orjson(monkeypatch):
    """A state's random seed has 19 digits: every state was read by the standard library."""

    def refused(*args, **kwargs):
        raise AssertionError("read by the standard library")

    monkeypatch.setattr(fields.json, "loads", refused)
    seeds = [2981153501134112133, 9999999999999999999, -999999999999999999, 10**18, -123]
    read = fields.loads(json.dumps({"rng": {"seed": seeds[0]}, "all": seeds}))
    assert read == {"rng": {"seed": seeds[0]}, "all": seeds}
    assert all(type(n) is int for n in read["all"])


@pytest.mark.parametrize(
    "text",
    [
        "18446744073709551616",
        "-9999999999999999999",
        "[1, -12345678901234567890]",
        "-9223372036854775809",
        "[12345678901234567890123]",
        "NaN",
    ],
)
def test_what_orjson_would_read_differently_is_read_by_the_standard_library(text):
    read = fields.loads(text)
    expected = json.loads(text)
    assert type(read) is type(expected)
    assert read == expected or (math.isnan(read) and math.isnan(expected))


def test_values_orjson_refuses_are_written_by_the_standard_library():
    assert fields.dumps([2**70]) == json.dumps([2**70])


def test_the_orm_stores_the_same_jsonb_and_reads_back_the_same_value(started):
    game = started()
    Game.objects.filter(pk=game.pk).update(result=AWKWARD)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT result = %s::jsonb FROM games_game WHERE id = %s",
            [json.dumps(AWKWARD), game.pk],
        )
        assert cursor.fetchone() == (True,)
    read = Game.objects.get(pk=game.pk).result
    assert read == stock(AWKWARD)
    assert read["past_64_bits"] == [2**64, 2**70, -(2**63) - 1, -(10**25)]
    assert all(type(n) is int for n in read["past_64_bits"] + read["ints"])


def test_a_changes_own_writes_and_reads_keep_the_values(started):
    game = Game.objects.get(pk=started().pk)
    revision, version = game.revision, game.version
    game.state = {**game.state, "extra": AWKWARD}
    game.revision += 1
    event = Event(game=game, seq=version + 1, seat=0, action=AWKWARD, events=[AWKWARD])
    game.version += 1
    assert write_change(game, [event], revision, version) == []
    read, _seats = read_game_with_seats(game.pk)
    assert read.state["extra"] == stock(AWKWARD)
    stored = Event.objects.get(pk=event.pk)
    assert stored.action == stock(AWKWARD) and stored.events == [stock(AWKWARD)]


def test_a_moves_state_is_stored_compressed_with_lz4(started):
    """Migration 0016: a state past PostgreSQL's 2 KB is compressed with lz4, not pglz."""
    game = started()
    users = seat_users(game)
    rng = random.Random(3)
    for _ in range(4):
        game.refresh_from_db()
        seat, action = next_human_move(game, rng)
        services.act(users[seat], game.pk, game.version_for(seat), action)
    with connection.cursor() as cursor:
        cursor.execute(LZ4_OFFERED)
        if not cursor.fetchone()[0]:
            pytest.skip("this PostgreSQL was built without lz4: the state stays pglz")
        cursor.execute(
            "SELECT pg_column_size(state), octet_length(state::text),"
            " pg_column_compression(state) FROM games_game WHERE id = %s",
            [game.pk],
        )
        stored, text, method = cursor.fetchone()
    assert (method, stored < text) == ("lz4", True)
