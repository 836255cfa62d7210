"""The only code that changes a game. Views, the API, consumers, tasks and the admin call these.

Every change of a game goes through ``games.services.change.GameChange``.
"""

from games.services.departure import game_quit, seats_to_bot_for_banned
from games.services.lobby_expiry import expire_unstarted_tables, warn_unstarted_tables
from games.services.moderation import (
    force_deadline,
    game_abort,
    report_create,
    report_reopen,
    report_resolve,
    seat_to_bot,
)
from games.services.notify import send_due_reminders
from games.services.pace import live_answer, live_check, live_check_all, live_propose
from games.services.play import (
    ActResult,
    act,
    apply_bot_moment,
    apply_deadline,
    apply_if_expired,
    seat_reclaim,
)
from games.services.sweep import sweep_due
from games.services.tables import (
    game_cancel,
    game_create,
    game_invite,
    game_join,
    game_learn,
    game_leave,
    game_rematch,
    game_start,
    invitation_decline,
    may_join,
    not_ready,
    seat_ready,
)

__all__ = [
    "ActResult",
    "act",
    "apply_bot_moment",
    "apply_deadline",
    "apply_if_expired",
    "expire_unstarted_tables",
    "force_deadline",
    "game_abort",
    "game_cancel",
    "game_create",
    "game_invite",
    "game_join",
    "game_learn",
    "game_leave",
    "game_quit",
    "game_rematch",
    "game_start",
    "invitation_decline",
    "live_answer",
    "live_check",
    "live_check_all",
    "live_propose",
    "may_join",
    "not_ready",
    "report_create",
    "report_reopen",
    "report_resolve",
    "seat_ready",
    "seat_reclaim",
    "seat_to_bot",
    "seats_to_bot_for_banned",
    "send_due_reminders",
    "sweep_due",
    "warn_unstarted_tables",
]
