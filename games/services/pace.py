"""Live pace on demand: when every seated human is at the table, any of them may propose to
play at the Live pace; when all accept, the table's waits run at it until someone leaves for
longer than the presence grace (accounts.notifications.PRESENCE_SECONDS), then the table falls
back to its own pace. Each switch is one GameChange (it owns deadlines) and one PaceSwitch row,
which the history shows; engine Events stay engine actions only.

A proposal declined (by another player, or withdrawn by its proposer) keeps its proposer from
proposing again at that table for PROPOSE_AGAIN_AFTER: each round was a history row and a
refresh of every open page of the table, so a player could nag the others (or flood the
table) by proposing and declining over and over. Read from those rows, no column of its own.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.notifications import is_present
from accounts.templatetags.calendar_dates import clock_in_sentence
from games.errors import GameError, NotActive, NotAllowed
from games.models import Game, Pace, PaceSwitch, Seat
from games.services.change import GameChange


def humans(seats: list[Seat]) -> list[Seat]:
    return [s for s in seats if s.user_id is not None and not s.is_bot]


def all_present(game_id: int, seats: list[Seat]) -> bool:
    people = humans(seats)
    return bool(people) and all(
        s.user_id is not None and is_present(game_id, s.user_id) for s in people
    )


def may_propose(game: Game, seats: list[Seat], user: Any) -> bool:
    """Shown on the table: the Live pace is off, no proposal is open, everyone is here."""
    return (
        game.status == Game.Status.ACTIVE
        and not _plays_live(game)
        and game.live_offer is None
        and any(s.user_id == user.pk for s in humans(seats))
        and all_present(game.pk, seats)
    )


# As a declined takeback or draw offer elsewhere: long enough that "not now" is heard (a loop of
# proposals is at most a dozen rows an hour), short enough that a table that said no during a
# phone call can still go live in the same sitting (a Live move is a minute: a few moves).
PROPOSE_AGAIN_AFTER = timedelta(minutes=5)


def propose_again_at(game: Game, seat: int | None) -> datetime | None:
    """When ``seat`` may propose the Live pace again, if its last proposal at this table was
    declined less than PROPOSE_AGAIN_AFTER ago; else None. Only when there is something to
    propose (no query otherwise). The rows are the public history: nothing secret in it.

    A proposal ends with the first DECLINED (its end), LIVE (accepted) or PROPOSED (one ended
    without a row, by someone leaving, then another proposal) after it: only the first counts.
    A game's rows are written under its lock, so their ids are in the order they happened."""
    if seat is None or game.status != Game.Status.ACTIVE or _plays_live(game):
        return None
    if game.live_offer is not None:
        return None
    rows = PaceSwitch.objects.filter(game_id=game.pk)
    last = rows.filter(seat=seat, kind=PaceSwitch.Kind.PROPOSED).order_by("-pk").values("pk")[:1]
    end = (
        rows.filter(
            pk__gt=Subquery(last),
            kind__in=[PaceSwitch.Kind.DECLINED, PaceSwitch.Kind.LIVE, PaceSwitch.Kind.PROPOSED],
        )
        .order_by("pk")
        .values_list("kind", "created_at")
        .first()
    )
    if end is None or end[0] != PaceSwitch.Kind.DECLINED:
        return None
    again = end[1] + PROPOSE_AGAIN_AFTER
    return again if again > timezone.now() else None


def propose_again_words(again: datetime) -> str:
    """The reader's sentence for ``propose_again_at``: the page's note and a refused proposal's."""
    return _("Your proposal to play live was declined: you can propose it again at %(time)s.") % {
        "time": clock_in_sentence(again)
    }


def _plays_live(game: Game) -> bool:
    """Switched to the Live pace on demand, or made at it: a Live table has nothing to switch."""
    return game.live_since is not None or game.pace == Pace.LIVE


def _human_seat(change: GameChange, user: Any) -> Seat:
    if change.game.status != Game.Status.ACTIVE:
        raise NotActive(_("This game is not in play."))
    seat = change.seat_of(user)
    if seat is None or seat.is_bot:
        raise NotAllowed(_("You are not playing at this table."))
    return seat


