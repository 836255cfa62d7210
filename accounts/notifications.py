"""In-app notifications and the emails that follow them.

``notify`` is the one way to tell a player something. It stores the notification; for the
kinds that may email, the row itself is the email's place in the queue (``email`` pending,
accounts.email_queue): a move publishes no email task. Whether an email goes out is decided
at send time (preferences, the one-per-game-per-hour rule, an open table), so a burst of
moves never becomes a burst of emails.
Texts carry names and game titles only: never a card.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from celery import current_app
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import connection, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from accounts.models import EmailPreference, Notification, User, online_key
from config.after_response import after_response
from config.cache import REDIS_UNAVAILABLE
from config.statements import Statement, default_connection, run_together

log = logging.getLogger(__name__)

EMAIL_KINDS = {
    Notification.Kind.YOUR_TURN,
    Notification.Kind.WINDOW,
    Notification.Kind.REMINDER,
    Notification.Kind.NUDGE,
    # a table waits days on these too: an invitation nobody opens, a full table its creator
    # has not started, and the end of a game played over days
    Notification.Kind.INVITATION,
    Notification.Kind.TABLE,
    Notification.Kind.GAME_FINISHED,
}
EMAIL_GAP = timedelta(hours=1)
# Never held back by the gap: a reminder is asked for by the player (at the Fast pace it falls
# 48 minutes after the turn's email, always inside the gap), and a result ends the table.
UNGAPPED_KINDS = {Notification.Kind.REMINDER, Notification.Kind.GAME_FINISHED}
# An email about a wait is sent only with this long still left before the wait is due: it
# leaves NOTIFICATION_EMAIL_DELAY after its notice at the earliest, and mail is read in
# minutes. "Quick! ... needs your answer" went by email for a Fast table's two-minute window
# and arrived once the window had closed (a new player's play-through); the notice stays.
EMAIL_MIN_LEAD = timedelta(minutes=10)
HEARTBEAT_SECONDS = 20
PRESENCE_SECONDS = 60  # the grace after the last heartbeat (three missed beats)
UNSUBSCRIBE_SALT = "fibbers.unsubscribe"


def _push_state(user: User, kind: str) -> str:
    """Pending when the player has a device subscribed and wants this kind pushed (the row is
    already loaded: no query)."""
    if user.push_devices and kind in (user.push_kinds or []):
        return Notification.Push.PENDING
    return Notification.Push.NONE


def written_in(user: User) -> str:
    """The language a notice to ``user`` is written in (every writer overrides to it)."""
    return user.language or settings.LANGUAGE_CODE


def notify(
    user: User,
    kind: str,
    text: str,
    url: str = "",
    game_id: int | None = None,
    wait_seq: int | None = None,
    emailed: bool | None = None,
) -> Notification | None:
    """``emailed``: whether it goes by email too; by default, as its kind does (EMAIL_KINDS).
    None for a closed account: its notices were deleted with it, and none are written since."""
    if user.closed_at is not None:
        return None
    if emailed is None:
        emailed = kind in EMAIL_KINDS
    email = Notification.Email.PENDING if emailed else Notification.Email.NONE
    note = Notification.objects.create(
        user=user,
        kind=kind,
        text=text[:300],
        language=written_in(user),
        url=url,
        game_id=game_id,
        wait_seq=wait_seq,
        email=email,
        push=_push_state(user, kind),
    )
    if note.push == Notification.Push.PENDING:
        transaction.on_commit(lambda: _queue_push([note.pk]))
    return note


@dataclass
class Notice:
    """One notification to store (see ``notify_all``)."""

    user: User
    kind: str
    text: str
    url: str = ""
    game_id: int | None = None
    wait_seq: int | None = None
    # whether it goes by email too; by default, as its kind does (EMAIL_KINDS)
    emailed: bool | None = None


@dataclass
class NoticeBatch:
    """Notifications ready to be stored: ``statements`` (run together, in order, the last
    one answering the new rows' ids), then ``stored`` with those ids. A change runs them with
    its own writes, in the same round trip (games/table_write.py)."""

    statements: list[Statement]
    notes: list[Notification]

    def stored(self, ids: list[int]) -> None:
        for note, pk in zip(self.notes, ids, strict=True):
            note.pk = note.id = pk
            note._state.adding, note._state.db = False, connection.alias
        pushes = [n.pk for n in self.notes if n.push == Notification.Push.PENDING]
        if pushes:
            transaction.on_commit(lambda: _queue_push(pushes))


@functools.cache  # (``cache`` here is Django's)
def _note_fields() -> list[Any]:
    return [f for f in Notification._meta.concrete_fields if not f.primary_key]


def _emailed(notice: Notice) -> bool:
    return notice.kind in EMAIL_KINDS if notice.emailed is None else notice.emailed


def notice_batch(
    notices: list[Notice],
    supersede: tuple[int, Iterable[str]] | None = None,
    read_for: Iterable[int] = (),
) -> NoticeBatch | None:
    """Several notifications as one batch (a move tells its table at once); None for none.

    ``supersede`` = (game id, kinds): each recipient's older unread notifications of those
    kinds about that game are marked read first (the bell shows one notice per game's wait):
    the ``INSERT`` runs after that ``UPDATE`` has ended, so the new rows are not marked.
    ``read_for``: further players whose notices ``supersede`` marks read (those who just
    moved: their "your turn" is answered, through the API as through the page)."""
    read_for = set(read_for)
    # a closed account's notices were deleted with it (a game it left ends: not one more)
    notices = [n for n in notices if n.user.closed_at is None]
    if not notices and not (supersede and read_for):
        return None
    now = timezone.now()
    notes = [
        Notification(
            user=n.user,
            kind=n.kind,
            text=n.text[:300],
            language=written_in(n.user),
            url=n.url,
            game_id=n.game_id,
            wait_seq=n.wait_seq,
            created_at=now,
            email=Notification.Email.PENDING if _emailed(n) else Notification.Email.NONE,
            push=_push_state(n.user, n.kind),
        )
        for n in notices
    ]
    # values as the ORM would send them (SQLite keeps datetimes as UTC text, for one)
    fields = _note_fields()
    db = default_connection()
    quote = db.ops.quote_name
    table = quote(Notification._meta.db_table)
    statements: list[Statement] = []
    if supersede is not None:
        game_id, kinds = supersede
        users, kinds = sorted({n.user_id for n in notes} | read_for), list(kinds)
        read_at = Notification._meta.get_field("read_at").get_db_prep_save(now, db)
        statements.append(
            (
                f"UPDATE {table} SET read_at = %s WHERE user_id IN ({_marks(users)})"
                f" AND game_id = %s AND kind IN ({_marks(kinds)}) AND read_at IS NULL",
                [read_at, *users, game_id, *kinds],
            )
        )
    if not notes:
        return NoticeBatch(statements, notes)
    row = f"({_marks(fields)})"
    statements.append(
        (
            f"INSERT INTO {table} ({', '.join(quote(f.column) for f in fields)})"
            f" VALUES {', '.join([row] * len(notes))} RETURNING {quote(Notification._meta.pk.column)}",
            [
                field.get_db_prep_save(getattr(note, field.attname), db)
                for note in notes
                for field in fields
            ],
        )
    )
    return NoticeBatch(statements, notes)


def _marks(values: Iterable[Any]) -> str:
    return ", ".join("%s" for _ in values)


def notify_all(notices: list[Notice], supersede: tuple[int, Iterable[str]] | None = None) -> None:
    """Stores a ``notice_batch`` now: on PostgreSQL in one round trip."""
    batch = notice_batch(notices, supersede)
    if batch is not None:
        rows, _count = run_together(batch.statements)[-1]
        batch.stored([pk for (pk,) in rows or []])


def prune(now: Any = None) -> int:
    """Deletes notifications past their retention: read ones after
    ``NOTIFICATION_RETENTION_DAYS``, any after ``NOTIFICATION_MAX_DAYS``. In batches (index
    notification_created), each its own short statement, so the sweep never holds the table."""
    now = now or timezone.now()
    read_before = now - timedelta(days=settings.NOTIFICATION_RETENTION_DAYS)
    any_before = now - timedelta(days=settings.NOTIFICATION_MAX_DAYS)
    deleted = 0
    for stale in (
        Notification.objects.filter(created_at__lt=any_before),
        Notification.objects.filter(created_at__lt=read_before, read_at__isnull=False),
    ):
        while True:
            ids = list(stale.order_by("created_at").values_list("pk", flat=True)[:PRUNE_BATCH])
            if not ids:
                break
            deleted += Notification.objects.filter(pk__in=ids).delete()[0]
    return deleted


PRUNE_BATCH = 5000


# The games app says which notices' waits are still the game's current ones, and when those
# are due (accounts does not import games: the games app registers both when it is ready).
# Each takes a batch: a digest asks for all its notices at once.
WaitKey = tuple[int, int, int]  # (game id, wait number, player id)
_waits_current: Callable[[Collection[WaitKey]], set[WaitKey]] = lambda waits: set(waits)  # noqa: E731
_wait_deadlines: Callable[[Collection[int]], dict[int, Any]] = lambda game_ids: {}  # noqa: E731


def register_wait_check(check: Callable[[Collection[WaitKey]], set[WaitKey]]) -> None:
    global _waits_current
    _waits_current = check


def register_wait_deadline(lookup: Callable[[Collection[int]], dict[int, Any]]) -> None:
    global _wait_deadlines
    _wait_deadlines = lookup


# A reminder says how long is left: as of its writing. Its email may leave hours later (a mail
# server down, tried again), or at 07:00 in a digest: the games app says it again for the time
# of sending, for several reminders at once (game id, language, deadline) -> words or None.
ReminderWords = Callable[[list[tuple[int, str, Any]], datetime], list[str | None]]
_reminder_words: ReminderWords = lambda asked, now: [None] * len(asked)  # noqa: E731


def register_reminder_words(say: ReminderWords) -> None:
    global _reminder_words
    _reminder_words = say


def email_texts(
    notes: list[Notification], deadlines: dict[int, Any], now: datetime
) -> dict[int, str]:
    """Each notice's words for its email sent at ``now`` (by notice id): a reminder's time left
    counted to its wait's deadline (``deadlines`` by notice id, as it stands: None without
    one) from then, not from its writing; every other notice as it was written."""
    texts = {note.pk: note.text for note in notes}
    reminders = [
        note
        for note in notes
        if note.kind == Notification.Kind.REMINDER
        and note.game_id is not None
        and deadlines.get(note.pk)
    ]
    if reminders:
        asked = [
            (int(note.game_id or 0), note.language or written_in(note.user), deadlines[note.pk])
            for note in reminders  # each with its game, as chosen above
        ]
        for note, said in zip(reminders, _reminder_words(asked, now), strict=True):
            texts[note.pk] = said or note.text
    return texts


def email_text(note: Notification, deadline: Any, now: datetime) -> str:
    """``email_texts`` of one notice."""
    return email_texts([note], {note.pk: deadline}, now)[note.pk]


def wait_deadline(game_id: int) -> Any:
    """When the game's current wait is due (None without one)."""
    return _wait_deadlines([game_id]).get(game_id)


def wait_deadlines(game_ids: Collection[int]) -> dict[int, Any]:
    """When each game's current wait is due; a game without one is absent."""
    return _wait_deadlines(game_ids)


def unread_count(user: User, besides_game: int | None = None) -> int:
    """The bell's count; ``besides_game``: the table on screen, whose notices the page shows
    (its refresh reads them) and its bell never counts."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if besides_game is not None:
        rows = rows.exclude(game_id=besides_game)
    return rows.count()


def notice_key(note_id: int) -> str:
    """The name a page or a push gives one notice, never its row number: the numbers of two of
    a player's own notices counted the notices the site wrote in between, reminders included,
    which go only to the seats a secret window still waits on (a player who sent themselves
    a friend request before and after a show of hands' reminder learnt whether the other
    asked seat had answered)."""
    return salted_hmac("fibbers.notice", str(note_id)).hexdigest()[:20]


def notices_named(user: User, keys: Iterable[str]) -> list[int]:
    """The player's unread notices that are not about a table, of those ``keys`` name."""
    wanted = set(keys)
    unread = Notification.objects.filter(user=user, game_id=None, read_at__isnull=True)
    return [pk for pk in unread.values_list("pk", flat=True) if notice_key(pk) in wanted]


def mark_read(user: User, ids: list[int] | None = None) -> int:
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=ids)
    return rows.update(read_at=timezone.now())


