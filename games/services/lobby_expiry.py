"""Tables nobody starts do not wait for ever. A table still gathering players
UNSTARTED_TABLE_DAYS after it was made is cancelled, and whoever sat down or was invited hears
why: it left the Open tables list and everyone's My games, where it waited on a creator who
had gone. The lobby says when, from the day the table was made."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Game
from games.services.tables import table_expire

UNSTARTED_TABLE_DAYS = 14
EXPIRY_BATCH = 200  # per sweep (hourly): the next sweep takes the rest


def expires_at(game: Game) -> datetime:
    """When ``game``, if still unstarted, is cancelled."""
    return game.created_at + timedelta(days=UNSTARTED_TABLE_DAYS)


def expire_unstarted_tables(now: datetime | None = None) -> int:
    """Cancels the tables due (index game_status_created); returns how many."""
    cutoff = (now or timezone.now()) - timedelta(days=UNSTARTED_TABLE_DAYS)
    due = (
        Game.objects.filter(status=Game.Status.LOBBY, created_at__lt=cutoff)
        .order_by("created_at")
        .values_list("pk", flat=True)[:EXPIRY_BATCH]
    )
    return sum(table_expire(pk, cutoff, UNSTARTED_TABLE_DAYS) for pk in list(due))
