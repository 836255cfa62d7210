"""A player who closes their account leaves every table, so that nobody waits for them again.

Tables they created and not yet started are cancelled (whoever sat down or was invited hears
it); their seats at other tables in the lobby are freed; their open invitations are declined;
at tables in play the bot takes their seat for the rest of the game (bot_reason "closed": not
reclaimable). One table at a time, in id order, as the ban's handover does.
"""

from __future__ import annotations

from accounts.models import User
from games.models import Game, Invitation, Seat
from games.services import notify
from games.services.change import GameChange
from games.services.moderation import hand_to_bot
from games.services.tables import game_cancel, game_leave, invitation_decline


def _their_tables(user: User, status: str, **filters: object) -> list[int]:
    seats = Seat.objects.filter(user=user, is_bot=False, game__status=status, **filters)
    return sorted(set(seats.values_list("game_id", flat=True)))


def player_departed(user: User) -> list[int]:
    """Every table the player left; see the module's docstring."""
    left = []
    created = Game.objects.filter(created_by=user, status=Game.Status.LOBBY)
    for game_id in sorted(created.values_list("pk", flat=True)):
        game_cancel(user, game_id)
        left.append(game_id)
    for game_id in _their_tables(user, Game.Status.LOBBY):
        game_leave(user, game_id)  # their invitation, if any, is declined with it
        left.append(game_id)
    invited = Invitation.objects.filter(
        to_user=user, status=Invitation.Status.PENDING, game__status=Game.Status.LOBBY
    )
    for game_id in sorted(invited.values_list("game_id", flat=True)):
        invitation_decline(user, game_id)
    for game_id in _their_tables(user, Game.Status.ACTIVE):
        with GameChange(game_id) as change:
            seat = next((s for s in change.seats if s.user_id == user.pk and not s.is_bot), None)
            if seat is None or change.game.status != Game.Status.ACTIVE:
                continue  # it ended while we waited for the lock
            hand_to_bot(change, seat, "closed")
            if change.game.status == Game.Status.ACTIVE:  # the bots may have played it out
                notify.player_left(change.game, user, change.seats)
            left.append(game_id)
    return left