def mark_read_for_game(user: User, game_id: int) -> int:
    return Notification.objects.filter(user=user, game_id=game_id, read_at__isnull=True).update(
        read_at=timezone.now()
    )


# --- presence: "has the table open" -------------------------------------------------------
# A table page sends a heartbeat every HEARTBEAT_SECONDS; the player counts as present until
# PRESENCE_SECONDS after the last one. A closed socket does not clear it (a reload closes one
# and opens another), and several tabs share the one key.


def _presence_key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def mark_present(game_id: int, user_id: int) -> bool:
    """True when the player just arrived (was not present): the table then tells the others."""
    mark_online(user_id)
    key = _presence_key(game_id, user_id)
    try:
        if cache.add(key, True, PRESENCE_SECONDS):
            return True
        cache.set(key, True, PRESENCE_SECONDS)
    except REDIS_UNAVAILABLE:  # presence is a nicety: the table still opens
        log.warning("presence not recorded: the cache is unavailable")
    return False


def is_present(game_id: int, user_id: int) -> bool:
    try:
        return bool(cache.get(_presence_key(game_id, user_id)))
    except REDIS_UNAVAILABLE:  # nobody counts as present
        return False


def present_users(game_id: int, user_ids: list[int]) -> set[int]:
    """Which of these players are at the table now (one cache round trip)."""
    try:
        found = cache.get_many([_presence_key(game_id, uid) for uid in user_ids])
    except REDIS_UNAVAILABLE:  # the page opens, showing nobody present
        return set()
    return {uid for uid in user_ids if found.get(_presence_key(game_id, uid))}


