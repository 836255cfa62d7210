"""The only code that changes a game. Views, the API, consumers, tasks and the admin call these."""

from games.services.moderation import (
    force_deadline,
    game_abort,
    report_create,
    report_resolve,
    seat_to_bot,
    seats_to_bot_for_banned,
)
from games.services.play import ActResult, act, apply_deadline, expired_game_ids
from games.services.tables import (
    game_cancel,
    game_create,
    game_invite,
    game_join,
    game_start,
    invitation_decline,
    may_join,
)

__all__ = [
    "ActResult",
    "act",
    "apply_deadline",
    "expired_game_ids",
    "force_deadline",
    "game_abort",
    "game_cancel",
    "game_create",
    "game_invite",
    "game_join",
    "game_start",
    "invitation_decline",
    "may_join",
    "report_create",
    "report_resolve",
    "seat_to_bot",
    "seats_to_bot_for_banned",
]
