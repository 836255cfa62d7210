"""Who hears about a change: turn and window notices, results, hand-overs, reminders, nudges.

Notices name the game, the table and players, never a card. A window notice goes only to the
seat it asks, and nudges exist for turns only: in a secret window, "who has not answered yet"
is itself a secret.
"""

from __future__ import annotations

import functools
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils import timezone, translation
from django.utils.functional import lazy
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.models import Notification, User
from accounts.notifications import (
    Notice,
    NoticeBatch,
    email_in_time,
    notice_batch,
    notify,
    notify_all,
    written_in,
)
from accounts.selectors import has_blocked
from games import selectors
from games.catalog.base import join
from games.catalog.registry import title as game_title
from games.engines import registry
from games.engines.core import Engine, State, Waiting
from games.errors import GameError, NotActive, NotAllowed
from games.models import Game, Seat

WAIT_KINDS = (
    Notification.Kind.YOUR_TURN,
    Notification.Kind.WINDOW,
    Notification.Kind.REMINDER,
    Notification.Kind.NUDGE,
)
REMINDER_AT = 0.8  # of the allowed time, as lichess does
MIN_REMINDER_SECONDS = 600  # no reminders for live-speed waits


def _say(user: User, text: Any, **values: Any) -> str:
    with translation.override(written_in(user)):
        return str(text) % values


def _table(game: Game) -> str:
    return _table_url(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF, game.pk)


@functools.lru_cache(maxsize=4096)
def _table_url(prefix: str, urlconf: str, game_id: int) -> str:
    # every notice of a table links to it: reversing the URL cost as much as the rest of
    # building a notice (the key holds what reverse() depends on)
    return reverse("games:table", args=[game_id], urlconf=urlconf)


def _humans(seats: list[Seat]) -> dict[int, Seat]:
    return {s.index: s for s in seats if not s.is_bot and s.user_id}


def game_finished(game: Game, engine: Engine, seats: list[Seat]) -> None:
    """Everyone who sat down hears the result, including players whose seat the bot took; the
    notices of its waits and its invitation still unread ("your turn", "quick!") are read
    with it: nothing waits any more."""
    result = game.result or {}
    won_by = [s for s in seats if s.index in result.get("winners", [])]
    # named and joined in each reader's language ("Bot 2", a Persian comma): said in _say
    winners = lazy(lambda: join([s.name for s in won_by]) if won_by else "—", str)()
    notices: list[Notice] = []
    for seat in (s for s in seats if s.user_id):
        assert seat.user is not None  # a seat with a player
        # a seat the bot played for good (its player left, was banned) won the bot's game
        won = seat.index in result.get("winners", []) and not seat.bot_for_good
        text = (
            gettext_lazy("You won at %(game)s #%(id)s!")
            if won
            else gettext_lazy("%(game)s #%(id)s is over: %(winners)s won.")
        )
        notices.append(
            Notice(
                seat.user,
                Notification.Kind.GAME_FINISHED,
                _say(seat.user, text, game=game_title(game.engine), id=game.pk, winners=winners),
                _table(game),
                game.pk,
            )
        )
    notify_all(notices, supersede=(game.pk, (*WAIT_KINDS, Notification.Kind.INVITATION)))


def wait_opened(
    game: Game,
    engine: Engine,
    state: State,
    waiting: Waiting,
    seats: list[Seat],
    movers: set[int],
    deadline: Any = None,
) -> NoticeBatch | None:
    """One notice per asked seat when a wait opens, never again inside it: answers to a
    window change nothing anyone else receives. A player who moved in this very change is
    looking at the table and is not told. The notices are not stored yet: the change runs
    the batch with its own writes, in their round trip. ``deadline``: when the wait is due
    (None: not known yet, or none); a wait too short for an email is told in the app only."""
    humans = _humans(seats)
    leaves_at = timezone.now() + timedelta(seconds=settings.NOTIFICATION_EMAIL_DELAY)
    emailed = None if email_in_time(deadline, leaves_at) else False
    notices: list[Notice] = []
    for index in waiting.seats:
        seat = humans.get(index)
        if seat is None or index in movers or not engine.may_act(state, index):
            continue
        assert seat.user is not None  # _humans: seats with a player
        if waiting.kind == "window":
            kind, text = (
                Notification.Kind.WINDOW,
                gettext_lazy("Quick! %(game)s #%(id)s needs your answer."),
            )
        else:
            kind, text = Notification.Kind.YOUR_TURN, gettext_lazy("Your turn in %(game)s #%(id)s.")
        notices.append(
            Notice(
                seat.user,
                kind,
                _say(seat.user, text, game=game_title(game.engine), id=game.pk),
                _table(game),
                game.pk,
                wait_seq=game.wait_seq,
                emailed=emailed,
            )
        )
    # one batch for the whole table, older wait notices included (see _notify_wait), and the
    # movers' own: a move made through the API or a socket left "Your turn" unread on the bell
    return notice_batch(notices, supersede=(game.pk, WAIT_KINDS), read_for=_users(humans, movers))