def mark_online(user_id: int) -> None:
    """Any open page's socket beats for its player: the friends page shows them online."""
    with contextlib.suppress(*REDIS_UNAVAILABLE):  # nobody is shown online
        cache.set(online_key(user_id), True, PRESENCE_SECONDS)


# --- the email decision --------------------------------------------------------------------


def notice_stands(note: Notification) -> bool:
    """Whether a notice still says something true, for a delayed email or push: unread, and if
    it is about a wait, that wait is the game's current one and still owes this player."""
    return bool(notices_standing([note]))


def notices_standing(notes: list[Notification]) -> list[Notification]:
    """The notices of ``notes`` that still stand (see ``notice_stands``), in their order; the
    waits of all of them looked up together."""
    unread = [n for n in notes if n.read_at is None]  # the others were seen in the app
    waits = {
        (n.game_id, n.wait_seq, n.user_id)
        for n in unread
        if n.game_id is not None and n.wait_seq is not None
    }
    current = _waits_current(waits) if waits else set()
    return [
        n
        for n in unread
        if n.game_id is None or n.wait_seq is None or (n.game_id, n.wait_seq, n.user_id) in current
    ]


def email_wanted(user: User, kind: str) -> bool:
    """Whether the player still takes the email of a notice of ``kind``: an address, an account
    in use, not unsubscribed, and reminders by email if it is one. Asked at each send, the
    digest's too (a one-click unsubscribe since the notice was queued stops it)."""
    if not user.email or not user.is_active or user.email_preference == EmailPreference.NONE:
        return False
    return kind != Notification.Kind.REMINDER or user.email_reminders


