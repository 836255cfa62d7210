"""Table talk: post, read, mute, report and (staff) hide messages.

Players talk in the players' channel; spectators read it, or — if the table says so — talk in
their own channel, which players do not see (so spectators cannot coach a player). Messages
follow the same character rules as names, are at most 500 characters, and are rate-limited
per author in the shared cache. Nothing here touches the game: talk is not part of its state.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Exists, Max, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import ModerationLog, User
from accounts.templatetags.calendar_dates import moment_in_sentence
from config.inputs import has_bidi_controls, has_control_characters, shows_something
from games import broadcast, selectors
from games.errors import GameError, GameNotFound, NotAllowed
from games.models import RECLAIMABLE, ChatMessage, ChatMute, ChatRead, Game, Report, Seat

MAX_CHARS = 500
# (messages, seconds): a burst and a sustained limit per author
LIMITS = ((5, 10), (60, 3600))
# Two lines written at once in one channel both read the same last number: the one that
# loses the race on the unique number takes the next (a table's talk is a few people).
NUMBERING_ATTEMPTS = 10


def _visible_game(user: User, game_id: int) -> Game:
    game = selectors.visible_game(game_id, user)
    if game is None:
        raise GameNotFound()
    return game


def channel_for(game: Game, user: User) -> str | None:
    """The channel ``user`` writes in, or None if they may only read."""
    if selectors.playing_seat(game, user) is not None:
        return ChatMessage.Channel.PLAYERS
    return ChatMessage.Channel.SPECTATORS if game.spectator_chat == "own" else None


def readable_channel(game: Game, user: User) -> str:
    if selectors.playing_seat(game, user) is None and game.spectator_chat == "own":
        return ChatMessage.Channel.SPECTATORS
    return ChatMessage.Channel.PLAYERS


def _readers(game: Game, channel: str) -> bool | None:
    """Whose sockets hear of a line of ``channel`` (``broadcast.notify_chat``): the seated
    players only (True), the spectators only (False), or both (None), as ``readable_channel``
    decides who reads what."""
    if game.spectator_chat != Game.SpectatorChat.OWN:
        return None  # one channel, the players', read by all
    return channel == ChatMessage.Channel.PLAYERS


def _check_rate(user: User) -> None:
    for count, seconds in LIMITS:
        key = f"chat:{user.pk}:{seconds}"
        cache.add(key, 0, seconds)
        if cache.incr(key) > count:
            raise GameError(_("You are writing too fast. Wait a moment."), "chat_rate")


def post(user: User, game_id: int, text: Any) -> ChatMessage:
    game = _visible_game(user, game_id)
    channel = channel_for(game, user)
    if channel is None:
        raise NotAllowed(_("Spectators read the players' talk at this table; they do not write."))
    if user.talk_suspended:
        raise NotAllowed(suspended_talk(user), "talk_suspended")
    text = str(text or "").strip()
    if not shows_something(text):  # empty, or only invisible characters
        raise GameError(_("Write something first."), "chat_empty")
    if len(text) > MAX_CHARS:
        raise GameError(
            ngettext(
                "Keep a message under %(max)d character.",
                "Keep a message under %(max)d characters.",
                MAX_CHARS,
            )
            % {"max": MAX_CHARS},
            "chat_long",
        )
    if has_control_characters(text.replace("\n", " ")) or has_bidi_controls(text):
        raise GameError(
            _("A message may not contain control or direction characters."), "chat_chars"
        )
    _check_rate(user)
    message = _numbered_line(game, user, channel, text)
    readers = _readers(game, channel)
    transaction.on_commit(lambda: broadcast.notify_chat(game.pk, readers))
    return message


def _numbered_line(game: Game, user: User, channel: str, text: str) -> ChatMessage:
    """The line, numbered after the last of its table's channel (``ChatMessage.seq``): no lock
    on the game, so a line never waits for a move, nor a move for a line."""
    lines = ChatMessage.objects.filter(game=game, channel=channel)
    for attempt in range(NUMBERING_ATTEMPTS):
        try:
            with transaction.atomic():
                last = lines.aggregate(last=Max("seq"))["last"] or 0
                return ChatMessage.objects.create(
                    game=game, author=user, channel=channel, text=text, seq=last + 1
                )
        except IntegrityError:
            if attempt == NUMBERING_ATTEMPTS - 1:
                raise
    raise AssertionError("unreachable")


def suspended_talk(user: User) -> str:
    """What a player whose talk a moderator suspended reads (in their time zone)."""
    assert user.talk_suspended_until is not None
    return _("A moderator suspended your table talk until %(until)s.") % {
        "until": moment_in_sentence(user.talk_suspended_until)
    }


def _readable(game: Game, user: User) -> QuerySet[ChatMessage]:
    """The lines ``user`` may read here: their channel's, not hidden, no muted author's."""
    muted = ChatMute.objects.filter(user=user).values("muted")
    return ChatMessage.objects.filter(
        game=game, channel=readable_channel(game, user), hidden_at=None
    ).exclude(author__in=muted)


def messages_for(game: Game, user: User, limit: int = 50) -> list[ChatMessage]:
    """The newest messages ``user`` may read here, oldest first, without muted authors."""
    rows = _readable(game, user).select_related("author").order_by("-id")[:limit]
    return list(reversed(rows))


def newer_than(game: Game, user: User, line: int) -> bool:
    """Whether ``user`` may read a line here numbered after ``line`` (the newest their page
    shows): a line posted while their socket was not yet, or no longer, in the table's group
    was announced to nobody on that page."""
    return _readable(game, user).filter(seq__gt=line).exists()


def mark_read(game: Game, user: User) -> None:
    """One statement (an upsert reading the newest message): the table page reads often."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {ChatRead._meta.db_table} (user_id, game_id, last_read_id) "
            f"SELECT %s, %s, COALESCE(MAX(id), 0) FROM {ChatMessage._meta.db_table} "
            "WHERE game_id = %s "
            "ON CONFLICT (user_id, game_id) DO UPDATE SET last_read_id = EXCLUDED.last_read_id",
            [user.pk, game.pk, game.pk],
        )


