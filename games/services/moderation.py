"""Moderation: the admin's (and the ban hook's) only way to change a game, plus player reports.

Every moderator action runs in one transaction, locks the game row like a move does, and
writes one ``accounts.ModerationLog`` row. Nothing here invents an event-log entry that is not
a real engine action: the log must keep replaying to the stored state (see ``games.replays``),
so an abort or a seat handover is recorded in the moderation log, and the moves bots or
deadlines make because of it are recorded as ordinary ``bot`` / ``timeout`` events.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import ModerationLog, Notification, User
from accounts.notifications import notify, written_in
from games import selectors
from games.catalog.registry import title as game_title
from games.errors import GameError, GameNotFound, NotActive
from games.models import OPEN_STATUSES, Game, Invitation, Report, Seat
from games.services import pace
from games.services.change import GameChange
from games.services.notify import invitations_settled
from games.services.play import apply_deadline


class ModerationAction:
    """The ``ModerationLog.action`` values this module writes (accounts writes ban/unban)."""

    GAME_ABORT = "game_abort"
    SEAT_TO_BOT = "seat_to_bot"
    FORCE_DEADLINE = "force_deadline"
    BANNED_SEAT_TO_BOT = "banned_seat_to_bot"
    REPORT_RESOLVED = "report_resolved"
    REPORT_DISMISSED = "report_dismissed"
    REPORT_REOPENED = "report_reopened"


def _reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise GameError(_("Give a reason: it goes into the moderation log."), "reason_required")
    return reason


def log_action(
    actor: Any, action: str, reason: str, game_id: int | None = None, target: Any = None
) -> ModerationLog:
    return ModerationLog.objects.create(
        actor=actor, action=action, target_user=target, game_id=game_id, reason=reason
    )


def _tell(user: User, kind: str, text: Any, game: Game) -> None:
    """An in-app notice in the player's language: names the table, never a card."""
    with translation.override(written_in(user)):
        message = str(text) % {
            "game": game_title(game.engine),
            "id": game.pk,
        }
    notify(user, kind, message, reverse("games:table", args=[game.pk]), game.pk)


def game_abort(
    actor: User, game_id: int, reason: str, statuses: tuple[str, ...] = OPEN_STATUSES
) -> Game:
    """Stops a table for good: lobby or active -> aborted. State, seats and the log stay as they are.
    ``statuses``: those it may stop (a banned player's tables in the lobby: one that started
    since it was listed goes on, his seat to the bot)."""
    reason = _reason(reason)
    with GameChange(game_id) as change:
        game = change.game
        if game.status not in statuses:
            raise NotActive(
                _("Game #%(id)s is already %(status)s.")
                % {"id": game.pk, "status": game.get_status_display()}
            )
        lobby = game.status == Game.Status.LOBBY
        pending = game.invitations.filter(status=Invitation.Status.PENDING)
        # told too, as a cancelled table tells them
        invited = selectors.still_invited(game) if lobby else []
        invitations_settled(game, list(pending.values_list("to_user_id", flat=True)))
        pending.update(status=Invitation.Status.CANCELLED, answered_at=change.now)
        game.status = Game.Status.ABORTED
        game.finished_at = change.now
        change.touch()
        log_action(actor, ModerationAction.GAME_ABORT, reason, game_id=game.pk)
        seated = [s.user for s in change.seats if s.user is not None and s.user.is_active]
        text = (
            gettext_lazy("A moderator closed the table of %(game)s #%(id)s.")
            if lobby
            else gettext_lazy("A moderator stopped %(game)s #%(id)s. It ends without a result.")
        )
        for user in [*seated, *invited]:
            _tell(user, Notification.Kind.GAME_FINISHED, text, game)
    return game


def hand_to_bot(change: GameChange, seat: Seat, bot_reason: str) -> None:
    """Marks the seat as the bot's and, if the game now waits on bots, lets them play (a game
    with no human left goes on in chunks: see GameChange.settle_bots)."""
    Seat.objects.filter(pk=seat.pk).update(is_bot=True, bot_reason=bot_reason)
    seat.is_bot, seat.bot_reason = True, bot_reason
    change.touch()
    if change.game.status == Game.Status.ACTIVE and change.state is not None:
        change.settle_bots()
        pace.seat_departed(change)