def email_in_time(deadline: Any, leaves_at: datetime) -> bool:
    """Whether an email leaving at ``leaves_at`` can still matter for a wait due at
    ``deadline`` (None: a wait without a deadline, or no wait)."""
    return deadline is None or deadline - leaves_at >= EMAIL_MIN_LEAD


def email_decision(note: Notification, deadline: Any = None) -> str:
    """What to do with a pending email now: "send", "digest" or "skip". ``deadline``: when
    the wait the notice is about is due (None for none)."""
    user = note.user
    if not email_wanted(user, note.kind):
        return "skip"
    if not notice_stands(note):
        return "skip"  # seen in the app already, or the wait it was about is over
    if not email_in_time(deadline, timezone.now()):
        return "skip"  # it would arrive once the wait is (nearly) over: the notice says it
    if user.email_preference == EmailPreference.DIGEST:
        return "digest"
    if note.game_id is not None:
        if is_present(note.game_id, user.pk):
            return "skip"  # the table is open in front of them
        if note.kind in UNGAPPED_KINDS:
            return "send"
        recent = Notification.objects.filter(
            user=user,
            game_id=note.game_id,
            email=Notification.Email.SENT,
            emailed_at__gte=timezone.now() - EMAIL_GAP,
        )
        if recent.exclude(pk=note.pk).exists():
            return "skip"
    return "send"


