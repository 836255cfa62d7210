"""Playing: a player's move, a deadline, a seat taken back. Each is one ``GameChange``."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from games.catalog import registry as catalog
from games.engines.core import TIMEOUT, IllegalAction
from games.errors import (
    AlreadyAnswered,
    GameError,
    IllegalMove,
    KeyReused,
    NotActive,
    NotAllowed,
    StaleVersion,
    TooLate,
    engine_message,
)
from games.models import Event, Game, Seat
from games.services import bot_time, notify
from games.services.change import GameChange, same_wait

HANDOVER_AFTER_TIMEOUTS = 3
MAX_KEY_LENGTH = 64  # Event.key
MAX_TURN_MOVES = 20


@dataclass
class ActResult:
    game: Game
    replayed: bool = False
    # the seats (with their players) as the change left them: the answer is rendered from
    # these, with no second read
    seats: list[Seat] = field(default_factory=list)


def act(user: Any, game_id: int, expected_version: Any, action: Any, key: str = "") -> ActResult:
    """A player's move. The same idempotency key again with the same move: the first result,
    not a second move; with another move: ``KeyReused``."""
    key = key or ""
    if len(key) > MAX_KEY_LENGTH:
        # cut to fit, two long keys sharing their start made one move of two (the second
        # answered as if played)
        raise IllegalMove(
            _("An idempotency key has at most %(n)d characters.") % {"n": MAX_KEY_LENGTH},
            "bad_key",
        )
    try:
        return _act(user, game_id, expected_version, action, key, check_deadline=True)
    except _WaitExpired:
        # The wait's deadline passed before this move arrived (its timeout task not run
        # yet: the worker busy or down): the timeout first, in its own change, then the move
        # against what it left. A race answered after its window closed is "too late".
        apply_deadline(game_id)
        return _act(user, game_id, expected_version, action, key, check_deadline=False)


class _WaitExpired(Exception):
    """Raised inside a move's change (nothing written yet: it rolls back to nothing)."""


def _act(
    user: Any, game_id: int, expected_version: Any, action: Any, key: str, check_deadline: bool
) -> ActResult:
    with GameChange(game_id, idempotency=(user, key)) as change:
        game = change.game
        seat = change.seat_of(user)
        if seat is None:
            raise NotAllowed(_("You are not playing at this table."))
        if change.recorded is not None:
            if change.recorded.action != _as_stored(action):
                raise KeyReused()
            return ActResult(game, replayed=True, seats=change.seats)
        if game.status == Game.Status.FINISHED:
            raise NotActive(_("This game is over."))  # as the table's form says it
        if game.status != Game.Status.ACTIVE:
            raise NotActive(_("This game is not in play."))
        assert change.state is not None  # a game in play has its state
        if seat.is_bot:
            raise NotAllowed(_("Your seat was handed to the bot."))
        if check_deadline and game.deadline_passed(change.now):
            raise _WaitExpired
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            # judged before the version: a forged frame is malformed, never "too late"
            raise IllegalMove(_("A move must be an object with a 'type'."), "malformed")
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise IllegalMove(
                _("The move must say which version of the game it was made on."), "malformed"
            )
        try:
            change.expect_version(expected_version, seat.index)
        except StaleVersion as exc:
            # Races and slaps: the row lock serialises answers in arrival order; one that
            # came after the moment passed is "too late", not a puzzling "stale". A turn
            # move (or an aside) has no moment to miss: its page fell behind ("moved on").
            legal_now = change.engine.is_legal(change.state, seat.index, action)
            if not legal_now and action["type"] in change.engine.window_answers:
                if _answered_this_window(change, seat.index):
                    raise AlreadyAnswered(exc.version) from None
                raise TooLate(exc.version) from None
            if not legal_now:
                raise
            if not _saw_this_window_open(change, seat.index, expected_version):
                raise
            # An answer to the window the seat saw open, still open and still legal for it:
            # what moved since (another's aside, a public answer) does not void it; answers
            # are judged in arrival order, and a refusal here would make it the slowest.
        before, waited = change.state, change.waiting
        try:
            change.apply(seat.index, action, Event.Reason.MOVE, user, key)
        except IllegalAction as exc:
            raise IllegalMove(
                engine_message(exc, catalog.get(game.engine).word), exc.code
            ) from None
        if not change.engine.is_legal(before, seat.index, action):
            # The engine accepted a payload with extra or odd fields: only exact moves enter
            # the log (the change rolls the recorded event back).
            raise IllegalMove(_("That move is not possible now."), "not_legal")
        assert change.waiting is not None  # apply() read the wait it left
        ended_own_turn = (
            waited is not None
            and waited.kind == "turn"
            and seat.index in waited.seats
            and not same_wait(waited, change.waiting)
        )
        change.settle_bots()
        if seat.consecutive_timeouts and ended_own_turn:
            # A turn of one's own, played, ends a run of missed turns (three hand the seat
            # over). Only a turn that moved on, which everyone sees: a secret act (a cheat, a
            # window's hidden answer, a cheat inside one's own turn) must not delay the
            # handover, or the handover's timing would name who made it. With no run to end,
            # the seat's row is not written.
            Seat.objects.filter(pk=seat.pk).update(consecutive_timeouts=0)
            seat.consecutive_timeouts = 0
    return ActResult(game, seats=change.seats)


