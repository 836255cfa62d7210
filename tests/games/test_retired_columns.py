"""A column leaves the model a release before it leaves PostgreSQL (games migration 0013):
processes of the earlier release, still running during a rolling restart, keep reading and
writing it while this release inserts rows without it."""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Seat

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite drops it at once")
def test_seat_last_seen_version_is_still_there_for_the_earlier_release(started):
    game = started()  # seats inserted by this release, without the column
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
    assert "last_seen_version" not in {f.name for f in Seat._meta.get_fields()}