def unsubscribe_token(user: User) -> str:
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT)


def user_for_unsubscribe(token: str) -> User | None:
    try:
        user_id = signing.loads(token, salt=UNSUBSCRIBE_SALT, max_age=timedelta(days=60))
    except signing.BadSignature:
        return None
    # a closed account gets no email: an old email's link has nothing left to stop
    return User.objects.filter(pk=user_id, closed_at__isnull=True).first()


def _queue_push(notification_ids: list[int]) -> None:
    """After PUSH_DELAY: a notice read in the meantime is not pushed (accounts.push). A push is
    worth only seconds, so it is a task of its own rather than a sweep's catch. In a request,
    once its answer is sent, after the table's ping (config/after_response.py)."""
    after_response(lambda: _queue_push_now(notification_ids))


def _queue_push_now(notification_ids: list[int]) -> None:
    # By name (routed to the email queue by the settings): the tasks import this module, so
    # this module does not import them.
    for notification_id in notification_ids:
        try:
            current_app.send_task(
                "accounts.tasks.send_notification_push",
                args=(notification_id,),
                countdown=settings.PUSH_DELAY,
            )
        except Exception:  # the broker being down costs a push, never a move
            log.warning("could not queue the push of notification %s", notification_id)


# A push still pending PUSH_LOST_AFTER after its PUSH_DELAY lost its task (queued while the
# broker was down, or dropped with a broker's data): the email sweep queues it again, at most
# once a PUSH_LOST_AFTER. Its task still decides at send time (an answered turn is not pushed).
# The oldest this many a sweep: those queued again within PUSH_LOST_AFTER are passed over, so a
# broker lost for long drains a batch a minute.
LOST_PUSH_BATCH = 500
# Older than this, a push whose task never ran is given up (a row left pending for good would
# be queued again every minute until the retention sweep).
LOST_PUSH_GIVE_UP = timedelta(days=1)


def requeue_lost_pushes(now: datetime) -> int:
    """Queues again the pushes whose task never ran; returns how many."""
    pending = Notification.objects.filter(push=Notification.Push.PENDING)
    pending.filter(created_at__lt=now - LOST_PUSH_GIVE_UP).update(push=Notification.Push.SKIPPED)
    lost_after = settings.PUSH_LOST_AFTER
    lost_before = now - timedelta(seconds=settings.PUSH_DELAY + lost_after)
    ids = pending.filter(created_at__lt=lost_before).order_by("created_at")
    again = [
        pk
        for pk in ids.values_list("pk", flat=True)[:LOST_PUSH_BATCH]
        if cache.add(f"push-requeued:{pk}", True, max(lost_after, 1))
    ]
    _queue_push_now(again)
    if again:
        log.info("queued %s pushes again: their task was lost", len(again))
    return len(again)