def answered(game: Game, seats: list[Seat], movers: set[int]) -> NoticeBatch | None:
    """A move inside a wait that goes on (an answer to a window the others still owe): the
    movers' own notices of it are read. Only a move that opened a new wait read them: answered
    through the API, "Quick! ... needs your answer" stayed on the bell until the window ended.
    Nobody else's notices change (who has answered stays secret)."""
    readers = _users(_humans(seats), movers)
    return notice_batch([], supersede=(game.pk, WAIT_KINDS), read_for=readers) if readers else None


def _users(humans: dict[int, Seat], indexes: set[int]) -> list[int]:
    return [s.user_id for i, s in humans.items() if i in indexes and s.user_id is not None]


def _read_wait_notices(user: User, game: Game) -> None:
    Notification.objects.filter(
        user=user, game_id=game.pk, kind__in=WAIT_KINDS, read_at__isnull=True
    ).update(read_at=timezone.now())


def _notify_wait(user: User, kind: str, text: str, game: Game) -> None:
    """A notice about the game's current wait: it replaces the player's older open notices
    about that game's waits (the bell shows one), and its email is skipped once the wait is
    over or the notice read."""
    _read_wait_notices(user, game)
    notify(user, kind, text, _table(game), game.pk, wait_seq=game.wait_seq)


def game_abandoned(game: Game, seats: list[Seat]) -> None:
    """A game the bots could not finish is ended without a result: its players hear of it
    (those whose seat the bot took could still have taken it back)."""
    name = game_title(game.engine)
    for seat in (s for s in seats if s.user_id):
        assert seat.user is not None  # a seat with a player
        text = gettext_lazy("%(game)s #%(id)s was ended without a result: no player was left.")
        notify(
            seat.user,
            Notification.Kind.GAME_FINISHED,
            _say(seat.user, text, game=name, id=game.pk),
            _table(game),
            game.pk,
        )


def turn_timed_out(game: Game, seat: Seat) -> None:
    """The player's turn ran out and the bot played it: their history line named them as if
    they had made the move, and nothing told them until the third miss took their seat."""
    if seat.user_id and not seat.is_bot:
        text = gettext_lazy(
            "Your time ran out at %(game)s #%(id)s: the bot played your turn. Three in a row, "
            "and it plays your seat."
        )
        assert seat.user is not None  # a seat with a player
        _read_wait_notices(seat.user, game)  # that turn is over: its "your turn" with it
        notify(
            seat.user,
            Notification.Kind.TIMEOUT,
            _say(seat.user, text, game=game_title(game.engine), id=game.pk),
            _table(game),
            game.pk,
        )


def seat_handed_to_bot(game: Game, seat: Seat) -> None:
    if seat.user_id:
        text = gettext_lazy(
            "You missed three turns in a row at %(game)s #%(id)s, so the bot plays your seat now."
        )
        assert seat.user is not None  # a seat with a player
        _read_wait_notices(seat.user, game)
        notify(
            seat.user,
            Notification.Kind.SEAT_TO_BOT,
            _say(seat.user, text, game=game_title(game.engine), id=game.pk),
            _table(game),
            game.pk,
            # by email too: the player away for three turns is the one to hear it (and that
            # the seat is theirs to take back); the others' "X left" notices are not mailed
            emailed=True,
        )


