"""The one way a game changes: ``GameChange``, a unit of work on one game.

    with GameChange(game_id) as change:
        change.expect_version(version)
        change.apply(seat, action, Event.Reason.MOVE, actor=user, key=key)
        change.settle_bots()

Entering opens a transaction, locks the game row (``no_key``: events can still be inserted)
and loads its seats once. Leaving without an exception writes everything in that same
transaction: the new events in bulk, the state, a new revision when anything visible changed,
the current wait and its deadline (a compare-and-swap on the revision that was locked), the
notices of a wait that opened or a game that ended; and, after commit, the socket ping, the
deadline's fast path and whatever else the caller registered. An exception rolls all of it back.

The wait is followed action by action: a new wait opens whenever what the game waits on
changes (another seat on turn, a new turn of the same seat, a window opening or closing). Its
deadline is set then and not moved by answers inside it or by other players' moves.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

from celery import current_app
from django.db import transaction
from django.utils import timezone

from games import broadcast, clock, table_read, table_write
from games.engines import registry
from games.engines.core import Action, Engine, State, Waiting
from games.errors import GameNotFound, StaleVersion
from games.models import Event, Game, Invitation, Seat
from games.services import bot_time, notify, records

log = logging.getLogger(__name__)

# Bot moves one change may apply: a game with no human left is played out in chunks, each its
# own short transaction, continued at once by the deadline machinery.
BOT_CHUNK = 200
# Waits of this length or less also get a countdown task; the sweeper is the source of truth
# (long countdowns are a trap with the Redis broker's visibility timeout).
FAST_PATH_SECONDS = 300


def same_wait(before: Waiting | None, after: Waiting) -> bool:
    """Whether ``after`` continues the wait ``before`` (see the module's docstring)."""
    if before is None or before.kind != after.kind:
        return False
    if after.kind == "turn":
        return before.seats == after.seats and before.step == after.step
    if after.kind == "window":
        # Windows of one name never follow each other without a turn between (which is seen,
        # action by action), so the name is enough; the owing set may shrink with answers or
        # grow back (a card returned by an accusation) within one window.
        return before.window == after.window
    return True


def audience(seat: int | None, events: list[Any]) -> list[int] | None:
    """Who may observe an event row while the game runs: everybody if any of its events is
    public; else the seats its events are addressed to, and the seat that acted."""
    if any(event.to is None for event in events):
        return None
    seats = {s for event in events for s in event.to}
    if seat is not None:
        seats.add(seat)
    return sorted(seats)


class GameChange:
    def __init__(self, game_id: int, idempotency: tuple[Any, str] | None = None) -> None:
        """``idempotency``: (actor, key) of a move; ``recorded`` then holds the move that
        actor already made with that key in this game, if any (read with the lock, no extra
        query)."""
        self.game_id = game_id
        self._idempotency = idempotency if idempotency and idempotency[1] else None
        self.recorded: table_read.Recorded | None = None
        self._atomic = transaction.atomic()

    # --- the unit of work ------------------------------------------------------------------

    def __enter__(self) -> GameChange:
        self._atomic.__enter__()
        try:
            self._lock()
        except BaseException as exc:
            self._atomic.__exit__(type(exc), exc, exc.__traceback__)
            raise
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            try:
                self._write()
            except BaseException as error:
                self._atomic.__exit__(type(error), error, error.__traceback__)
                raise
        self._atomic.__exit__(exc_type, exc, tb)  # returns None: an error goes on up

    def _lock(self) -> None:
        """The game row locked, then its seats with their players and the idempotency check,
        in one round trip (games/table_read.py)."""
        replay = None
        if self._idempotency is not None:
            actor, key = self._idempotency
            replay = (actor.pk, key)
        read = table_read.lock_game_with_seats(self.game_id, replay)
        if read is None:
            raise GameNotFound()
        self.game: Game
        self.game, seats, self.recorded = read
        for seat in seats:
            seat.game = self.game
        game = self.game
        self.now: datetime = timezone.now()
        self.engine: Engine = registry.get(game.engine, game.rules_version)
        self.seats: list[Seat] = seats
        self.state: State | None = game.state
        self.before: State | None = game.state
        self.waiting: Waiting | None = (
            self.engine.waiting_for(game.state)
            if game.state is not None and game.status == Game.Status.ACTIVE
            else None
        )
        self._locked_revision = game.revision
        self._status_before = game.status
        self._locked_version = game.version
        self._locked_public_version = game.version_for(None)
        self._events: list[Event] = []
        self._visible = False
        self._after_commit: list[Callable[[], None]] = []
        self.wait_opened = False
        self.movers: set[int] = set()
        self.bots_pending = False
        self._moment_taken = False
        self._deadline: datetime | bool | None = False  # False: keep or derive; else: set

    # --- what callers do -------------------------------------------------------------------

    def seat(self, index: int) -> Seat:
        return next(s for s in self.seats if s.index == index)

    def seat_of(self, user: Any) -> Seat | None:
        if user is None or not user.is_authenticated:
            return None
        return next((s for s in self.seats if s.user_id == user.pk), None)

    def bots(self) -> set[int]:
        return {s.index for s in self.seats if s.is_bot}

    def expect_version(self, version: Any, seat: int | None) -> None:
        """The version the seat saw (its own: see Game.seat_versions) must be the current one."""
        current = self.game.version_for(seat)
        if version != current:
            raise StaleVersion(current)

    def touch(self) -> None:
        """Something players see changed without an engine action (start, join, abort, ...)."""
        self._visible = True

    def on_commit(self, effect: Callable[[], None]) -> None:
        self._after_commit.append(effect)

    def begin(self, state: State) -> None:
        """The game starts with this freshly dealt state."""
        self.state = state
        self.waiting = None
        self.touch()
        self._observe()

    def apply(
        self, seat: int | None, action: Action, reason: str, actor: Any = None, key: str = ""
    ) -> None:
        """One engine action; raises the engine's IllegalAction with nothing changed."""
        assert self.state is not None
        state, events = self.engine.apply(self.state, seat, action)
        self.state = state
        self.game.version += 1
        self._events.append(
            Event(
                game=self.game,
                seq=self.game.version,
                seat=seat,
                action=action,
                events=[e.to_dict() for e in events],
                reason=reason,
                actor=actor,
                key=key,
                created_at=self.now,
                audience=audience(seat, events),
            )
        )
        if reason == Event.Reason.MOVE and seat is not None:
            self.movers.add(seat)
        self._observe()

    def _observe(self) -> None:
        assert self.state is not None
        waiting = self.engine.waiting_for(self.state)
        if not same_wait(self.waiting, waiting):
            self.game.wait_seq += 1
            self.game.wait_opened_at = self.now
            self.wait_opened = True
        self.waiting = waiting

    def over(self) -> bool:
        return self.state is not None and self.engine.result(self.state) is not None

    def settle_bots(self, everyone: bool = False, rng: random.Random | None = None) -> None:
        """Applies the moves bots owe now: their turns (``everyone``: also every window answer
        they owe, as at a deadline; at a table of bots only, always). At a table with people,
        windows and the bots' asides wait for the bots' own moment (``take_bot_moment``). At
        most BOT_CHUNK moves: the rest is left to the next change (``bots_pending``)."""
        rng = rng or bot_time.new_rng()
        budget = [BOT_CHUNK]
        self._owed_bot_moves(everyone, rng, budget)
        self.bots_pending = (
            budget[0] <= 0
            and not self.over()
            and any(s in self.bots() for s in (self.waiting.seats if self.waiting else ()))
        )

    def _owed_bot_moves(self, everyone: bool, rng: random.Random, budget: list[int]) -> None:
        bots = self.bots()
        while budget[0] > 0:
            if self.state is None or self.over():
                return
            assert self.waiting is not None
            owed = [s for s in self.waiting.seats if s in bots]
            if not owed:
                return
            if (
                not everyone
                and bot_time.bots_owe_window(self.waiting, bots)
                and bot_time.has_people(self.seats)
            ):
                return  # at a table with people, bots answer windows at their own moment
            seat = rng.choice(owed)
            self.apply(seat, self.engine.bot_action(self.state, seat, rng), Event.Reason.BOT)
            budget[0] -= 1

    def spend_bot_moment(self) -> None:
        """The game's moment is used up by this change: the next one is drawn afresh."""
        self._moment_taken = True

    def take_bot_moment(self, rng: random.Random) -> bool:
        """The bots' moment (games/services/bot_time.py), a change of its own: one bot, drawn
        at random among those with something to do, answers the window it owes or makes an
        aside; then the bots settle what that leaves them owing. False: none had anything."""
        self.spend_bot_moment()
        if self.state is None or self.over() or self.waiting is None:
            return False
        owing = set(self.waiting.seats) if self.waiting.kind == "window" else set()
        for seat in rng.sample(sorted(self.bots()), len(self.bots())):
            action: Action | None
            if seat in owing:
                action = self.engine.bot_action(self.state, seat, rng)
            elif self.engine.bot_asides:
                action = self.engine.bot_aside(self.state, seat, rng)
            else:
                continue
            if action is not None:
                self.apply(seat, action, Event.Reason.BOT)
                self.settle_bots(rng=rng)
                return True
        return False

    def reopen_wait(self) -> None:
        """The current wait starts afresh (a seat comes back to it): a new wait number, its
        full time from now, and its notices."""
        self.game.wait_seq += 1
        self.game.wait_opened_at = self.now
        self.wait_opened = True

    def set_deadline(self, at: datetime | None) -> None:
        """A moderator's or a vacation's deadline for the current wait."""
        self._deadline = at
        self.touch()

    def deadline_of_current_wait(self, opened_at: datetime | None = None) -> datetime | None:
        assert self.waiting is not None
        opened = opened_at or self.game.wait_opened_at or self.now
        return clock.deadline_for(self.game, self.waiting, opened, self.seats, self.now)

    # --- writing ---------------------------------------------------------------------------

    def _write(self) -> None:
        game = self.game
        if not self._events and not self._visible:
            # nothing happened: no write, no ping; only a bots' moment that found nothing to
            # do draws the next one, which nobody observes
            if self._settle_bots_moment():
                Game.objects.filter(pk=game.pk).update(bots_at=game.bots_at)
            return
        observers = self._observers()
        self._advance_marks(observers)
        game.state = self.state
        finished_now = False
        if game.status == Game.Status.ACTIVE and self.state is not None:
            result = self.engine.result(self.state)
            if result is not None:
                finished_now = True
                game.status = Game.Status.FINISHED
                game.result = result
                game.finished_at = self.now
                game.deadline_at = game.remind_at = None
                self._set_wait_fields(Waiting.nobody())
            else:
                self._settle_deadline()
        elif game.status != Game.Status.ACTIVE:
            game.deadline_at = None
            game.remind_at = None
        if game.is_over:
            # Once it is over every seat reads the game's own revision (Game._mark). A seat that
            # saw secret changes counts past it: its page held a higher number than the end's
            # and never fetched the final position.
            game.revision = max(game.revision, *game.seat_revisions)
        self._settle_bots_moment()
        # Who the wait still waits on changes with every answer inside a window, too.
        game.wait_mask = (
            sum(1 << s for s in self.waiting.seats)
            if game.status == Game.Status.ACTIVE and self.waiting is not None
            else 0
        )
        notices = None
        if (
            not finished_now
            and self.wait_opened
            and game.status == Game.Status.ACTIVE
            and self.waiting
        ):
            assert self.state is not None  # the wait was read from it
            notices = notify.wait_opened(
                game,
                self.engine,
                self.state,
                self.waiting,
                self.seats,
                self.movers,
                # the bots' play-out due at once is not the wait's own deadline
                deadline=None if self.bots_pending else game.deadline_at,
            )
        elif not finished_now and game.status == Game.Status.ACTIVE and self.movers:
            notices = notify.answered(game, self.seats, self.movers)
        # the events, the game's row and the notices of the wait it opened (or the answer read):
        # one round trip
        written = table_write.write_change(
            game,
            self._events,
            self._locked_revision,
            self._locked_version,
            then=notices.statements if notices else [],
        )
        if written is None:
            # the public version as locked: the total counts other seats' secret answers
            raise StaleVersion(self._locked_public_version)
        # The pings first: after commit, on_commit callbacks run in order, and the notices'
        # push tasks below would otherwise be queued before the table hears of it.
        game_id, revision, version = game.pk, game.revision, game.version
        seats = None if observers is None else sorted(observers)
        users = self._users_to_ping(observers)
        transaction.on_commit(
            lambda: broadcast.notify_game_changed(game_id, revision, seats, version, users)
        )
        if finished_now:
            records.record_finished(game, self.seats)
            notify.game_finished(game, self.engine, self.seats)
        elif notices:
            rows, _count = written[-1]
            notices.stored([pk for (pk,) in rows or []])
        for effect in self._after_commit:
            transaction.on_commit(effect)

    def _users_to_ping(self, observers: set[int] | None) -> list[int]:
        """Whose My games list / invitations may show this change: the seated players who can
        observe it; around the lobby (join, invite, decline, start, cancel) also the invitees."""
        game = self.game
        if Game.Status.LOBBY in (self._status_before, game.status):
            # seats come and go in the lobby (a join adds one outside self.seats): read them
            users = set(
                Seat.objects.filter(game=game, user__isnull=False).values_list("user_id", flat=True)
            )
            users.update(Invitation.objects.filter(game=game).values_list("to_user_id", flat=True))
            return sorted(users)
        # a player whose seat the bot plays for good watches it: a change only that seat
        # observes (the bot's secret answer) is not theirs to hear of (selectors.lists_stamp)
        return sorted(
            s.user_id
            for s in self.seats
            if s.user_id is not None
            and (observers is None or (s.index in observers and not s.bot_for_good))
        )

    def _observers(self) -> set[int] | None:
        """The seats that can observe this change; None: everybody (spectators too)."""
        if self._visible or self.wait_opened or self.game.status != Game.Status.ACTIVE:
            return None
        if self.over():
            return None  # the end reveals everything
        seats: set[int] = set()
        for row in self._events:
            if row.audience is None:
                return None
            seats.update(row.audience)
        return seats

    def _advance_marks(self, observers: set[int] | None) -> None:
        """Per seat (and for spectators, last): how many rows it can see — its version — and
        how many changes it could see — its revision."""
        game = self.game
        players = game.seats_count
        versions = _padded(game.seat_versions, players + 1, game.version - len(self._events))
        revisions = _padded(game.seat_revisions, players + 1, game.revision)
        for row in self._events:
            for index in range(players):
                if row.audience is None or index in row.audience:
                    versions[index] += 1
            if row.audience is None:
                versions[players] += 1
        if observers is None:
            game.revision += 1
            revisions = [r + 1 for r in revisions]
        else:
            for index in observers:
                revisions[index] += 1
        game.seat_versions, game.seat_revisions = versions, revisions

    def _settle_deadline(self) -> None:
        game = self.game
        assert self.waiting is not None
        deadline_moved = self.wait_opened or self._deadline is not False
        if self.wait_opened:
            self._set_wait_fields(self.waiting)
            game.sweep_failures, game.sweep_after = 0, None
        if self.bots_pending:
            game.deadline_at = self.now  # the play-out goes on in the next change, at once
            deadline_moved = True
        elif self._deadline is not False:
            game.deadline_at = self._deadline  # type: ignore[assignment]
        elif self.wait_opened:
            game.deadline_at = self.deadline_of_current_wait(self.now)
        if deadline_moved:
            # the wait's reminder goes with its deadline (cleared by the sweep once sent)
            game.remind_at = notify.reminder_time(game, self.waiting, game.deadline_at)
        if deadline_moved and game.deadline_at is not None:
            seconds = max(0.0, (game.deadline_at - self.now).total_seconds())
            if seconds <= FAST_PATH_SECONDS:
                game_id, wait_seq = game.pk, game.wait_seq
                transaction.on_commit(lambda: schedule_deadline(game_id, wait_seq, seconds))

    def _settle_bots_moment(self) -> bool:
        """The game's next bots' moment (bot_time.next_moment), with its countdown when it is
        soon; True when it changed."""
        game = self.game
        before = game.bots_at
        if before is None and not self.bots():
            return False  # a table of people only (every move of it): not even a random draw
        game.bots_at = bot_time.next_moment(
            game,
            self.engine,
            self.waiting if game.status == Game.Status.ACTIVE and not self.over() else None,
            self.seats,
            self.now,
            current=None if self._moment_taken else before,
            window_opened=self.wait_opened,
            rng=bot_time.new_rng(),
        )
        if game.bots_at == before:
            return False
        if game.bots_at is not None:
            at, seconds = game.bots_at, max(0.0, (game.bots_at - self.now).total_seconds())
            if seconds <= bot_time.COUNTDOWN_AT_DRAW_SECONDS:
                game_id = game.pk
                transaction.on_commit(lambda: bot_time.schedule(game_id, at, seconds))
        return True

    def _set_wait_fields(self, waiting: Waiting) -> None:
        game = self.game
        game.wait_kind = "" if waiting.kind == "none" else waiting.kind
        game.wait_window = waiting.window or ""
        game.wait_seat = waiting.seats[0] if waiting.kind == "turn" else None


def _padded(marks: list[int], length: int, fill: int) -> list[int]:
    """The stored marks, or (a game from before they existed, or just created) all ``fill``."""
    return list(marks) if len(marks) == length else [fill] * length


def schedule_deadline(game_id: int, wait_seq: int, seconds: float) -> None:
    """The fast path: a countdown task for this wait (by name: the tasks call services)."""
    try:
        current_app.send_task(
            "games.tasks.apply_deadline",
            args=(game_id, wait_seq),
            countdown=seconds + 0.2,
            queue="deadlines",
        )
    except Exception:  # the broker being down must not lose a move: the sweeper catches up
        log.warning(
            "could not schedule the deadline of game %s; the sweeper will apply it", game_id
        )