def live_propose(user: Any, game_id: int) -> None:
    with GameChange(game_id) as change:
        seat = _human_seat(change, user)
        game = change.game
        if _plays_live(game):
            raise GameError(_("This table already plays live."), "already_live")
        if game.live_offer is not None:
            raise GameError(_("Playing live was already proposed."), "already_proposed")
        if not all_present(game.pk, change.seats):
            raise GameError(
                _("Everyone must be at the table to play live."), "not_everyone_present"
            )
        again = propose_again_at(game, seat.index)
        if again is not None:  # a forged form: the page offers no button meanwhile
            raise GameError(propose_again_words(again), "propose_too_soon")
        game.live_offer = [seat.index]
        PaceSwitch.objects.create(
            game=game, kind=PaceSwitch.Kind.PROPOSED, seat=seat.index, created_at=change.now
        )
        _maybe_switch(change)
        change.touch()


def live_answer(user: Any, game_id: int, accept: bool) -> None:
    with GameChange(game_id) as change:
        seat = _human_seat(change, user)
        game = change.game
        if game.live_offer is None:
            raise GameError(_("Nobody proposed to play live."), "no_proposal")
        kind = PaceSwitch.Kind.ACCEPTED if accept else PaceSwitch.Kind.DECLINED
        PaceSwitch.objects.create(game=game, kind=kind, seat=seat.index, created_at=change.now)
        if accept:
            game.live_offer = sorted({*game.live_offer, seat.index})
            _maybe_switch(change)
        else:
            game.live_offer = None  # one "no" ends the proposal
        change.touch()


def seat_departed(change: GameChange) -> None:
    """A seat went to the bot while a proposal was open: those who stay may all have accepted
    already, and nobody would be left to answer it (a second proposal is refused while one is
    open). With no human left, or the game over, there is nobody to play live with."""
    if change.game.live_offer is None:
        return
    if change.over() or not humans(change.seats):
        change.game.live_offer = None
        return
    _maybe_switch(change)


def _maybe_switch(change: GameChange) -> None:
    game = change.game
    if game.live_offer is None or any(s.index not in game.live_offer for s in humans(change.seats)):
        return
    game.live_offer = None
    game.live_since = change.now
    PaceSwitch.objects.create(game=game, kind=PaceSwitch.Kind.LIVE, created_at=change.now)
    if change.wait_opened:
        return  # a wait opened by this change (a bot's move): it gets its Live time as it opens
    # The current wait runs at the Live pace from now on (never longer than it had left).
    live = change.deadline_of_current_wait(change.now)
    if live is not None:
        current = game.deadline_at
        change.set_deadline(min(current, live) if current else live)


def live_check(game_id: int) -> bool:
    """Falls back to the table's own pace when a seated human is no longer at the table (their
    presence lapsed: PRESENCE_SECONDS after the last heartbeat). Called by the table sockets'
    heartbeats and by the beat; True when it switched back."""
    game = Game.objects.filter(pk=game_id).only("pk", "live_since", "live_offer", "status").first()
    if game is None or (game.live_since is None and game.live_offer is None):
        return False
    seats = list(Seat.objects.filter(game_id=game_id))
    if game.status == Game.Status.ACTIVE and all_present(game_id, seats):
        return False
    with GameChange(game_id) as change:
        game = change.game
        if game.live_since is None and game.live_offer is None:
            return False
        if game.status == Game.Status.ACTIVE and all_present(game.pk, change.seats):
            return False
        was_live = game.live_since is not None
        game.live_since = None
        game.live_offer = None
        if was_live:
            PaceSwitch.objects.create(
                game=game, kind=PaceSwitch.Kind.FALLBACK, created_at=change.now
            )
            if game.status == Game.Status.ACTIVE and change.waiting is not None:
                # back to the table's own time for the current wait, counted from its opening
                own = change.deadline_of_current_wait()
                current = game.deadline_at
                change.set_deadline(max(current, own) if current and own else own)
        change.touch()
    return was_live


def live_check_all() -> int:
    """Beat: every table at the Live pace, so a table nobody has open still falls back."""
    ids = Game.objects.filter(live_since__isnull=False).values_list("pk", flat=True)
    return sum(live_check(pk) for pk in ids)