def _saw_this_window_open(change: GameChange, seat: int, version: int) -> bool:
    """The current wait is a window the seat still owes, and ``version`` (older than the
    seat's current one) was sent after the seat could see it open: every row the seat has
    not seen came after the change that opened it (read only on the stale path). That
    change's rows carry the wait's opening time as theirs, to the microsecond (one ``now``
    a change), so they are found by equality: no clock is compared with another host's."""
    waiting, opened = change.waiting, change.game.wait_opened_at
    if waiting is None or waiting.kind != "window" or seat not in waiting.seats or not opened:
        return False
    current = change.game.version_for(seat)
    if not version < current:
        return False
    rows = Event.objects.filter(game=change.game)
    opening = rows.filter(created_at=opened).aggregate(last=Max("seq"))["last"]
    if opening is None:
        return False  # reopened without a row (a seat came back): the seat must read it anew
    unseen = sum(
        1
        for audience in rows.filter(seq__gt=opening).values_list("audience", flat=True)
        if audience is None or seat in audience
    )
    return version >= current - unseen


def _answered_this_window(change: GameChange, seat: int) -> bool:
    """The seat made a move since the window that is still open opened: a second answer
    (read only on this refusal's path; it tells the seat of its own answer, nothing else)."""
    waiting = change.waiting
    if waiting is None or waiting.kind != "window" or change.game.wait_opened_at is None:
        return False
    return Event.objects.filter(
        game=change.game,
        seat=seat,
        reason=Event.Reason.MOVE,
        created_at__gte=change.game.wait_opened_at,
    ).exists()


def _as_stored(action: Any) -> Any:
    """The action as the log would hold it (JSON: a tuple comes back a list)."""
    try:
        return json.loads(json.dumps(action))
    except (TypeError, ValueError):
        return None


def apply_deadline(game_id: int, wait_seq: int | None = None) -> bool:
    """Applies an expired deadline to the wait it was set for; False when there is nothing to
    do (the wait moved on, or it is not due yet)."""
    with GameChange(game_id) as change:
        game = change.game
        if game.status != Game.Status.ACTIVE or not game.deadline_passed(change.now):
            return False
        if wait_seq is not None and wait_seq != game.wait_seq:
            return False
        _time_out(change)
    return True


def apply_if_expired(game: Game) -> bool:
    """The lazy check of a read (a page, the API's game): a wait whose deadline passed is
    applied before it is shown, never shown as still open. True when ``game`` may be stale
    now (read it again): the deadline applied here, or by someone else meanwhile."""
    if game.status == Game.Status.ACTIVE and game.deadline_passed(timezone.now()):
        apply_deadline(game.pk)
        return True
    return False


