"""Tables, seats, the append-only event log and invitations.

The engine's state lives in one JSON column; everything a page filters or sorts on is a real
column (status, deadline_at, version). Only games.services writes these rows.
"""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.fields import JSONField


class Pace(models.TextChoices):
    LIVE = "live", _("Live: 60 seconds a move")
    FAST = "fast", _("Fast: 1 hour a move")
    DAILY = "daily", _("Daily: 24 hours a move")
    RELAXED = "relaxed", _("Relaxed: 3 days a move")
    CUSTOM = "custom", _("Custom")


# (seconds per move, seconds per reaction window) for each preset.
PACE_SECONDS: dict[str, tuple[int, int]] = {
    Pace.LIVE: (60, 15),
    Pace.FAST: (3600, 120),
    Pace.DAILY: (86400, 3600),
    Pace.RELAXED: (3 * 86400, 4 * 3600),
}


class Game(models.Model):
    class Status(models.TextChoices):
        LOBBY = "lobby", _("waiting for players")
        ACTIVE = "active", _("in play")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    class JoinPolicy(models.TextChoices):
        INVITED = "invited", _("Invited friends only")
        FRIENDS = "friends", _("Any of my friends")
        FRIENDS_OF_FRIENDS = "fof", _("My friends and their friends")
        ANYONE = "anyone", _("Anyone signed in")

    class SpectatorChat(models.TextChoices):
        READ = "read", _("Spectators read the players' talk")
        OWN = "own", _("Spectators talk among themselves")

    engine = models.CharField(_("game"), max_length=40)
    rules_version = models.PositiveIntegerField(_("rules version"), default=1)
    options = JSONField(_("options"), default=dict, blank=True)
    seats_count = models.PositiveSmallIntegerField(_("seats"))
    pace = models.CharField(_("pace"), max_length=10, choices=Pace.choices, default=Pace.DAILY)
    move_seconds = models.PositiveIntegerField(_("seconds per move"))
    window_seconds = models.PositiveIntegerField(_("seconds for a reaction window"))
    join_policy = models.CharField(
        _("who may join"), max_length=10, choices=JoinPolicy.choices, default=JoinPolicy.INVITED
    )
    allow_spectators = models.BooleanField(_("spectators may watch"), default=True)
    # The table starts by itself when its last seat is taken (not at Live pace, which waits for
    # everyone to say they are ready): a daily table's creator need not come back to start it.
    # a database default too: the processes of a release before it create tables without it
    start_when_full = models.BooleanField(
        _("start when every seat is taken"), default=False, db_default=False
    )
    # Table talk for spectators: they read the players' talk, or talk in a channel of their own.
    spectator_chat = models.CharField(
        _("spectators' talk"),
        max_length=10,
        choices=SpectatorChat.choices,
        default=SpectatorChat.READ,
    )
    # "Learn to play": a Live table against bots with the rules beside the board.
    learning = models.BooleanField(default=False)
    # "Play again": the finished table this one replays. One rematch per table as a player
    # sees it; another is made for a player kept out of the first by a block (unknowing).
    rematch_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematches"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.LOBBY
    )
    # The seed is the deck: it never leaves the server before the game ends.
    seed = models.BigIntegerField(_("seed"))
    state = JSONField(null=True, blank=True)
    # ``version`` counts engine actions (the event log's seq, the API's concurrency token);
    # ``revision`` steps on every change a page must show (moves, start, join, abort, ...).
    version = models.PositiveIntegerField(_("version"), default=0)
    revision = models.PositiveIntegerField(default=0)
    # What each seat can observe (index = seat, the last entry = spectators): how many event
    # rows it may see, and how many changes it could see. An answer to a secret window
    # moves only the answerer's marks, so nobody else can tell it happened (see
    # games.services.change). ``version``/``revision`` above are the game's own totals.
    seat_versions = JSONField(default=list, blank=True)
    seat_revisions = JSONField(default=list, blank=True)
    # The current wait: what the game waits on, since when, until when. ``wait_seq`` numbers
    # the waits of a game; deadlines, notices, reminders and nudges belong to one wait.
    wait_seq = models.PositiveIntegerField(default=0)
    wait_kind = models.CharField(max_length=10, blank=True)  # "turn", "window", "bots" or ""
    wait_window = models.CharField(max_length=30, blank=True)
    wait_seat = models.SmallIntegerField(null=True, blank=True)  # the seat on turn
    wait_opened_at = models.DateTimeField(null=True, blank=True)
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    # The seats the current wait still waits on, one bit each (seat i: 1 << i), so My games
    # can list "your move" in SQL. Only ever compared with the viewer's own seat: who else
    # still owes a secret answer is not shown.
    wait_mask = models.PositiveIntegerField(default=0)
    # When the current wait's 80 % reminder is due (set with its deadline; cleared once sent):
    # the reminder sweep reads only the games due, through a partial index.
    remind_at = models.DateTimeField(null=True, blank=True)
    # The bots' next moment of their own (games/services/bot_time.py): when one of them may
    # answer a window or make an aside, as a change of its own, never inside another's.
    bots_at = models.DateTimeField(null=True, blank=True)
    # The sweeper's bookkeeping for a deadline that failed: retried with backoff, shown to staff.
    sweep_failures = models.PositiveSmallIntegerField(_("deadline failures"), default=0)
    sweep_after = models.DateTimeField(null=True, blank=True)
    # Live pace on demand: while set, waits run at the Live pace (PACE_SECONDS["live"]) instead
    # of the table's own; ``live_offer`` holds the seats that accepted an open proposal.
    live_since = models.DateTimeField(null=True, blank=True)
    live_offer = JSONField(null=True, blank=True)
    result = JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="games_created",
        verbose_name=_("created by"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("ended"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(
                fields=["deadline_at"], condition=Q(status="active"), name="game_active_deadline"
            ),
            models.Index(fields=["status", "-created_at"], name="game_status_created"),
            models.Index(
                fields=["remind_at"], condition=Q(remind_at__isnull=False), name="game_remind_due"
            ),
            models.Index(
                fields=["bots_at"], condition=Q(bots_at__isnull=False), name="game_bots_due"
            ),
        ]

    def __str__(self) -> str:
        # in the reader's language (the admin's confirmations); never the state
        return _("#%(id)s %(game)s (%(status)s)") % {
            "id": self.pk,
            "game": self.get_engine_name(),
            "status": self.get_status_display(),
        }

    def get_engine_name(self) -> str:
        """The game's name in the reader's language."""
        from games.catalog.registry import title  # the presentations import the models

        return str(title(self.engine))

    def deadline_passed(self, now: datetime) -> bool:
        """The current wait's deadline is at or before ``now`` (no deadline: never)."""
        return self.deadline_at is not None and self.deadline_at <= now

    @property
    def is_over(self) -> bool:
        return self.status in OVER_STATUSES

    def _mark(self, marks: list[int], seat: int | None, total: int) -> int:
        return seat_mark(marks, seat, total, self.is_over)

    def version_for(self, seat: int | None) -> int:
        """The version a seat (None: a spectator) sees and sends back with its moves."""
        return self._mark(self.seat_versions, seat, self.version)

    def revision_for(self, seat: int | None) -> int:
        return self._mark(self.seat_revisions, seat, self.revision)


def seat_mark(marks: list[int], seat: int | None, total: int, over: bool) -> int:
    """A seat's (None: a spectator's) entry of a game's per-seat marks (``seat_versions``,
    ``seat_revisions``), whose last entry is the spectators'; ``total`` once the game is over."""
    if over or not marks:
        return total  # everything is revealed at the end (and nothing was secret before)
    index = len(marks) - 1 if seat is None or not 0 <= seat < len(marks) - 1 else seat
    return marks[index]


RECLAIMABLE = ("timeouts", "absent")


def bot_plays_for_good(is_bot: bool, user_id: int | None, bot_reason: str) -> bool:
    """See ``Seat.bot_for_good``; from the seat's columns alone (a list read without rows)."""
    return is_bot and not (user_id is not None and bot_reason in RECLAIMABLE)


OVER_STATUSES = (Game.Status.FINISHED, Game.Status.ABORTED)
# A table still to be decided (gathering players, or in play): its secrets are kept from anyone
# seated there, staff too, and a moderator may still stop it.
OPEN_STATUSES = (Game.Status.LOBBY, Game.Status.ACTIVE)


class Seat(models.Model):
    # no index of its own: one_seat_per_index (game, index) serves every lookup by game
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="seats",
        db_index=False,
        verbose_name=_("game"),
    )
    index = models.PositiveSmallIntegerField(_("seat (from 0)"))
    # no index of its own: seat_user_game (user, game) serves every lookup by player
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="seats",
        db_index=False,
        verbose_name=_("player"),
    )
    is_bot = models.BooleanField(_("played by the bot"), default=False)
    # "filled", "timeouts", "absent" (may be taken back by the player), "admin", "banned",
    # "closed" (the account), "left" (the player quit the game)
    bot_reason = models.CharField(_("why the bot plays"), max_length=20, blank=True)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)
    consecutive_timeouts = models.PositiveSmallIntegerField(_("missed turns in a row"), default=0)
    # Once per wait: the wait a reminder / a nudge was last sent for (Game.wait_seq).
    reminded_for_wait = models.PositiveIntegerField(null=True, blank=True)
    nudged_for_wait = models.PositiveIntegerField(null=True, blank=True)
    # Live tables start when every seated human is ready (or the creator starts anyway).
    ready_at = models.DateTimeField(_("ready"), null=True, blank=True)

    class Meta:
        ordering = ["index"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="one_seat_per_index"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="one_seat_per_user"
            ),
        ]
        indexes = [models.Index(fields=["user", "game"], name="seat_user_game")]

    def __str__(self) -> str:
        # whose seat, for the admin's confirmations ("game 3 seat 0" named nobody)
        who = self.user.username if self.user is not None else _("bot")
        return _("game %(game)s seat %(seat)s (%(player)s)") % {
            "game": self.game_id,
            "seat": self.index,
            "player": who,
        }

    @property
    def reclaimable(self) -> bool:
        """The player may take the seat back: the bot took it for missed turns or absence."""
        return self.is_bot and self.user_id is not None and self.bot_reason in RECLAIMABLE

    @property
    def bot_for_good(self) -> bool:
        """The bot plays the seat to the end (its player left, closed the account, was banned
        or a moderator handed it over): its player, if any, only watches the table."""
        return bot_plays_for_good(self.is_bot, self.user_id, self.bot_reason)

    @property
    def name(self) -> str:
        return self.label(self.index, self.is_bot, self.user.name if self.user else None)

    @property
    def player_name(self) -> str:
        """The seat's name without "(bot)": the history's, for moves the player made before
        the bot took the seat (or after they took it back) as well as after."""
        return self.label(self.index, self.user is None, self.user.name if self.user else None)

    @staticmethod
    def label(index: int, is_bot: bool, player: str | None) -> str:
        """A seat's name from its index, whether the bot plays it and its player's name (lists
        that read only these columns use it without loading the players)."""
        # in the reader's language, when it is read (a notice is written in its reader's)
        if is_bot and player is None:
            return _("Bot %(n)d") % {"n": index + 1}
        name = player if player is not None else _("Seat %(n)d") % {"n": index + 1}
        return _("%(name)s (bot)") % {"name": name} if is_bot else name


