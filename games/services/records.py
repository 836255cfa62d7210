"""Ratings and records: written once, when a table ends, from its now public log.

Ratings use OpenSkill's Weng-Lin Plackett-Luce model (placement-based: it rates several
winners against one loser, or one winner against several, without turning a table into
pairwise duels), among the humans of the table. A table is unrated when a seat was taken over
by the bot (missed turns, absence, a moderator, a ban) or fewer than two humans played it;
aborted tables are not recorded at all. Nothing is counted while a game runs: the bluffing
figures come from the log, which is only public at the end.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from django.db import connection
from openskill.models import PlackettLuce

from config.statements import run_together
from games.catalog import registry as catalog
from games.models import Event, Game, PlayerRecord, Seat
from games.table_write import row_update, row_values

TAKEN_OVER = ("timeouts", "absent", "admin", "banned", "closed", "left")  # a seat its player left


class LogRow(NamedTuple):
    """What the catalog's figures read of a stored row (``Event``), without a model instance
    per row (a table's log is ~60 of them)."""

    seat: int | None
    action: dict[str, Any]
    events: list[dict[str, Any]]


# every field of a record a finished table may change
COUNTED = tuple(
    f.name for f in PlayerRecord._meta.concrete_fields if f.name not in {"id", "user", "engine"}
)
MODEL = PlackettLuce()


def _user_id(seat: Seat) -> int:
    """The player of a seat that has one (``record_finished`` reads no other)."""
    assert seat.user_id is not None
    return seat.user_id


def record_finished(game: Game, seats: list[Seat]) -> None:
    """Inside the change that finished ``game``: each seated player's record and rating.

    Four round trips whatever the table: the missing records made, all of them locked (in one
    order, so two tables of the same players ending at once wait rather than deadlock), the
    log read, the records written together; a record at a time took 7 to 16."""
    result = game.result or {}
    winners = set(result.get("winners", []))
    players = [s for s in seats if s.user_id is not None]
    if not players:
        return
    users = sorted({_user_id(s) for s in players})
    PlayerRecord.objects.bulk_create(
        [PlayerRecord(user_id=user_id, engine=game.engine) for user_id in users],
        ignore_conflicts=True,
    )
    records = {
        record.user_id: record
        for record in PlayerRecord.objects.select_for_update()
        .filter(engine=game.engine, user_id__in=users)
        .order_by("user_id")
    }
    rows = [
        LogRow(*values)
        for values in Event.objects.filter(game=game)
        .order_by("seq")
        .values_list("seat", "action", "events")
    ]
    figures = catalog.get(game.engine).figures  # the game's bluffing figures, if it has any
    kept = [s for s in players if not (s.is_bot and s.bot_reason in TAKEN_OVER)]
    for seat in players:
        record = records[_user_id(seat)]
        if seat not in kept:
            record.abandoned += 1
            continue
        record.played += 1
        record.won += seat.index in winners
        record.lost += seat.index not in winners
        for name, value in figures(rows, seat.index).items():
            setattr(record, name, getattr(record, name) + value)
    if len(kept) == len(players) and len(kept) >= 2:
        teams = [
            [MODEL.rating(mu=records[_user_id(s)].mu, sigma=records[_user_id(s)].sigma)]
            for s in kept
        ]
        ranks: list[float] = [1 if s.index in winners else 2 for s in kept]
        for seat, (rating,) in zip(kept, MODEL.rate(teams, ranks=ranks), strict=True):
            record = records[_user_id(seat)]
            record.mu, record.sigma, record.rated = rating.mu, rating.sigma, record.rated + 1
    update = row_update(PlayerRecord, COUNTED, connection.vendor)
    # bulk_update's CASE expressions cost ~10 ms of Python for a table's three records
    run_together([(update, [*row_values(r, COUNTED), r.pk]) for r in records.values()])
