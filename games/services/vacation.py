"""Vacation: while a player is away their turn deadlines wait, up to 14 days a calendar year."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.mailing import user_zone
from accounts.models import User
from games.errors import GameError
from games.models import Game, Seat
from games.services.change import GameChange

DAYS_PER_YEAR = 14


def _year(user: User, now: datetime) -> int:
    """The calendar year the allowance counts: the year on the player's own clock (1 January
    comes at their midnight), but never an earlier one than the year their days were last
    counted in. A clock moved back across New Year (from Auckland, where the year had begun,
    to Honolulu, where it had not) made the year before a fresh one: a second allowance, and
    moved forward again a third."""
    return max(timezone.localtime(now, user_zone(user)).year, user.vacation_year)


def days_left(user: User) -> int:
    year = _year(user, timezone.now())
    used = user.vacation_days_used if user.vacation_year == year else 0
    return max(0, DAYS_PER_YEAR - used)


def _refresh_deadlines(user: User, back: bool = False) -> int:
    """Recomputes the deadline of every active game that waits on this player's turn. Going
    away pushes it past the vacation; coming back early restarts the turn's clock now."""
    changed = 0
    ids = Seat.objects.filter(user=user, is_bot=False, game__status=Game.Status.ACTIVE)
    for game_id in ids.order_by("game_id").values_list("game_id", flat=True):
        with GameChange(game_id) as change:
            waiting = change.waiting
            if waiting is None or waiting.kind != "turn":
                continue
            seat = change.seat(waiting.seats[0])
            if seat.user_id != user.pk or seat.is_bot:
                continue
            seat.user = user  # the fresh away_until
            change.set_deadline(change.deadline_of_current_wait(change.now if back else None))
            # a new deadline for the turn, and its own reminder (sent before it, once)
            Seat.objects.filter(pk=seat.pk).update(reminded_for_wait=None)
            changed += 1
    return changed


@transaction.atomic
def vacation_start(user: User, days: int) -> User:
    # FOR NO KEY UPDATE, as a game's own row: a move at one of the player's tables, holding it,
    # may still write a row that names the player (their notice) while this waits for that
    # table (FOR UPDATE would wait for the move: a deadlock, one of the two cancelled)
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    now = timezone.now()
    if user.away_until and user.away_until > now:
        raise GameError(
            _("You are already away. End the vacation first to change it."), "already_away"
        )
    if not isinstance(days, int) or days < 1:
        raise GameError(_("A vacation lasts at least one day."), "bad_days")
    left = days_left(user)
    if days > left:
        raise GameError(
            ngettext(
                "You have %(left)d vacation day left this year.",
                "You have %(left)d vacation days left this year.",
                left,
            )
            % {"left": left},
            "too_many_days",
        )
    if user.vacation_year != _year(user, now):
        user.vacation_year, user.vacation_days_used = _year(user, now), 0
    user.vacation_days_used += days
    user.away_until = now + timedelta(days=days)
    user.save(update_fields=["away_until", "vacation_year", "vacation_days_used"])
    _refresh_deadlines(user)
    return user


@transaction.atomic
def vacation_end(user: User) -> User:
    """Back early: whole unused days return to the allowance."""
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)  # see vacation_start
    now = timezone.now()
    if not user.away_until or user.away_until <= now:
        raise GameError(_("You are not away."), "not_away")
    unused = int((user.away_until - now) / timedelta(days=1))
    if user.vacation_year == _year(user, now):
        user.vacation_days_used = max(0, user.vacation_days_used - unused)
    user.away_until = None
    user.save(update_fields=["away_until", "vacation_days_used"])
    _refresh_deadlines(user, back=True)
    return user
