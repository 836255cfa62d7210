"""Users, their profile and preferences, API tokens, friendships, blocks and moderation."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.cache import cache
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Greatest, Least, Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.name_keys import name_key
from config.bidi import isolated

# The avatar palette: white initials pass WCAG AA (4.5:1) on every one of these.
AVATAR_COLOUR_CHOICES = [
    ("#c0392b", _("Red")),
    ("#b34700", _("Pumpkin")),
    ("#7d6608", _("Mustard")),
    ("#1e8449", _("Green")),
    ("#117a65", _("Teal")),
    ("#1f6fa8", _("Blue")),
    ("#8e44ad", _("Purple")),
    ("#2c3e50", _("Midnight")),
]
AVATAR_COLOURS = [value for value, _label in AVATAR_COLOUR_CHOICES]

# A player counts as "online" when a request of theirs was seen this recently.
ONLINE_WINDOW = timedelta(minutes=5)


def online_key(user_id: int) -> str:
    return f"online:{user_id}"


class EmailPreference(models.TextChoices):
    EACH = "each", _("Email me when it is my turn")
    DIGEST = "digest", _("One daily digest instead of single emails")
    NONE = "none", _("No email")


def default_push_kinds() -> list[str]:
    """Every kind of notice may push until the player turns some off (push needs a device
    they subscribed first, so nobody gets a push they did not ask for)."""
    return [kind.value for kind in Notification.Kind]


class User(AbstractUser):
    """The site's user; profile fields live here so every page gets them with one query."""

    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    avatar_colour = models.CharField(
        _("avatar colour"), max_length=7, choices=AVATAR_COLOUR_CHOICES, default="#1f6fa8"
    )
    language = models.CharField(
        _("preferred language"), max_length=8, blank=True, choices=settings.LANGUAGES
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    email_preference = models.CharField(
        _("game emails"),
        max_length=8,
        choices=EmailPreference.choices,
        default=EmailPreference.EACH,
    )
    email_reminders = models.BooleanField(_("remind me before a deadline"), default=True)
    # Web push: the kinds of notice that push to the player's subscribed devices, and how
    # many devices they have (kept by accounts.push, so a notice needs no query to know).
    push_kinds = models.JSONField(_("push notifications for"), default=default_push_kinds)
    push_devices = models.PositiveSmallIntegerField(_("push devices"), default=0)
    banned_at = models.DateTimeField(_("banned at"), null=True, blank=True)
    closed_at = models.DateTimeField(
        _("closed at"), null=True, blank=True, help_text=_("The player closed their account.")
    )
    ban_reason = models.TextField(_("ban reason"), blank=True)
    # A moderator's lighter sanction than a ban: the player plays on, without table talk.
    talk_suspended_until = models.DateTimeField(
        _("table talk suspended until"), null=True, blank=True
    )
    # accounts.name_keys.name_key of the shown name: "Аӏісе" may not join while "Alice" plays
    # (a database default too: the processes of the release before insert players without it;
    # text: NFKC and the table's pairs make a 150-letter username's key longer)
    name_key = models.TextField(
        _("name's look-alike key"), blank=True, db_default="", editable=False
    )
    last_seen_at = models.DateTimeField(_("last seen"), null=True, blank=True)
    # Vacation: while away, turn deadlines wait for the player's return (14 days a year).
    away_until = models.DateTimeField(_("away until"), null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(default=0)
    vacation_days_used = models.PositiveSmallIntegerField(default=0)

    class Meta(AbstractUser.Meta):  # type: ignore[name-defined]  # django-stubs declare no Meta
        indexes = [
            # a new name is checked against the active players' (accounts.selectors.name_taken)
            models.Index(fields=["name_key"], condition=Q(is_active=True), name="user_name_key")
        ]
        constraints = [
            # The form says so first; this holds under races and for every other writer.
            models.UniqueConstraint(
                Lower("display_name"),
                condition=Q(is_active=True) & ~Q(display_name=""),
                name="display_name_unique_among_active",
            ),
            models.CheckConstraint(
                condition=~Q(
                    display_name__regex=r"[\x00-\x1f\x7f\u200e\u200f\u202a-\u202e\u2066-\u2069]"
                ),
                name="display_name_no_control_or_bidi",
            ),
        ]

    def save(self, *args: Any, **kwargs: Any) -> None:
        # the shown name's look-alike key follows the name through every save that writes it
        self.name_key = name_key(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and {"display_name", "username"} & set(fields):
            kwargs["update_fields"] = {*fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def name(self) -> str:
        return self.display_name or self.username

    @property
    def initials(self) -> str:
        parts = self.name.split()
        letters = "".join(p[0] for p in parts[:2]) if len(parts) > 1 else self.name[:2]
        return letters.upper()

    @property
    def talk_suspended(self) -> bool:
        until = self.talk_suspended_until
        return until is not None and until > timezone.now()

    @property
    def is_banned(self) -> bool:
        return self.banned_at is not None

    @property
    def is_online(self) -> bool:
        """A socket of theirs beat lately (any open page: accounts.notifications.mark_online),
        or a request of theirs was seen within ONLINE_WINDOW."""
        if cache.get(online_key(self.pk)):
            return True
        return self.last_seen_at is not None and timezone.now() - self.last_seen_at < ONLINE_WINDOW


class ApiToken(models.Model):
    """A personal API token. Only its SHA-256 is stored; the token is shown once, at creation."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("user"),
    )
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(_("prefix"), max_length=8)
    digest = models.CharField(_("SHA-256 digest"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def hash(token: str) -> str:
        return hashlib.sha256(token.encode()).hexdigest()

    @staticmethod
    def generate() -> str:
        return "fib_" + secrets.token_urlsafe(32)


class FriendRequest(models.Model):
    """A request from one player to another; at most one pending request per pair of players.

    ``silenced`` marks a request sent by a player whom the recipient has blocked. The sender
    sees it as an ordinary pending request (so the block stays secret); the recipient never
    sees it, cannot act on it, and nothing may notify them about it. Unblocking cancels it.
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")
        CANCELLED = "cancelled", _("cancelled")

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sent_friend_requests",
        verbose_name=_("from"),
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="received_friend_requests",
        verbose_name=_("to"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    silenced = models.BooleanField(
        _("silenced"),
        default=False,
        help_text=_("Sent while the recipient had blocked the sender: never shown to them."),
    )
    # a database default too (as every NOT NULL column added to a table in use): the
    # processes of a release before it insert rows without it during a rolling restart
    by_email = models.BooleanField(
        _("sent to an email address"),
        default=False,
        db_default=False,
        help_text=_(
            "The sender typed an address: their list does not show whose it is until the "
            "request is answered."
        ),
    )
    created_at = models.DateTimeField(_("sent"), default=timezone.now)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [
            # One pending request per unordered pair: A→B and B→A can't both be pending.
            models.UniqueConstraint(
                Least("from_user", "to_user"),
                Greatest("from_user", "to_user"),
                condition=Q(status="pending"),
                name="one_pending_request_per_pair",
            ),
            models.CheckConstraint(condition=~Q(from_user=F("to_user")), name="no_request_to_self"),
        ]
        indexes = [
            models.Index(fields=["to_user", "status"]),
            models.Index(fields=["from_user", "status"]),
        ]

    def __str__(self) -> str:
        # the admin's page titles: in the moderator's language, as its lists say the status
        return f"{self.from_user} → {self.to_user} ({self.get_status_display()})"


class Friendship(models.Model):
    """One row per pair, stored with user_low.id < user_high.id so a pair can't appear twice."""

    user_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    user_high = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("friend"),
    )
    created_at = models.DateTimeField(_("since"), default=timezone.now)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(
                fields=["user_low", "user_high"], name="one_friendship_per_pair"
            ),
            models.CheckConstraint(
                condition=Q(user_low__lt=F("user_high")), name="friendship_ordered_pair"
            ),
        ]
        indexes = [models.Index(fields=["user_high"])]

    def __str__(self) -> str:
        return f"{self.user_low} ↔ {self.user_high}"


class Block(models.Model):
    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks_made",
        verbose_name=_("blocker"),
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="blocks_received",
        verbose_name=_("blocked player"),
    )
    created_at = models.DateTimeField(_("since"), default=timezone.now)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="one_block_per_pair"),
            models.CheckConstraint(condition=~Q(blocker=F("blocked")), name="no_block_of_self"),
        ]
        indexes = [models.Index(fields=["blocked"])]

    def __str__(self) -> str:
        # set apart in Persian (config.bidi): "alice، bob را مسدود کرده است" read "bob، alice"
        return _("%(blocker)s blocks %(blocked)s") % {
            "blocker": isolated(str(self.blocker)),
            "blocked": isolated(str(self.blocked)),
        }


