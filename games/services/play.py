"""Playing: the one path every move takes — a human's, a bot's, or a deadline's.

Each change locks the game row, checks the version the client saw, applies the engine,
appends one Event per applied action, lets bots answer what they owe, stores the new state,
version and deadline in the same transaction, and pings watchers after commit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import broadcast, clock
from games.engines import registry
from games.engines.core import TIMEOUT, Action, Engine, IllegalAction, State
from games.errors import GameNotFound, IllegalMove, NotActive, NotAllowed, StaleVersion
from games.models import Event, Game, Seat
from games.services import notify

HANDOVER_AFTER_TIMEOUTS = 3
MAX_TURN_MOVES = 20
FAST_PATH_SECONDS = 300
# In a window humans still owe, each bot answers at each opportunity with this chance:
# a human-like delay, so people can still win a race or a slap against bots.
BOT_WINDOW_EAGERNESS = 0.5


@dataclass
class ActResult:
    game: Game
    replayed: bool = False


def lock_game(game_id: int) -> Game:
    try:
        # no_key: the lock does not block inserting events that reference the game.
        game = Game.objects.select_for_update(no_key=True).get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None
    # What a change needs to know about itself; _record and _store rely on these, so every
    # change starts here.
    game.locked_state = game.state  # engines never mutate a state, so this stays "before"
    game.recorded = []  # (seat, reason) of every event this change appends
    return game


def seats_of(game: Game) -> list[Seat]:
    """The game's seats with their users, loaded once per change (the row lock covers them)."""
    cached = getattr(game, "locked_seats", None)
    if cached is None:
        cached = list(Seat.objects.filter(game=game).select_related("user").order_by("index"))
        game.locked_seats = cached
    return cached


def _record(
    game: Game,
    seat: int | None,
    action: Action,
    events: list,
    reason: str,
    actor: Any = None,
    key: str = "",
) -> None:
    game.version += 1
    game.recorded.append((seat, reason))
    Event.objects.create(
        game=game,
        seq=game.version,
        seat=seat,
        action=action,
        events=[e.to_dict() for e in events],
        reason=reason,
        actor=actor,
        key=key,
    )


def _apply(
    game: Game,
    engine: Engine,
    state: State,
    seat: int | None,
    action: Action,
    reason: str,
    actor: Any = None,
    key: str = "",
) -> State:
    state, events = engine.apply(state, seat, action)
    _record(game, seat, action, events, reason, actor, key)
    return state


def _bot_moves(
    game: Game,
    engine: Engine,
    state: State,
    bots: set[int],
    rng: random.Random,
    everyone: bool = False,
) -> State:
    """Applies the moves bots owe now. ``everyone``: every owing bot answers (at a deadline)."""
    steps = engine.max_moves(game.seats_count)  # no game is longer: a loop means a bug
    for _step in range(steps):
        if engine.result(state) is not None:
            return state
        waiting = engine.waiting_for(state)
        owed = [s for s in waiting.seats if s in bots]
        if not owed:
            return state
        if waiting.kind == "window" and not everyone and any(s not in bots for s in waiting.seats):
            owed = [s for s in owed if rng.random() < BOT_WINDOW_EAGERNESS]
            if not owed:
                return state
            seat = rng.choice(owed)
            state = _apply(
                game, engine, state, seat, engine.bot_action(state, seat, rng), Event.Reason.BOT
            )
            continue
        seat = rng.choice(owed)
        state = _apply(
            game, engine, state, seat, engine.bot_action(state, seat, rng), Event.Reason.BOT
        )
    raise RuntimeError(f"bots did not settle game {game.pk} within {steps} moves")


def _bot_seats(game: Game) -> set[int]:
    return {seat.index for seat in seats_of(game) if seat.is_bot}


def _store(game: Game, engine: Engine, state: State, expected: int) -> None:
    """Writes state, version, status and deadline; compare-and-swap on the version we locked."""
    now = timezone.now()
    result = engine.result(state)
    game.state = state
    if result is not None:
        game.status = Game.Status.FINISHED
        game.result = result
        game.finished_at = now
        game.deadline_at = None
    else:
        game.deadline_at = clock.next_deadline(game, engine.waiting_for(state), now, seats_of(game))
    updated = Game.objects.filter(pk=game.pk, version=expected).update(
        state=game.state,
        version=game.version,
        status=game.status,
        result=game.result,
        finished_at=game.finished_at,
        deadline_at=game.deadline_at,
    )
    if updated != 1:
        raise StaleVersion(game.version)
    version = game.version
    notify.after_change(game, engine, game.locked_state, state, seats_of(game), game.recorded)
    transaction.on_commit(lambda: broadcast.notify_game_changed(game.pk, version))
    from games import tasks  # late: tasks import services

    if game.status == Game.Status.ACTIVE and game.deadline_at:
        # Fast path for waits of minutes or less; the sweeper remains the source of truth
        # (long countdowns are a trap with the Redis broker's visibility timeout).
        seconds = max(0.0, (game.deadline_at - now).total_seconds())
        if seconds <= FAST_PATH_SECONDS:
            transaction.on_commit(lambda: tasks.schedule_deadline(game.pk, version, seconds))