def apply_bot_moment(
    game_id: int, at: datetime | None = None, overdue: timedelta = timedelta(0)
) -> bool:
    """The bots' moment that is due (games/services/bot_time.py): ``at``, only that one (a
    countdown task's, which does nothing once the game has drawn another); ``overdue``, only
    if it is due by that much (the sweep's, for a moment whose task was lost). True when a
    bot acted."""
    with GameChange(game_id) as change:
        due = change.game.bots_at
        if change.game.status != Game.Status.ACTIVE or due is None or due > change.now - overdue:
            return False
        if at is not None and at != due:
            return False
        if change.game.deadline_passed(change.now):
            # late (the worker was busy or down): no bot answers a window after it closed;
            # the deadline comes first, as it would have at its time. The moment is spent: the
            # wait that follows draws its own (kept, it held the game with no task to take it)
            change.spend_bot_moment()
            _time_out(change)
            return True
        return change.take_bot_moment(bot_time.new_rng())


def _time_out(change: GameChange) -> None:
    waiting = change.waiting
    assert waiting is not None
    assert change.state is not None  # a game that waits has its state
    bots = change.bots()
    if all(s in bots for s in waiting.seats):
        _play_out(change)  # no human owes anything: the bots' play-out goes on
        return
    wait_seq = change.game.wait_seq
    rng = bot_time.new_rng()
    change.settle_bots(everyone=True, rng=rng)  # the bots that owe an answer give it first
    if change.game.wait_seq != wait_seq or change.over():
        return  # the bots settled that wait: the next one has its own full time
    if waiting.kind == "window":
        change.apply(None, dict(TIMEOUT), Event.Reason.TIMEOUT)
    elif waiting.kind == "turn":
        index = waiting.seats[0]
        # The bot finishes the missed turn: a cheat or an accusation leaves the same turn
        # waiting, which must not earn the absent player a fresh deadline.
        for _move in range(MAX_TURN_MOVES):
            before = change.waiting
            change.apply(
                index, change.engine.bot_action(change.state, index, rng), Event.Reason.TIMEOUT
            )
            assert change.waiting is not None  # apply() read the wait it left
            if change.over() or not same_wait(before, change.waiting):
                break
        _count_timeout(change, change.seat(index))
    change.settle_bots(rng=rng)


def _count_timeout(change: GameChange, seat: Seat) -> None:
    seat.consecutive_timeouts += 1
    if seat.consecutive_timeouts >= HANDOVER_AFTER_TIMEOUTS and not seat.is_bot:
        seat.is_bot = True
        seat.bot_reason = "timeouts"
        notify.seat_handed_to_bot(change.game, seat)
        change.touch()
    else:
        notify.turn_timed_out(change.game, seat)
    seat.save(update_fields=["consecutive_timeouts", "is_bot", "bot_reason"])


def _play_out(change: GameChange) -> None:
    # A play-out past the engine's longest possible game can only be a bug: the game is ended
    # as abandoned rather than run for ever.
    if change.game.version >= change.engine.max_moves(change.game.seats_count):
        change.game.status = Game.Status.ABORTED
        change.game.finished_at = change.now
        change.game.result = {"abandoned": True, "reason": "no human left; move limit reached"}
        change.touch()
        notify.game_abandoned(change.game, change.seats)
        return
    change.settle_bots(everyone=True)


def seat_reclaim(user: Any, game_id: int) -> Seat:
    """A player takes back the seat the bot took for missed turns or absence; its moves stand."""
    with GameChange(game_id) as change:
        seat = change.seat_of(user)
        if seat is None:
            raise NotAllowed(_("You are not playing at this table."))
        if change.game.status != Game.Status.ACTIVE:
            raise NotActive(_("This game is not in play."))
        if not seat.reclaimable:
            raise GameError(_("This seat is not yours to take back."), "not_reclaimable")
        seat.is_bot, seat.bot_reason, seat.consecutive_timeouts = False, "", 0
        seat.save(update_fields=["is_bot", "bot_reason", "consecutive_timeouts"])
        change.touch()
        waiting = change.waiting
        owed = waiting is not None and seat.index in waiting.seats
        window = waiting is not None and waiting.kind == "window"
        if owed or window or change.game.deadline_passed(change.now):
            # Back in the middle of a wait that asks them (or of a bots' play-out, whose next
            # chunk is due now): that wait starts afresh with its full time and a notice. A
            # window starts afresh whether or not the seat still owes it: whether its bot had
            # answered is a secret, and a fresh deadline only then would tell the table.
            change.reopen_wait()
    return seat