class ModerationLog(models.Model):
    """Every moderation action, by whom, on whom or what, and why. Append-only."""

    class Action(models.TextChoices):
        # written by accounts.services, games.services.moderation and chat, and the game admin
        BAN = "ban", _("ban")
        UNBAN = "unban", _("unban")
        GAME_ABORT = "game_abort", _("game aborted")
        SEAT_TO_BOT = "seat_to_bot", _("seat handed to the bot")
        FORCE_DEADLINE = "force_deadline", _("deadline forced")
        BANNED_SEAT_TO_BOT = "banned_seat_to_bot", _("a banned player's seat to the bot")
        REPORT_RESOLVED = "report_resolved", _("report resolved")
        REPORT_DISMISSED = "report_dismissed", _("report dismissed")
        CHAT_HIDE = "chat_hide", _("message hidden")
        CHAT_UNHIDE = "chat_unhide", _("message shown again")
        REPORT_REOPENED = "report_reopened", _("report reopened")
        REVEAL_HIDDEN = "reveal_hidden", _("hidden cards read")
        USER_EDITED = "user_edited", _("player's details edited")
        TALK_SUSPENDED = "talk_suspended", _("table talk suspended")
        TALK_RESTORED = "talk_restored", _("table talk restored")

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("moderator"),
    )
    action = models.CharField(_("action"), max_length=40, choices=Action.choices)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="moderation_entries",
        verbose_name=_("player"),
    )
    game_id = models.BigIntegerField(_("game"), null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    created_at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("moderation log entry")
        verbose_name_plural = _("moderation log entries")  # "11 moderation log" read oddly
        indexes = [models.Index(fields=["target_user", "created_at"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.get_action_display()}"


class Notification(models.Model):
    """An in-app notification; emails about it go out from Celery per the user's preferences."""

    class Kind(models.TextChoices):
        YOUR_TURN = "turn", _("your turn")
        WINDOW = "window", _("a reaction window needs you")
        INVITATION = "invitation", _("invitation")
        FRIEND_REQUEST = "friend_request", _("friend request")
        GAME_FINISHED = "finished", _("game finished")
        SEAT_TO_BOT = "seat_to_bot", _("seat handed to the bot")
        TIMEOUT = "timeout", _("your time ran out")
        TABLE = "table", _("an answer at your table")
        REMINDER = "reminder", _("reminder")
        NUDGE = "nudge", _("nudge")
        REPORT = "report", _("your report was reviewed")

    class Email(models.TextChoices):
        NONE = "", _("no email")
        PENDING = "pending", _("to send")
        SENDING = "sending", _("being sent")
        SENT = "sent", _("sent")
        SKIPPED = "skipped", _("skipped")
        DIGEST = "digest", _("in the daily digest")
        FAILED = "failed", _("could not be sent")

    class Push(models.TextChoices):
        NONE = "", _("no push")
        PENDING = "pending", _("to send")
        SENT = "sent", _("sent")
        SKIPPED = "skipped", _("skipped")

    # no index of its own: notification_unread (user, read_at) serves every lookup by player
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
        verbose_name=_("player"),
    )
    # the admin names its columns in the moderator's language (they read "Created at")
    kind = models.CharField(_("kind"), max_length=20, choices=Kind.choices)
    game_id = models.BigIntegerField(_("game"), null=True, blank=True)
    # The game's wait (Game.wait_seq) a turn notice belongs to: its email is skipped once the
    # wait has moved on.
    wait_seq = models.PositiveIntegerField(_("wait"), null=True, blank=True)
    text = models.CharField(_("message"), max_length=300)
    # The language ``text`` was written in (the player's at the time): the page marks a notice
    # whose language is not the page's, so that a screen reader reads it in the right voice.
    # a database default too: the processes of a release before it wrote notices without it
    language = models.CharField(_("Language"), max_length=10, blank=True, default="", db_default="")
    url = models.CharField(_("link"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("when"), default=timezone.now)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)
    email = models.CharField(
        _("email"), max_length=10, choices=Email.choices, default=Email.NONE, blank=True
    )
    emailed_at = models.DateTimeField(_("emailed at"), null=True, blank=True)
    # The email queue (accounts.email_queue): tries so far, and when the row may be taken
    # again (a failed try's back-off, or the lease of the worker sending it).
    email_attempts = models.PositiveSmallIntegerField(_("email attempts"), default=0)
    email_retry_at = models.DateTimeField(_("next email attempt"), null=True, blank=True)
    # Web push: pending until the push task has decided (sent or skipped), like the email.
    push = models.CharField(
        _("push"), max_length=10, choices=Push.choices, default=Push.NONE, blank=True
    )

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        indexes = [
            models.Index(fields=["user", "read_at"], name="notification_unread"),
            models.Index(fields=["user", "game_id", "emailed_at"], name="notification_game_email"),
            models.Index(fields=["email", "created_at"], name="notification_email_queue"),
            # the retention sweep (accounts.tasks.prune_notifications) deletes the oldest
            models.Index(fields=["created_at"], name="notification_created"),
            # the email sweep's look for pushes whose task was lost (requeue_lost_pushes)
            models.Index(
                fields=["created_at"],
                name="notification_push_pending",
                condition=Q(push="pending"),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.get_kind_display()} {self.created_at:%Y-%m-%d %H:%M}"


class PushSubscription(models.Model):
    """One browser's web push subscription (RFC 8030/8291): where to POST and the keys to
    encrypt for. Removed when the push service says it is gone (404/410)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=100)
    auth = models.CharField(_("auth secret"), max_length=40)
    label = models.CharField(_("device"), max_length=60, blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    last_success_at = models.DateTimeField(_("last delivered"), null=True, blank=True)
    failures = models.PositiveSmallIntegerField(_("failures in a row"), default=0)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        indexes = [models.Index(fields=["user", "created_at"], name="push_subscription_user")]

    def __str__(self) -> str:
        return f"{self.user} {self.label or self.endpoint[:40]}"