def player_left(game: Game, leaver: User, seats: list[Seat]) -> None:
    """A player closed their account or quit the game: the others at the table hear who left,
    and that the bot plays that seat to the end (the seat's name alone only said "(bot)")."""
    text = gettext_lazy("%(name)s left %(game)s #%(id)s; the bot plays their seat to the end.")
    notify_all(
        [
            Notice(
                seat.user,
                Notification.Kind.SEAT_TO_BOT,
                _say(seat.user, text, name=leaver.name, game=game_title(game.engine), id=game.pk),
                _table(game),
                game.pk,
            )
            for seat in seats
            if seat.user is not None and seat.user_id != leaver.pk and not seat.is_bot
        ]
    )


def table_cancelled(game: Game, host: User, seated: list[User], invited: list[User]) -> None:
    """The creator cancelled the table before its start: whoever had sat down or was still
    invited hears it (their page only changed to "aborted" before), and their invitation
    notice is read with it: there is nothing left to accept. Only those who had sat down
    hear it by email: a table made and cancelled again and again mailed its invitees each
    time (a web attacker's review)."""
    name = game_title(game.engine)
    text = gettext_lazy("%(host)s cancelled the table of %(game)s #%(id)s.")
    notices = [
        Notice(
            user,
            Notification.Kind.GAME_FINISHED,
            _say(user, text, host=host.name, game=name, id=game.pk),
            _table(game),
            game.pk,
            emailed=None if user in seated else False,
        )
        for user in (*seated, *invited)
    ]
    notify_all(notices, supersede=(game.pk, (Notification.Kind.INVITATION,)))


def table_expired(game: Game, players: list[User], days: int) -> None:
    """Nobody started the table within ``days``: it was cancelled, and whoever sat down or
    was still invited hears why (its creator in words of their own)."""
    name = game_title(game.engine)
    notices = []
    for user in players:
        with translation.override(written_in(user)):
            if user.pk == game.created_by_id:
                text = ngettext(
                    "Nobody started your table of %(game)s #%(id)s within %(days)d day: it was "
                    "cancelled.",
                    "Nobody started your table of %(game)s #%(id)s within %(days)d days: it was "
                    "cancelled.",
                    days,
                )
            else:
                text = ngettext(
                    "The table of %(game)s #%(id)s did not start within %(days)d day: it was "
                    "cancelled.",
                    "The table of %(game)s #%(id)s did not start within %(days)d days: it was "
                    "cancelled.",
                    days,
                )
            said = text % {"game": name, "id": game.pk, "days": days}
        notices.append(Notice(user, Notification.Kind.GAME_FINISHED, said, _table(game), game.pk))
    notify_all(notices, supersede=(game.pk, (Notification.Kind.INVITATION,)))


def table_expiring(game: Game) -> None:
    """The table's creator hears, a day before, that nobody started it and it will be
    cancelled: they may start it with bots, or invite somebody else."""
    host = game.created_by
    if host is None or not host.is_active:
        return
    text = gettext_lazy(
        "Nobody has started your table of %(game)s #%(id)s: it will be cancelled in a day. "
        "You can start it now; empty seats go to bots."
    )
    said = _say(host, text, game=game_title(game.engine), id=game.pk)
    notify(host, Notification.Kind.TABLE, said, _table(game), game.pk)


def invitations_settled(game: Game, user_ids: list[int], started: bool = False) -> None:
    """These players' invitations to ``game`` were answered or ended (they joined, declined,
    left, or the table started without them): the notices that invited them are read. Left
    unread, they stayed on the bell and led to a table that no longer waited for them. Once
    the table ``started``, so are its creator's notices of who took a seat (and no email of
    them goes out)."""
    kinds = [Notification.Kind.INVITATION]
    if started and game.created_by_id is not None:
        user_ids = [*user_ids, game.created_by_id]
        kinds.append(Notification.Kind.TABLE)
    if user_ids:
        Notification.objects.filter(
            user_id__in=user_ids, game_id=game.pk, kind__in=kinds, read_at__isnull=True
        ).update(read_at=timezone.now())