def settle_bots(game: Game, engine: Engine, state: State, everyone: bool = False) -> State:
    return _bot_moves(game, engine, state, _bot_seats(game), random.Random(), everyone)


def act(user: Any, game_id: int, expected_version: Any, action: Any, key: str = "") -> ActResult:
    """A player's move. Same idempotency key again: the first result, not a second move."""
    key = (key or "")[:64]
    with transaction.atomic():
        game = lock_game(game_id)
        authenticated = user is not None and user.is_authenticated
        seat = next((s for s in seats_of(game) if authenticated and s.user_id == user.pk), None)
        if seat is None:
            raise NotAllowed(_("You are not playing at this table."))
        if key and Event.objects.filter(game=game, actor=user, key=key).exists():
            return ActResult(game, replayed=True)
        if game.status != Game.Status.ACTIVE:
            raise NotActive(_("This game is not in play."))
        if seat.is_bot:
            raise NotAllowed(_("Your seat was handed to the bot."))
        if isinstance(expected_version, bool) or not isinstance(expected_version, int):
            raise IllegalMove(
                _("The move must say which version of the game it was made on."), "malformed"
            )
        if expected_version != game.version:
            raise StaleVersion(game.version)
        engine = registry.get(game.engine, game.rules_version)
        locked_version = game.version
        try:
            state = _apply(
                game, engine, game.state, seat.index, action, Event.Reason.MOVE, user, key
            )
        except IllegalAction as exc:
            raise IllegalMove(exc.message, exc.code) from None
        if action not in engine.legal_actions(game.state, seat.index):
            # The engine accepted a payload with extra or odd fields: only exact moves enter
            # the log (the transaction rolls the recorded event back).
            raise IllegalMove(_("That move is not possible now."), "not_legal")
        state = settle_bots(game, engine, state)
        _store(game, engine, state, locked_version)
        Seat.objects.filter(pk=seat.pk).update(
            last_seen_version=game.version, consecutive_timeouts=0
        )
    return ActResult(game)


def apply_deadline(game_id: int, expected_version: int | None = None) -> bool:
    """Applies an expired deadline once; False when there is nothing to do (moved on, not due)."""
    with transaction.atomic():
        game = lock_game(game_id)
        now = timezone.now()
        if game.status != Game.Status.ACTIVE or game.deadline_at is None or game.deadline_at > now:
            return False
        if expected_version is not None and expected_version != game.version:
            return False
        engine = registry.get(game.engine, game.rules_version)
        locked_version = game.version
        state = settle_bots(game, engine, game.state, everyone=True)
        waiting = engine.waiting_for(state)
        if waiting.kind == "window":
            state = _apply(game, engine, state, None, dict(TIMEOUT), Event.Reason.TIMEOUT)
        elif waiting.kind == "turn":
            index = waiting.seats[0]
            seat = next(s for s in seats_of(game) if s.index == index)
            rng = random.Random()
            # The bot finishes the missed turn: a cheat or an accusation leaves the same seat on
            # turn, which must not earn the absent player a fresh deadline.
            for _move in range(MAX_TURN_MOVES):
                state = _apply(
                    game,
                    engine,
                    state,
                    index,
                    engine.bot_action(state, index, rng),
                    Event.Reason.TIMEOUT,
                )
                after = engine.waiting_for(state)
                if (
                    engine.result(state) is not None
                    or after.kind != "turn"
                    or after.seats[0] != index
                ):
                    break
            seat.consecutive_timeouts += 1
            if seat.consecutive_timeouts >= HANDOVER_AFTER_TIMEOUTS and not seat.is_bot:
                seat.is_bot = True
                seat.bot_reason = "timeouts"
                notify.seat_handed_to_bot(game, seat)
            seat.save(update_fields=["consecutive_timeouts", "is_bot", "bot_reason"])
        state = settle_bots(game, engine, state)
        _store(game, engine, state, locked_version)
    return True


def expired_game_ids(limit: int = 200) -> list[tuple[int, int]]:
    rows = Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=timezone.now())
    return list(rows.order_by("deadline_at").values_list("pk", "version")[:limit])