class Event(models.Model):
    """One applied action and what the engine said happened. Append-only; seq = the version it made."""

    class Reason(models.TextChoices):
        MOVE = "move", _("move")
        BOT = "bot", _("bot")
        TIMEOUT = "timeout", _("timeout")
        ADMIN = "admin", _("admin")

    # no index of its own: one_event_per_seq (game, seq) serves every lookup by game
    game = models.ForeignKey(
        Game,
        on_delete=models.CASCADE,
        related_name="events",
        db_index=False,
        verbose_name=_("game"),
    )
    seq = models.PositiveIntegerField(_("sequence number"))
    # None: the system (a window's deadline)
    seat = models.SmallIntegerField(_("seat"), null=True, blank=True)
    action = JSONField(_("action"))
    events = JSONField(_("events"), default=list)
    reason = models.CharField(
        _("reason"), max_length=10, choices=Reason.choices, default=Reason.MOVE
    )
    key = models.CharField(max_length=64, blank=True)
    # The seats that may see this row while the game runs; None: everybody.
    audience = JSONField(null=True, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("made by"),
    )
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ["game", "seq"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_event_per_seq"),
            models.UniqueConstraint(
                fields=["game", "actor", "key"],
                condition=~Q(key=""),
                name="one_event_per_idempotency_key",
            ),
        ]

    def __str__(self) -> str:
        return _("game %(game)s #%(seq)s") % {"game": self.game_id, "seq": self.seq}