def table_answered(
    game: Game, player: User, joined: bool, full: bool = False, started: bool = False
) -> None:
    """The table's creator hears who took a seat or declined: the table waits on them to
    start it, or to invite somebody else, and nothing told them before. ``started``: the
    last seat started a table that starts when full."""
    host = game.created_by
    if host is None or host.pk == player.pk or not host.is_active:
        return
    if not joined:
        text = gettext_lazy("%(name)s declined your invitation to %(game)s #%(id)s.")
    elif started:
        text = gettext_lazy(
            "%(name)s took the last seat at your table of %(game)s #%(id)s: the game has started."
        )
    elif full:
        text = gettext_lazy(
            "%(name)s took the last seat at your table of %(game)s #%(id)s: start the game "
            "when you are ready."
        )
    else:
        text = gettext_lazy("%(name)s took a seat at your table of %(game)s #%(id)s.")
    said = _say(host, text, name=player.name, game=game_title(game.engine), id=game.pk)
    # A player taking a seat and leaving it again and again (an open table) was a notice, a
    # push and an email to the creator each round: the same news about the same table is told
    # once (what became of the seat since, the table's page shows). A decline follows the
    # creator's own invitation (a few an hour): each is an answer they wait for.
    told = Notification.objects.filter(
        user=host, game_id=game.pk, kind=Notification.Kind.TABLE, text=said[:300]
    )
    if joined and told.exists():
        return
    notify(host, Notification.Kind.TABLE, said, _table(game), game.pk)


def invited(game: Game, invitee: User, host: User) -> None:
    # the table's number, as every other notice has it: two invitations to one game differ
    text = gettext_lazy("%(host)s invites you to %(game)s #%(id)s.")
    if game.rematch_of_id is not None:
        # "Play again": the invitation read as one to a stranger's new table, not the rematch
        # of the game the invitee had just played (a new player's play-through)
        text = gettext_lazy("%(host)s invites you to a rematch: %(game)s #%(id)s (after #%(old)s).")
    notify(
        invitee,
        Notification.Kind.INVITATION,
        _say(
            invitee,
            text,
            host=host.name,
            game=game_title(game.engine),
            id=game.pk,
            old=game.rematch_of_id,
        ),
        _table(game),
        game.pk,
    )


@transaction.atomic
def nudge(user: User, game_id: int) -> str:
    """Any other player may nudge the seat whose turn it is, once per turn (but no player who
    blocked them: see the silent answer below)."""
    game = Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    if game is None or not game.seats.filter(user=user).exists():
        raise NotAllowed(_("You are not playing at this table."))
    if game.status != Game.Status.ACTIVE:
        raise NotActive(_("This game is not in play."))
    if game.wait_kind != "turn" or game.wait_seat is None:
        raise GameError(
            _("You can nudge a player whose turn it is, not during a window."), "not_a_turn"
        )
    seat = game.seats.select_related("user").get(index=game.wait_seat)
    if seat.user_id == user.pk:
        raise GameError(_("It is your own turn."), "own_turn")
    if seat.is_bot or seat.user is None:
        raise GameError(_("The bot is already playing that seat."), "bot_seat")
    if seat.nudged_for_wait == game.wait_seq:
        raise GameError(
            _("%(name)s was already nudged this turn.") % {"name": seat.user.name}, "already_nudged"
        )
    if selectors.nudge_too_early(game):
        raise GameError(
            _("%(name)s's turn has only just begun: nudge them a little later.")
            % {"name": seat.user.name},
            "too_soon",
        )
    if has_blocked(seat.user, user):
        # silent, as a friend request to a blocker: the page answers as for any nudge, the
        # blocker hears nothing, and the turn's nudge stays for the players they still hear
        return seat.user.name
    Seat.objects.filter(pk=seat.pk).update(nudged_for_wait=game.wait_seq)
    text = gettext_lazy("%(name)s nudges you: it is your turn in %(game)s #%(id)s.")
    _notify_wait(
        seat.user,
        Notification.Kind.NUDGE,
        _say(seat.user, text, name=user.name, game=game_title(game.engine), id=game.pk),
        game,
    )
    return seat.user.name