def seat_to_bot(actor: User, game_id: int, seat_index: int, reason: str) -> Seat:
    """Hands one human seat to the bot for the rest of the game (bot_reason "admin")."""
    reason = _reason(reason)
    with GameChange(game_id) as change:
        game = change.game
        if game.status not in OPEN_STATUSES:
            raise NotActive(_("Game #%(id)s is over.") % {"id": game.pk})
        seat = next((s for s in change.seats if s.index == seat_index), None)
        if seat is None:
            raise GameError(
                _("Game #%(id)s has no seat %(seat)s.") % {"id": game.pk, "seat": seat_index},
                "no_such_seat",
            )
        if seat.is_bot:
            raise GameError(
                _("Seat %(seat)s of game #%(id)s is already played by the bot.")
                % {"seat": seat_index, "id": game.pk},
                "already_bot",
            )
        hand_to_bot(change, seat, "admin")
        log_action(actor, ModerationAction.SEAT_TO_BOT, reason, game_id=game.pk, target=seat.user)
        if seat.user is not None and seat.user.is_active:
            text = gettext_lazy("A moderator handed your seat at %(game)s #%(id)s to the bot.")
            _tell(seat.user, Notification.Kind.SEAT_TO_BOT, text, game)
    return seat


@transaction.atomic
def force_deadline(actor: User, game_id: int, reason: str) -> Game:
    """Makes the current wait time out now, exactly as if its deadline had passed."""
    reason = _reason(reason)
    with GameChange(game_id) as change:
        game = change.game
        if game.status != Game.Status.ACTIVE or game.state is None:
            raise NotActive(_("Game #%(id)s is not in play.") % {"id": game.pk})
        target = None
        if change.waiting is not None and change.waiting.kind == "turn":
            target = change.seat(change.waiting.seats[0]).user
        change.set_deadline(change.now)
    # The same path as the sweeper, for the wait that was current.
    if not apply_deadline(game.pk, game.wait_seq):
        raise GameError(_("Game #%(id)s has nothing to time out.") % {"id": game.pk}, "no_wait")
    log_action(actor, ModerationAction.FORCE_DEADLINE, reason, game_id=game.pk, target=target)
    return Game.objects.get(pk=game.pk)


def seats_handed_to_bot(
    user: User, statuses: tuple[str, ...], bot_reason: str, also: Collection[int] = ()
) -> Iterator[tuple[GameChange, Seat]]:
    """Hands each seat ``user`` holds at a table in ``statuses`` to the bot, one game at a
    time, all the tables locked first in id order (no lock cycles); yields inside each game's
    change, so the caller's own writes (a log row, a notice) are part of it. ``also``: more
    tables to lock in that order, where the player has no seat to hand over (see
    player_departed)."""
    seated = Seat.objects.filter(user=user, is_bot=False, game__status__in=statuses)
    game_ids = sorted(set(seated.values_list("game_id", flat=True)) | set(also))
    # every table locked before the first is handed over: the bots may end one, and its end
    # locks its players' records; held while the next table was waited for, they were what a
    # move ending that table waited for, holding it (a deadlock)
    list(Game.objects.select_for_update(no_key=True).filter(pk__in=game_ids).order_by("pk"))
    for game_id in game_ids:
        with GameChange(game_id) as change:
            seat = next((s for s in change.seats if s.user_id == user.pk and not s.is_bot), None)
            if seat is None or change.game.status not in statuses:
                continue  # it moved on while we waited for the lock
            hand_to_bot(change, seat, bot_reason)
            yield change, seat


# --- Reports ------------------------------------------------------------------------------

REPORT_TEXT_MAX = 2000


def _seated_user(game: Game, who: Any) -> User:
    """The user at ``who``: a seat index (int or digits) or a username."""
    seats = Seat.objects.filter(game=game).select_related("user")
    if isinstance(who, int) or (isinstance(who, str) and who.strip().isdigit()):
        seat = seats.filter(index=int(who)).first()
        if seat is not None and seat.user is None:
            raise GameError(_("That seat is a bot; there is nobody to report."), "bot_seat")
    else:
        seat = seats.filter(user__username__iexact=str(who or "").strip()).first()
    if seat is None or seat.user is None:
        raise GameError(_("That player is not seated at this table."), "not_seated")
    return seat.user