def unread_counts(user: User, games: list[Game]) -> dict[int, int]:
    """Unread messages per game (in the channel ``user`` reads there, others' messages, not
    muted, not hidden), in one query whatever the number of games. A player who left a table
    whose spectators talk among themselves reads their talk: the players' lines counted on
    their My games told them when, and how much, the players talked."""
    if not games:
        return {}
    read = ChatRead.objects.filter(user=user, game=OuterRef("game")).values("last_read_id")
    plays = Exists(  # selectors.playing_seat, in the query
        Seat.objects.filter(game=OuterRef("game"), user=user).filter(
            Q(is_bot=False) | Q(bot_reason__in=RECLAIMABLE)
        )
    )
    own = Q(game__spectator_chat=Game.SpectatorChat.OWN)
    players, spectators = ChatMessage.Channel.PLAYERS, ChatMessage.Channel.SPECTATORS
    rows = (
        ChatMessage.objects.filter(game__in=games, hidden_at=None)
        .filter((Q(channel=players) & (~own | plays)) | (Q(channel=spectators) & own & ~plays))
        .exclude(author=user)
        .exclude(author__in=ChatMute.objects.filter(user=user).values("muted"))
        .filter(id__gt=Coalesce(Subquery(read[:1]), 0))
        .values("game")
        .annotate(n=Count("id"))
    )
    return {row["game"]: row["n"] for row in rows}


def mute(user: User, other: User, muted: bool = True) -> None:
    if other.pk == user.pk:
        raise GameError(_("You cannot mute yourself."), "self")
    if muted:
        ChatMute.objects.get_or_create(user=user, muted=other)
    else:
        ChatMute.objects.filter(user=user, muted=other).delete()


@transaction.atomic
def report(user: User, game_id: int, line: int) -> Report:
    """A message goes into the moderators' reports, quoted, as abuse. ``line``: its number at
    the table (``ChatMessage.seq``) in the channel ``user`` reads, as their page shows it."""
    # reports on one table one at a time, as games.services.moderation.report_create takes
    # them: a double click made two open reports of one player by another
    Game.objects.select_for_update(no_key=True).filter(pk=game_id).first()
    game = _visible_game(user, game_id)
    message = (
        ChatMessage.objects.select_related("author")
        .filter(game=game, channel=readable_channel(game, user), seq=line, hidden_at=None)
        .exclude(seq=0)  # a line a restart's old process wrote has no number of its own
        .first()
    )
    if message is None or message.author_id == user.pk:
        raise GameNotFound()
    if Report.objects.filter(
        reporter=user, reported=message.author, game=game, status=Report.Status.OPEN
    ).exists():
        raise GameError(
            _("You have already reported %(name)s at this table; the moderators will look at it.")
            % {"name": message.author.name},
            "duplicate",
        )
    return Report.objects.create(
        reporter=user,
        reported=message.author,
        game=game,
        reason=Report.Reason.ABUSE,
        text=_("Table talk, message #%(id)s: %(text)s") % {"id": message.pk, "text": message.text},
    )


def hide(actor: User, message: ChatMessage, reason: str) -> None:
    """Staff hide a message from everyone; the moderation log keeps why."""
    _set_hidden(actor, message, True, (reason or "").strip() or "hidden")


def unhide(actor: User, message: ChatMessage, reason: str) -> None:
    """A line hidden by mistake shows again; the log keeps why."""
    _set_hidden(actor, message, False, (reason or "").strip())


@transaction.atomic
def _set_hidden(actor: User, message: ChatMessage, hidden: bool, reason: str) -> None:
    rows = ChatMessage.objects.filter(pk=message.pk, hidden_at__isnull=hidden)
    changed = (
        rows.update(hidden_at=timezone.now(), hidden_by=actor)
        if hidden
        else rows.update(hidden_at=None, hidden_by=None)
    )
    if not changed:  # a second click, or another moderator first: nothing done, nothing logged
        if hidden:
            raise GameError(_("This message was already hidden."), "already_hidden")
        raise GameError(_("This message is not hidden."), "not_hidden")
    ModerationLog.objects.create(
        actor=actor,
        action=ModerationLog.Action.CHAT_HIDE if hidden else ModerationLog.Action.CHAT_UNHIDE,
        target_user=message.author,
        game_id=message.game_id,
        reason=reason,
    )
    readers = _readers(Game.objects.get(pk=message.game_id), message.channel)
    transaction.on_commit(lambda: broadcast.notify_chat(message.game_id, readers))
