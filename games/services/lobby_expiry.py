"""Tables nobody starts do not wait for ever. A table still gathering players
UNSTARTED_TABLE_DAYS after it was made is cancelled, and whoever sat down or was invited hears
why: it left the Open tables list and everyone's My games, where it waited on a creator who
had gone. The lobby says when, from the day the table was made, and its creator is told a
day before."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.cache import cache
from django.db.models import Q
from django.utils import timezone

from games.models import Game
from games.services import notify
from games.services.tables import table_expire

UNSTARTED_TABLE_DAYS = 14
EXPIRY_BATCH = 200  # per sweep (every minute): the next sweep takes the rest
WARN_BEFORE = timedelta(days=1)
# Each sweep warns the tables that entered their last day in the two hours before it:
# the windows overlap (a sweep runs a little late or early), and a warning goes once.
WARN_WINDOW = timedelta(hours=2)
WARNED_KEEP_SECONDS = 3 * 86400


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


def warn_unstarted_tables(now: datetime | None = None) -> int:
    """The creators of the tables that entered their last day hear it, once; returns how many
    were told."""
    last_day = (now or timezone.now()) - timedelta(days=UNSTARTED_TABLE_DAYS) + WARN_BEFORE
    entered = (
        Game.objects.filter(
            status=Game.Status.LOBBY,
            created_at__lte=last_day,
            created_at__gt=last_day - WARN_WINDOW,
            created_by__isnull=False,
        )
        .select_related("created_by")
        .order_by("created_at", "pk")
    )
    told = 0
    page = list(entered[:EXPIRY_BATCH])
    # Every table of the window, a batch at a time: one batch, unordered, was the same tables
    # sweep after sweep, and past EXPIRY_BATCH in two hours the others were never warned.
    while page:
        keys = {f"lobby-expiry-warned:{game.pk}": game for game in page}
        warned = cache.get_many(list(keys))  # one round trip for the batch's warned ones
        for key, game in keys.items():
            if key not in warned and cache.add(key, True, WARNED_KEEP_SECONDS):
                notify.table_expiring(game)
                told += 1
        last = page[-1]
        after = Q(created_at__gt=last.created_at) | Q(created_at=last.created_at, pk__gt=last.pk)
        page = list(entered.filter(after)[:EXPIRY_BATCH])
    return told
