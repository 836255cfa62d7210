"""Who hears about a change: turn and window notices, results, hand-overs, reminders, nudges.

Notices name the game, the table and players, never a card. A window notice goes only to the
seat it asks, and nudges exist for turns only: in a secret window, "who has not answered yet"
is itself a secret.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext_lazy

from accounts.models import Notification, User
from accounts.notifications import notify
from games.engines import registry
from games.engines.core import Engine, State
from games.errors import GameError, NotActive, NotAllowed
from games.models import Event, Game, Seat

REMINDER_AT = 0.8  # of the allowed time, as lichess does
MIN_REMINDER_SECONDS = 600  # no reminders for live-speed waits


def _say(user: User, text: Any, **values: Any) -> str:
    with translation.override(user.language or settings.LANGUAGE_CODE):
        return str(text) % values


def _table(game: Game) -> str:
    return reverse("games:table", args=[game.pk])


def _humans(seats: list[Seat]) -> dict[int, Seat]:
    return {s.index: s for s in seats if not s.is_bot and s.user_id}


def after_change(
    game: Game,
    engine: Engine,
    before: State | None,
    after: State,
    seats: list[Seat],
    changes: list[tuple[int | None, str]],
) -> None:
    """Called inside the writing transaction, after the new state is stored. ``changes`` are
    the (seat, reason) of the events this change appended."""
    humans = _humans(seats)
    name = engine.name
    result = engine.result(after)
    if result is not None:
        names = [s.name for s in seats]
        winners = ", ".join(names[i] for i in result.get("winners", [])) or "—"
        # Everyone who sat down hears the result, including players whose seat the bot took over.
        for seat in (s for s in seats if s.user_id):
            won = seat.index in result.get("winners", [])
            text = (
                gettext_lazy("You won at %(game)s #%(id)s!")
                if won
                else gettext_lazy("%(game)s #%(id)s is over: %(winners)s won.")
            )
            notify(
                seat.user,
                Notification.Kind.GAME_FINISHED,
                _say(seat.user, text, game=name, id=game.pk, winners=winners),
                _table(game),
                game.pk,
            )
        return
    waited_before = set(engine.waiting_for(before).seats) if before is not None else set()
    waiting = engine.waiting_for(after)
    actors = {seat for seat, _reason in changes}
    movers = {seat for seat, reason in changes if reason == Event.Reason.MOVE}
    for index in waiting.seats:
        seat = humans.get(index)
        if seat is None or not engine.legal_actions(after, index):
            continue
        # A new wait, or the same seat again after someone else moved (its turn came back) —
        # but not for a player who moved in this very change: they are looking at the table.
        if index in movers or (index in waited_before and not actors - {index}):
            continue
        if waiting.kind == "window":
            kind, text = (
                Notification.Kind.WINDOW,
                gettext_lazy("Quick! %(game)s #%(id)s needs your answer."),
            )
        else:
            kind, text = Notification.Kind.YOUR_TURN, gettext_lazy("Your turn in %(game)s #%(id)s.")
        notify(seat.user, kind, _say(seat.user, text, game=name, id=game.pk), _table(game), game.pk)


def seat_handed_to_bot(game: Game, seat: Seat) -> None:
    if seat.user_id:
        text = gettext_lazy(
            "You missed three turns in a row at %(game)s #%(id)s, so the bot plays your seat now."
        )
        notify(
            seat.user,
            Notification.Kind.SEAT_TO_BOT,
            _say(seat.user, text, game=registry.get(game.engine).name, id=game.pk),
            _table(game),
            game.pk,
        )


def invited(game: Game, invitee: User, host: User) -> None:
    text = gettext_lazy("%(host)s invites you to a table of %(game)s.")
    notify(
        invitee,
        Notification.Kind.INVITATION,
        _say(invitee, text, host=host.name, game=registry.get(game.engine).name),
        _table(game),
        game.pk,
    )


@transaction.atomic
def nudge(user: User, game_id: int) -> str:
    """Any other player may nudge the seat whose turn it is, once per turn."""
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None or not game.seats.filter(user=user).exists():
        raise NotAllowed(_("You are not playing at this table."))
    if game.status != Game.Status.ACTIVE:
        raise NotActive(_("This game is not in play."))
    engine = registry.get(game.engine)
    waiting = engine.waiting_for(game.state)
    if waiting.kind != "turn":
        raise GameError(
            _("You can nudge a player whose turn it is, not during a window."), "not_a_turn"
        )
    seat = game.seats.select_related("user").get(index=waiting.seats[0])
    if seat.user_id == user.pk:
        raise GameError(_("It is your own turn."), "own_turn")
    if seat.is_bot or seat.user is None:
        raise GameError(_("The bot is already playing that seat."), "bot_seat")
    if seat.nudged_for_version == game.version:
        raise GameError(
            _("%(name)s was already nudged this turn.") % {"name": seat.user.name}, "already_nudged"
        )
    Seat.objects.filter(pk=seat.pk).update(nudged_for_version=game.version)
    text = gettext_lazy("%(name)s nudges you: it is your turn in %(game)s #%(id)s.")
    notify(
        seat.user,
        Notification.Kind.NUDGE,
        _say(seat.user, text, name=user.name, game=engine.name, id=game.pk),
        _table(game),
        game.pk,
    )
    return seat.user.name


def send_due_reminders(now: Any = None) -> int:
    """One reminder per wait at about 80% of the allowed time, for humans who have not acted."""
    now = now or timezone.now()
    sent = 0
    horizon = now + timedelta(seconds=(1 - REMINDER_AT) * 14 * 86400)
    games = Game.objects.filter(
        status=Game.Status.ACTIVE,
        deadline_at__isnull=False,
        deadline_at__lte=horizon,
        move_seconds__gte=MIN_REMINDER_SECONDS,
    )
    for game in games:
        engine = registry.get(game.engine)
        waiting = engine.waiting_for(game.state)
        span = game.window_seconds if waiting.kind == "window" else game.move_seconds
        if span < MIN_REMINDER_SECONDS or game.deadline_at - now > timedelta(
            seconds=(1 - REMINDER_AT) * span
        ):
            continue
        with transaction.atomic():
            for seat in game.seats.select_related("user").filter(
                index__in=waiting.seats, is_bot=False
            ):
                claimed = (
                    Seat.objects.filter(pk=seat.pk)
                    .exclude(reminded_for_version=game.version)
                    .update(reminded_for_version=game.version)
                )
                if not claimed or seat.user is None:
                    continue  # reminded already (another sweeper got there first)
                text = gettext_lazy("Reminder: your move in %(game)s #%(id)s is due in %(left)s.")
                left = max(1, int((game.deadline_at - now).total_seconds() // 60))
                notify(
                    seat.user,
                    Notification.Kind.REMINDER,
                    _say(
                        seat.user,
                        text,
                        game=engine.name,
                        id=game.pk,
                        left=_say(
                            seat.user,
                            ngettext_lazy("%(m)d minute", "%(m)d minutes", left),
                            m=left,
                        ),
                    ),
                    _table(game),
                    game.pk,
                )
                sent += 1
    return sent
