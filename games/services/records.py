"""Ratings and records: written once, when a table ends, from its now public log.

Ratings use OpenSkill's Weng-Lin Plackett-Luce model (placement-based: it rates several
winners against one loser, or one winner against several, without turning a table into
pairwise duels), among the humans of the table. A table is unrated when a seat was taken over
by the bot (missed turns, absence, a moderator, a ban) or fewer than two humans played it;
aborted tables are not recorded at all. Nothing is counted while a game runs: the bluffing
figures come from the log, which is only public at the end.
"""

from __future__ import annotations

from openskill.models import PlackettLuce

from games.catalog import registry as catalog
from games.models import Event, Game, PlayerRecord, Seat

TAKEN_OVER = ("timeouts", "absent", "admin", "banned")
MODEL = PlackettLuce()


def record_finished(game: Game, seats: list[Seat]) -> None:
    """Inside the change that finished ``game``: each seated player's record and rating."""
    result = game.result or {}
    winners = set(result.get("winners", []))
    players = [s for s in seats if s.user_id is not None]
    if not players:
        return
    rows = list(Event.objects.filter(game=game).order_by("seq"))
    figures = catalog.get(game.engine).figures  # the game's bluffing figures, if it has any
    records = {
        s.user_id: PlayerRecord.objects.select_for_update().get_or_create(
            user_id=s.user_id, engine=game.engine
        )[0]
        for s in players
    }
    kept = [s for s in players if not (s.is_bot and s.bot_reason in TAKEN_OVER)]
    for seat in players:
        record = records[seat.user_id]
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
            [MODEL.rating(mu=records[s.user_id].mu, sigma=records[s.user_id].sigma)] for s in kept
        ]
        ranks = [1 if s.index in winners else 2 for s in kept]
        for seat, (rating,) in zip(kept, MODEL.rate(teams, ranks=ranks), strict=True):
            record = records[seat.user_id]
            record.mu, record.sigma, record.rated = rating.mu, rating.sigma, record.rated + 1
    for record in records.values():
        record.save()
