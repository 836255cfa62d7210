"""A player who closes their account, or is banned, leaves every table, so that nobody waits
for them again; a player who quits one game leaves that table alone.

Tables they created and not yet started are cancelled (whoever sat down or was invited hears
it); their seats at other tables in the lobby are freed; their open invitations are declined;
at tables in play the bot takes their seat for the rest of the game (bot_reason "closed": not
reclaimable). One table at a time, in id order, as the ban's handover does.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Notification, User
from games.errors import GameError, NotActive, NotAllowed, NotSeated
from games.models import Game, Invitation, Seat
from games.services import notify
from games.services.change import GameChange
from games.services.moderation import (
    ModerationAction,
    game_abort,
    hand_to_bot,
    log_action,
    seats_handed_to_bot,
)
from games.services.tables import game_cancel, game_leave, invitation_decline


def _lobbies_seated_at(user: User) -> list[int]:
    seats = Seat.objects.filter(user=user, is_bot=False, game__status=Game.Status.LOBBY)
    return sorted(set(seats.values_list("game_id", flat=True)))


def leave_lobbies(user: User, close: Callable[[int], object] | None = None) -> list[int]:
    """The tables in the lobby the player leaves: the ones they created are cancelled (by
    ``close``: a moderator's stop for a ban, not "bob cancelled the table"), their seats at
    the others freed, their open invitations declined. One table at a time in id order, all
    kinds together: two players leaving at once, each seated at the other's table, took their
    own first and each waited for the table the other held."""
    created = set(
        Game.objects.filter(created_by=user, status=Game.Status.LOBBY).values_list("pk", flat=True)
    )
    seated = set(_lobbies_seated_at(user))
    invited = Invitation.objects.filter(
        to_user=user, status=Invitation.Status.PENDING, game__status=Game.Status.LOBBY
    )
    left = []
    for game_id in sorted(created | seated | set(invited.values_list("game_id", flat=True))):
        if game_id in created:
            done = _if_still_open(close or (lambda table: game_cancel(user, table)), game_id)
        elif game_id in seated:
            # their invitation, if any, is declined with it
            done = _if_still_open(lambda table: game_leave(user, table), game_id)
        else:
            _if_still_open(lambda table: invitation_decline(user, table), game_id)
            continue
        if done:
            left.append(game_id)
    return left


def _if_still_open(step: Callable[[int], object], game_id: int) -> bool:
    """One table's step; False when the table moved on between the list and its lock (it
    started: the tables in play come next; it was cancelled; the player left it or answered on
    another device): nothing is left to do there, and the departure goes on. Any other refusal
    is raised: swallowed, it would leave the player at a table the departure said it left."""
    try:
        step(game_id)
    except (NotActive, NotSeated):
        return False
    except GameError as error:
        if error.code != "no_invitation":
            raise
        return False
    return True


@transaction.atomic
def player_departed(user: User) -> list[int]:
    """Every table the player left; see the module's docstring. Their row is locked first (as a
    ban does it, then a vacation, a join): a join under way finishes first, and its table is
    left with the others. The tables in play their unread notices are about are locked too,
    in the same order, though the bot plays their seat there already: the closing deletes
    those notices at its end, and a change there (a ban, a quit that ends a game they left)
    marks them read, then may wait for another of their tables; unlocked, it held the notice
    the closing waited for while it waited for the closing (a deadlock, one of them lost).
    So are the tables in play where the bot plays their seat already (they left, they missed
    their turns): an end there tells every seat's player the result; unlocked, that notice,
    written as the closing went on and committed after it, outlived the account."""
    User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
    left = leave_lobbies(user)
    in_play = Game.objects.filter(status=Game.Status.ACTIVE)
    noticed = Notification.objects.filter(user=user, read_at__isnull=True, game_id__in=in_play)
    seated = Seat.objects.filter(user=user, game__in=in_play)
    also = {game_id for game_id in noticed.values_list("game_id", flat=True) if game_id}
    also |= set(seated.values_list("game_id", flat=True))
    for change, _seat in seats_handed_to_bot(user, (Game.Status.ACTIVE,), "closed", also):
        if change.game.status == Game.Status.ACTIVE:  # the bots may have played it out
            notify.player_left(change.game, user, change.seats)
        left.append(change.game.pk)
    return left


def game_quit(user: User, game_id: int) -> None:
    """The player leaves a game in play: the bot plays their seat to the end (bot_reason "left",
    not theirs to take back) and their record counts the game as abandoned. The others hear it
    at once, instead of waiting a whole deadline for a move that will not come."""
    with GameChange(game_id) as change:
        seat = change.seat_of(user)
        if seat is not None and seat.bot_reason == "left":  # a second tab, a double click
            raise NotActive(_("You already left this game."), "left")
        if seat is None or seat.bot_for_good:
            raise NotAllowed(_("You are not playing at this table."))
        if change.game.status != Game.Status.ACTIVE:
            raise NotActive(_("This game is not in play."))
        if seat.is_bot:  # the bot already plays it (timeouts): the seat is no longer theirs
            Seat.objects.filter(pk=seat.pk).update(bot_reason="left")
            seat.bot_reason = "left"
            change.touch()
        else:
            hand_to_bot(change, seat, "left")
        if change.game.status == Game.Status.ACTIVE:  # the bots may have played it out
            notify.player_left(change.game, user, change.seats)


@transaction.atomic
def seats_to_bot_for_banned(actor: User, user: User) -> list[Seat]:
    """After a ban: the player leaves the tables in the lobby as a closed account does (a
    table they created waited for them to start it; their seats elsewhere stayed taken, as
    "(bot)"), and at tables in play the bot takes each seat (bot_reason "banned")."""
    user = User.objects.get(pk=user.pk)
    if user.banned_at is None:
        raise GameError(_("%(name)s is not banned.") % {"name": user.username}, "not_banned")
    # his own tables stopped as a moderator stops one: logged, and told without his name
    # a table in the lobby only: one that started as the ban listed it is a table in play
    leave_lobbies(
        user,
        close=lambda game_id: game_abort(
            actor, game_id, user.ban_reason, statuses=(Game.Status.LOBBY,)
        ),
    )
    handed = []
    for change, seat in seats_handed_to_bot(user, (Game.Status.ACTIVE,), "banned"):
        log_action(
            actor,
            ModerationAction.BANNED_SEAT_TO_BOT,
            user.ban_reason,
            game_id=change.game.pk,
            target=user,
        )
        handed.append(seat)
    return handed