class Invitation(models.Model):
    # said after the invitee's name in a lobby ("Bob (accepted)"): what the invitee did
    class Status(models.TextChoices):
        PENDING = "pending", pgettext_lazy("invitation", "pending")
        ACCEPTED = "accepted", pgettext_lazy("invitation", "accepted")
        DECLINED = "declined", pgettext_lazy("invitation", "declined")
        CANCELLED = "cancelled", pgettext_lazy("invitation", "cancelled")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("game")
    )
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("from")
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="game_invitations",
        verbose_name=_("to"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    created_at = models.DateTimeField(_("sent"), default=timezone.now)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(fields=["game", "to_user"], name="one_invitation_per_user")
        ]
        indexes = [models.Index(fields=["to_user", "status"], name="invitation_inbox")]

    def __str__(self) -> str:
        return _("%(player)s to game %(game)s (%(status)s)") % {
            "player": self.to_user,
            "game": self.game_id,
            "status": self.get_status_display(),
        }


class Report(models.Model):
    """A player reports another from a table; staff resolve it in the admin."""

    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Abusive or offensive behaviour")
        STALLING = "stalling", _("Stalling the game on purpose")
        CHEATING = "cheating", _("Cheating outside the rules (collusion, multiple accounts)")
        OTHER = "other", _("Something else")

    class Status(models.TextChoices):
        OPEN = "open", _("open")
        RESOLVED = "resolved", _("resolved")
        DISMISSED = "dismissed", _("dismissed")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_made",
        verbose_name=_("reporter"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    game = models.ForeignKey(
        Game,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("game"),
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    text = models.TextField(_("what they wrote"), blank=True, max_length=2000)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    resolved_at = models.DateTimeField(_("closed"), null=True, blank=True)
    resolution = models.TextField(_("resolution note"), blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        indexes = [models.Index(fields=["status", "-created_at"], name="report_queue")]

    def __str__(self) -> str:
        return _("%(reporter)s reports %(reported)s (%(status)s)") % {
            "reporter": self.reporter,
            "reported": self.reported,
            "status": self.get_status_display(),
        }


class PlayerRecord(models.Model):
    """A player's rating and record at one game (slug), updated when a table of theirs ends.

    The rating is OpenSkill's Weng-Lin Plackett-Luce model: it rates multi-player results by
    placement (winners ahead of losers), which fits games where several players win together
    or one player loses alone; shown as the conservative ``ordinal`` (mu - 3 sigma).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="records"
    )
    engine = models.CharField(max_length=40)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    rated = models.PositiveIntegerField(default=0)
    played = models.PositiveIntegerField(default=0)  # finished tables the player sat at
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    abandoned = models.PositiveIntegerField(default=0)  # seat went to the bot for missed turns
    # Bluffing figures, counted only from finished games (the log is public then).
    bluffs = models.PositiveIntegerField(default=0)  # Cockroach Poker: false claims made
    calls_right = models.PositiveIntegerField(default=0)  # Cockroach Poker
    cheats_caught = models.PositiveIntegerField(default=0)  # Mogel Motte: own cheats caught
    cheats_uncaught = models.PositiveIntegerField(default=0)  # Mogel Motte
    lies_caught = models.PositiveIntegerField(default=0)  # Imperador: caught with a false hand

    class Meta:
        verbose_name = _("player record")
        verbose_name_plural = _("player records")
        constraints = [
            models.UniqueConstraint(fields=["user", "engine"], name="one_record_per_game")
        ]

    def __str__(self) -> str:
        from games.catalog.registry import title  # the presentations import the models

        return _("%(player)s at %(game)s") % {"player": self.user, "game": title(self.engine)}

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def reliability(self) -> float | None:
        """Finished tables against tables left to the bot; None before the first."""
        total = self.played + self.abandoned
        return None if total == 0 else self.played / total


class ChatMessage(models.Model):
    """Table talk: what a player (or, in their own channel, a spectator) wrote at a table.

    Written only by people: no automatic message exists, so none can carry hidden information.
    Staff may hide a message (it stays stored for the moderation log)."""

    class Channel(models.TextChoices):
        PLAYERS = "players", _("players")
        SPECTATORS = "spectators", _("spectators")

    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, related_name="chat", verbose_name=_("game")
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="chat_messages",
        verbose_name=_("author"),
    )
    channel = models.CharField(
        _("channel"), max_length=10, choices=Channel.choices, default=Channel.PLAYERS
    )
    # The line's number in its table's channel (1, 2, ...): the only number its readers see.
    # Its id counts every line of the site: the ids a player read told how much was said at
    # other tables, and their gaps how much the spectators said among themselves.
    # (0 only for a line written by a process of the release before it, during a restart)
    seq = models.PositiveIntegerField(_("number at its table"), default=0, db_default=0)
    text = models.CharField(_("message"), max_length=500)
    created_at = models.DateTimeField(_("when"), default=timezone.now)
    hidden_at = models.DateTimeField(_("hidden"), null=True, blank=True)
    hidden_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("hidden by"),
    )

    class Meta:
        ordering = ["game", "id"]
        verbose_name = _("table talk message")
        verbose_name_plural = _("table talk messages")
        indexes = [models.Index(fields=["game", "channel", "id"], name="chat_by_table")]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "channel", "seq"],
                condition=models.Q(seq__gt=0),
                name="one_chat_line_number",
            )
        ]

    def __str__(self) -> str:
        text = self.text if len(self.text) <= 40 else self.text[:40] + "…"
        return _("%(author)s at game %(game)s: %(text)s") % {
            "author": self.author,
            "game": self.game_id,
            "text": text,
        }


class ChatRead(models.Model):
    """How far a player has read a table's talk (for the unread counts)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    last_read_id = models.BigIntegerField(default=0)

    class Meta:
        verbose_name = _("table talk read mark")
        verbose_name_plural = _("table talk read marks")
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_chat_read")]

    def __str__(self) -> str:
        return _("player %(user)s read game %(game)s up to #%(message)s") % {
            "user": self.user_id,
            "game": self.game_id,
            "message": self.last_read_id,
        }


class ChatMute(models.Model):
    """A player who does not want to read another's table talk anywhere."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("table talk mute")
        verbose_name_plural = _("table talk mutes")
        constraints = [models.UniqueConstraint(fields=["user", "muted"], name="one_chat_mute")]

    def __str__(self) -> str:
        return _("player %(user)s mutes player %(muted)s") % {
            "user": self.user_id,
            "muted": self.muted_id,
        }


class PaceSwitch(models.Model):
    """A table's live-pace history: a proposal, its answers, and every switch to the Live pace
    and back. Not an engine Event (those are engine actions only and must keep replaying from
    the seed): these rows are shown in the table's history beside the engine's entries."""

    class Kind(models.TextChoices):
        PROPOSED = "proposed", _("proposed")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        LIVE = "live", _("live")
        FALLBACK = "fallback", _("fallback")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="pace_switches")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    seat = models.SmallIntegerField(null=True, blank=True)  # who did it; None: the table itself
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "created_at", "pk"]
        verbose_name = _("pace change")
        verbose_name_plural = _("pace changes")

    def __str__(self) -> str:
        return _("game %(game)s: %(kind)s") % {
            "game": self.game_id,
            "kind": self.get_kind_display(),
        }