@transaction.atomic
def report_create(
    reporter: User, game_id: int, reported: Any, reason: str, text: str = ""
) -> Report:
    """A player reports another player from the same table."""
    # serialises reports on one table (one open report per pair); no revision: nothing shown
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None:
        raise GameNotFound()
    if not Seat.objects.filter(game=game, user=reporter).exists():
        raise GameError(
            _("You can only report players at a table where you have a seat."), "not_seated"
        )
    target = _seated_user(game, reported)
    if target.pk == reporter.pk:
        raise GameError(_("You cannot report yourself."), "self")
    if reason not in Report.Reason.values:
        raise GameError(_("Choose a reason for the report."), "bad_reason")
    text = (text or "").strip()
    if len(text) > REPORT_TEXT_MAX:
        raise GameError(
            ngettext(
                "Keep the description under %(max)d character.",
                "Keep the description under %(max)d characters.",
                REPORT_TEXT_MAX,
            )
            % {"max": REPORT_TEXT_MAX},
            "too_long",
        )
    if Report.objects.filter(
        reporter=reporter, reported=target, game=game, status=Report.Status.OPEN
    ).exists():
        raise GameError(
            _("You have already reported %(name)s at this table; the moderators will look at it.")
            % {"name": target.name},
            "duplicate",
        )
    return Report.objects.create(
        reporter=reporter, reported=target, game=game, reason=reason, text=text
    )


@transaction.atomic
def report_reopen(actor: User, report: Report, reason: str) -> Report:
    """A report closed by mistake is open again (its earlier note stays in the log)."""
    reason = _reason(reason)
    report = Report.objects.select_for_update().get(pk=report.pk)
    if report.status == Report.Status.OPEN:
        raise GameError(_("Report #%(id)s is open.") % {"id": report.pk}, "already_open")
    report.status = Report.Status.OPEN
    report.resolved_by = None
    report.resolved_at = None
    report.resolution = ""
    report.save(update_fields=["status", "resolved_by", "resolved_at", "resolution"])
    log_action(
        actor,
        ModerationAction.REPORT_REOPENED,
        reason,
        game_id=report.game_id,
        target=report.reported,
    )
    return report


@transaction.atomic
def report_resolve(actor: User, report: Report, status: str, resolution: str) -> Report:
    """Closes an open report as resolved or dismissed, with a note for the log."""
    if status not in (Report.Status.RESOLVED, Report.Status.DISMISSED):
        raise GameError(_("A report is closed as resolved or dismissed."), "bad_status")
    resolution = (resolution or "").strip()
    if not resolution:
        raise GameError(_("Write a resolution note."), "reason_required")
    report = Report.objects.select_for_update().get(pk=report.pk)
    if report.reported_id == actor.pk:
        # a moderator who plays may be reported too: not his to dismiss
        raise GameError(_("A report about you is for another moderator to close."), "own_report")
    if report.status != Report.Status.OPEN:
        raise GameError(
            _("Report #%(id)s is already %(status)s.")
            % {"id": report.pk, "status": report.get_status_display()},
            "not_open",
        )
    report.status = status
    report.resolved_by = actor
    report.resolved_at = timezone.now()
    report.resolution = resolution
    report.save(update_fields=["status", "resolved_by", "resolved_at", "resolution"])
    action = (
        ModerationAction.REPORT_RESOLVED
        if status == Report.Status.RESOLVED
        else ModerationAction.REPORT_DISMISSED
    )
    log_action(actor, action, resolution, game_id=report.game_id, target=report.reported)
    # the reporter hears that someone looked (not what was decided, nor the note: both stay
    # between the moderators and the log)
    reporter = report.reporter
    with translation.override(written_in(reporter)):
        text = _("A moderator reviewed your report about %(name)s. Thank you for telling us.") % {
            "name": report.reported.name
        }
    url = reverse("games:table", args=[report.game_id]) if report.game_id else ""
    notify(reporter, Notification.Kind.REPORT, text, url, report.game_id)
    return report