def reminder_time(game: Game, waiting: Waiting | None, deadline: Any) -> Any:
    """When the wait's reminder is due: at REMINDER_AT of its time before ``deadline``; None
    for live-speed waits, waits without a deadline, or no wait."""
    if deadline is None or waiting is None or waiting.kind not in ("turn", "window"):
        return None
    span = game.window_seconds if waiting.kind == "window" else game.move_seconds
    if span < MIN_REMINDER_SECONDS:
        return None
    return deadline - timedelta(seconds=(1 - REMINDER_AT) * span)


REMINDER_BATCH = 500


REMINDER = gettext_lazy("Reminder: your move in %(game)s #%(id)s is due in %(left)s.")


def _time_left(deadline: Any, now: Any) -> str:
    # "4 hours, 47 minutes", in the reader's language ("287 minutes" at a daily pace);
    # never "0 minutes" (a sweep late into the last minute): at least a minute
    return timeuntil(max(deadline, now + timedelta(minutes=1)), now, depth=2)


def reminder_words(asked: list[tuple[int, str, Any]], now: Any) -> list[str | None]:
    """Reminders said again at ``now``, each (game id, language, deadline) in its language: their
    emails, sent after the notices were written (accounts.notifications.email_texts). None for
    no such game. One query for them all (a digest may hold many)."""
    engines = dict(
        Game.objects.filter(pk__in={game_id for game_id, _language, _due in asked}).values_list(
            "pk", "engine"
        )
    )
    said: list[str | None] = []
    for game_id, language, deadline in asked:
        engine = engines.get(game_id)
        if engine is None:
            said.append(None)
            continue
        with translation.override(language):
            said.append(
                str(REMINDER)
                % {"game": game_title(engine), "id": game_id, "left": _time_left(deadline, now)}
            )
    return said


def send_due_reminders(now: Any = None) -> int:
    """One reminder per wait at about 80% of its time, for the humans it still waits on (a
    turn whose deadline a vacation moved is reminded again, before the new deadline).
    ``Game.remind_at`` (partial index game_remind_due) finds the due games; each seat is
    claimed once, and the game's reminder time is cleared once sent."""
    now = now or timezone.now()
    sent = 0
    due = Game.objects.filter(remind_at__lte=now).order_by("remind_at")[:REMINDER_BATCH]
    for game in due:
        # cleared as it was read: a change since has set its own reminder (the wait read here
        # is over: a move came after this read; or its deadline moved: a vacation), and that
        # one stays, for its own time
        cleared = Game.objects.filter(
            pk=game.pk, wait_seq=game.wait_seq, remind_at=game.remind_at
        ).update(remind_at=None)
        if (
            not cleared
            or game.status != Game.Status.ACTIVE
            or game.deadline_at is None
            or game.deadline_at <= now
            or game.state is None
        ):
            continue
        waiting = registry.get(game.engine, game.rules_version).waiting_for(game.state)
        with transaction.atomic():
            # under the game's lock, as a move: a move since the read above (the wait over,
            # or an answer inside the window) is seen here. A reminder sent after it told the
            # player a move they had made was due, and read their newer notices there.
            owing = (
                Game.objects.select_for_update(no_key=True)
                .filter(pk=game.pk, wait_seq=game.wait_seq, status=Game.Status.ACTIVE)
                .values_list("wait_mask", flat=True)
                .first()
            )
            if owing is None:
                continue
            for seat in game.seats.select_related("user").filter(
                index__in=[s for s in waiting.seats if owing >> s & 1],
                is_bot=False,
                user__isnull=False,
            ):
                assert seat.user is not None  # user__isnull=False
                claimed = (
                    Seat.objects.filter(pk=seat.pk)
                    .exclude(reminded_for_wait=game.wait_seq)
                    .update(reminded_for_wait=game.wait_seq)
                )
                if not claimed:
                    continue  # reminded already (another sweeper got there first)
                left = lazy(_time_left, str)(game.deadline_at, now)
                _notify_wait(
                    seat.user,
                    Notification.Kind.REMINDER,
                    _say(seat.user, REMINDER, game=game_title(game.engine), id=game.pk, left=left),
                    game,
                )
                sent += 1
    return sent
