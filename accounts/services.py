"""The only code that writes accounts data: profiles, tokens, friendships, requests, blocks, bans.

Every function runs in one transaction. Bad input raises an ``AccountsError`` subclass carrying
a stable ``code`` and a translated ``message`` *before* anything is written, so a failed call
changes nothing. Views turn the error into a message for the player.

Blocking is silent: a player whom the recipient has blocked may still "send" a friend request.
It is stored with ``silenced=True``: the sender sees an ordinary pending request (and gets the
ordinary "request sent" message, duplicate check included), while the blocker never sees it,
cannot be notified about it, and it is cancelled when they unblock. Storing nothing would leak
the block, because the request would be missing from the sender's outgoing list.
"""

from __future__ import annotations

import contextlib
import enum
import zoneinfo
from datetime import timedelta

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import (
    ApiToken,
    Block,
    EmailPreference,
    FriendRequest,
    Friendship,
    ModerationLog,
    Notification,
    PushSubscription,
    User,
)
from accounts.notifications import notify, written_in

MAX_ACTIVE_TOKENS = 10
LAST_SEEN_RESOLUTION = timedelta(minutes=1)
TOKEN_USE_RESOLUTION = timedelta(minutes=1)
# A request sent again this soon after the recipient declined the last one is listed for them
# but rings no bell: a decline must not be answered by a notice a day. The sender is told
# "sent" either way (a decline is never announced).
QUIET_AFTER_DECLINE = timedelta(days=30)
QUIET_AFTER_CANCEL = timedelta(days=1)
# a soft limit, counted then written without a lock (requests sent at once may pass it)
FRIEND_REQUESTS_PER_HOUR = 30


class AccountsError(Exception):
    """A refused request: ``code`` is stable (tests, API), ``message`` is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class FriendError(AccountsError):
    pass


class TokenError(AccountsError):
    pass


class ModerationError(AccountsError):
    pass


class ModerationAction:
    BAN = "ban"
    UNBAN = "unban"


class RequestOutcome(enum.Enum):
    SENT = "sent"
    BECAME_FRIENDS = "became_friends"


# --- Profile ------------------------------------------------------------------------------

PROFILE_FIELDS = (
    "display_name",
    "avatar_colour",
    "language",
    "time_zone",
    "email_preference",
    "email_reminders",
)


@transaction.atomic
def profile_update(user: User, **changes: object) -> User:
    unknown = set(changes) - set(PROFILE_FIELDS)
    if unknown:
        raise ValueError(f"not profile fields: {sorted(unknown)}")
    if "time_zone" in changes and changes["time_zone"] not in zoneinfo.available_timezones():
        raise AccountsError("bad_time_zone", _("Choose a time zone from the list."))
    for field, value in changes.items():
        setattr(user, field, value)
    try:
        user.full_clean(exclude=[f.name for f in User._meta.fields if f.name not in changes])
    except ValidationError:
        user.refresh_from_db(fields=list(changes))  # leave the caller's object as it was
        raise
    try:
        with transaction.atomic():
            user.save(update_fields=list(changes))
    except IntegrityError as error:
        # Another player saved the same name between the check and this save (it waited for
        # theirs): the database's constraint refused it, as the check would have.
        if "display_name_unique_among_active" not in str(error):
            raise
        user.refresh_from_db(fields=list(changes))
        taken = _("Another player already goes by that name, or one that looks the same.")
        raise ValidationError({"display_name": ValidationError(taken, code="taken")}) from None
    return user


def user_touch_last_seen(user: User) -> None:
    """Records that the player is around; at most one write a minute per player."""
    now = timezone.now()
    if user.last_seen_at is not None and now - user.last_seen_at < LAST_SEEN_RESOLUTION:
        return
    User.objects.filter(pk=user.pk).update(last_seen_at=now)
    user.last_seen_at = now


# --- API tokens ---------------------------------------------------------------------------


@transaction.atomic
def api_token_create(user: User, name: str) -> tuple[ApiToken, str]:
    """Returns the token row and the raw token, which exists nowhere else: show it once."""
    name = name.strip()
    if not name:
        raise TokenError("name_required", _("Give the token a name."))
    User.objects.select_for_update().filter(pk=user.pk).first()
    if ApiToken.objects.filter(user=user, revoked_at__isnull=True).count() >= MAX_ACTIVE_TOKENS:
        raise TokenError(
            "too_many_tokens",
            ngettext(
                "You already have %(count)d active token; revoke it first.",
                "You already have %(count)d active tokens; revoke one first.",
                MAX_ACTIVE_TOKENS,
            )
            % {"count": MAX_ACTIVE_TOKENS},
        )
    raw = ApiToken.generate()
    token = ApiToken.objects.create(user=user, name=name, prefix=raw[:8], digest=ApiToken.hash(raw))
    return token, raw


@transaction.atomic
def api_token_revoke(user: User, token: ApiToken) -> ApiToken:
    token = ApiToken.objects.select_for_update().get(pk=token.pk)
    if token.user_id != user.pk:
        raise TokenError("not_yours", _("That token is not yours."))
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    return token


def api_token_touch(token: ApiToken) -> None:
    """Notes that a token was used; at most one write a minute per token."""
    now = timezone.now()
    if token.last_used_at is not None and now - token.last_used_at < TOKEN_USE_RESOLUTION:
        return
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    token.last_used_at = now


# --- Friends ------------------------------------------------------------------------------


def _ordered(a: User, b: User) -> tuple[User, User]:
    return (a, b) if a.pk < b.pk else (b, a)


def _lock_pair(a: User, b: User) -> None:
    """Serialises every friendship change between two players (rows locked in id order).
    FOR NO KEY UPDATE, as every other lock of a player's row: a change at a table (a closing,
    a ban, a move) commits rows that name the player, which checks the row (FOR KEY SHARE);
    FOR UPDATE made that check wait here while this waited for the other player's row, held
    by the closing (a deadlock: the closing or the friendship change lost)."""
    list(User.objects.select_for_update(no_key=True).filter(pk__in=[a.pk, b.pk]).order_by("pk"))


def _pending_between(a: User, b: User) -> QuerySet[FriendRequest]:
    return FriendRequest.objects.filter(
        Q(from_user=a, to_user=b) | Q(from_user=b, to_user=a),
        status=FriendRequest.Status.PENDING,
    )


def _friends(a: User, b: User) -> bool:
    low, high = _ordered(a, b)
    return Friendship.objects.filter(user_low=low, user_high=high).exists()


def _blocked(blocker: User, blocked: User) -> bool:
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def _request_url(request: FriendRequest) -> str:
    """Where its notice leads: the request on the friends page (and how the notice is found
    again once the request is settled)."""
    return f"{reverse('friends')}#request-{request.pk}"


def _tell_accepted(request: FriendRequest) -> None:
    """The one who asked hears the yes (it was only seen on the friends page before)."""
    asked_by, friend = request.from_user, request.to_user
    with translation.override(written_in(asked_by)):
        text = _("%(name)s accepted your friend request.") % {"name": friend.name}
    notify(asked_by, Notification.Kind.FRIEND_REQUEST, text, reverse("friends"))


def _answer(request: FriendRequest, status: str) -> None:
    request.status = status
    request.answered_at = timezone.now()
    request.save(update_fields=["status", "answered_at"])
    # accepted, declined, cancelled or ended by a block: its notice has nothing left to say
    _request_notices(request).filter(read_at__isnull=True).update(read_at=request.answered_at)


def _request_notices(request: FriendRequest) -> QuerySet[Notification]:
    return Notification.objects.filter(
        user_id=request.to_user_id,
        kind=Notification.Kind.FRIEND_REQUEST,
        url=_request_url(request),
    )


@transaction.atomic
def friendship_create(a: User, b: User) -> Friendship:
    """Makes two players friends (demo data, accepted requests); pending requests are settled."""
    if a.pk == b.pk:
        raise FriendError("self", _("You cannot befriend yourself."))
    _lock_pair(a, b)
    low, high = _ordered(a, b)
    friendship, _created = Friendship.objects.get_or_create(user_low=low, user_high=high)
    for request in _pending_between(a, b).select_for_update():
        _answer(request, FriendRequest.Status.ACCEPTED)
    return friendship


def _check_hourly_requests(sender: User) -> None:
    """Refuses a request past FRIEND_REQUESTS_PER_HOUR. Requests sent to an address are not
    counted (their lookups have their own limit): one that reached an account used up a
    request where a made-up address did not, so "too many" next said the address had one."""
    since = timezone.now() - timedelta(hours=1)
    sent = FriendRequest.objects.filter(from_user=sender, created_at__gte=since, by_email=False)
    if sent.count() >= FRIEND_REQUESTS_PER_HOUR:
        raise FriendError(
            "too_many",
            _("You have sent many friend requests in the last hour. Try again later."),
        )


@transaction.atomic
def friend_request_send(
    sender: User, recipient: User, *, by_email: bool = False
) -> tuple[RequestOutcome, FriendRequest]:
    """Sends a request, or accepts the recipient's pending request to the sender (mutual).
    ``by_email``: the sender typed an address, and must not learn from it whose it is."""
    if sender.pk == recipient.pk:
        raise FriendError("self", _("You cannot send a friend request to yourself."))
    if not recipient.is_active:
        raise FriendError("unknown_user", _("There is no player with that username or email."))
    _lock_pair(sender, recipient)
    if _blocked(sender, recipient):
        raise FriendError(
            "you_blocked",
            _("You have blocked %(name)s. Unblock them first.") % {"name": recipient.name},
        )
    if _friends(sender, recipient):
        raise FriendError(
            "already_friends", _("You and %(name)s are already friends.") % {"name": recipient.name}
        )
    pending = _pending_between(sender, recipient).select_for_update().first()
    if pending is not None and pending.from_user_id == sender.pk and pending.by_email:
        if by_email:
            raise FriendError("duplicate", "")  # the caller says the same thing either way
        # held to the limit as a fresh request is: at the limit, "sent" named the owner
        _check_hourly_requests(sender)
        # asked by name now: the request shows as sent, just as a fresh one would (its age
        # too: an older one would say the name matched the address)
        pending.by_email = False
        pending.created_at = timezone.now()
        pending.save(update_fields=["by_email", "created_at"])
        return RequestOutcome.SENT, pending
    if pending is not None and pending.from_user_id == sender.pk:
        raise FriendError(
            "duplicate",
            _("You have already sent %(name)s a friend request.") % {"name": recipient.name},
        )
    if pending is not None and by_email:
        # they asked first, but an address is no answer: accepting would show whose it is
        raise FriendError("asked_first", "")  # the caller says the same thing either way
    if pending is not None:
        # They asked first: asking back means yes.
        _answer(pending, FriendRequest.Status.ACCEPTED)
        low, high = _ordered(sender, recipient)
        Friendship.objects.create(user_low=low, user_high=high)
        _tell_accepted(pending)
        return RequestOutcome.BECAME_FRIENDS, pending
    _check_hourly_requests(sender)
    request = FriendRequest.objects.create(
        from_user=sender, to_user=recipient, silenced=_blocked(recipient, sender), by_email=by_email
    )
    # a blocker never hears of the blocked; a recent decline or cancel hears of no re-request
    if not request.silenced and not _answered_lately(sender, recipient):
        with translation.override(written_in(recipient)):
            text = _("%(name)s sent you a friend request.") % {"name": sender.name}
        notify(recipient, Notification.Kind.FRIEND_REQUEST, text, _request_url(request))
    return RequestOutcome.SENT, request


def _answered_lately(sender: User, recipient: User) -> bool:
    """A decline keeps re-requests quiet for a month; the sender's own cancel for a day: a
    request sent and cancelled again and again notified its recipient each time."""
    now = timezone.now()
    return FriendRequest.objects.filter(
        Q(status=FriendRequest.Status.DECLINED, answered_at__gte=now - QUIET_AFTER_DECLINE)
        | Q(status=FriendRequest.Status.CANCELLED, answered_at__gte=now - QUIET_AFTER_CANCEL),
        from_user=sender,
        to_user=recipient,
    ).exists()


def _locked_pending(request: FriendRequest) -> FriendRequest:
    request = FriendRequest.objects.select_for_update().get(pk=request.pk)
    if request.status != FriendRequest.Status.PENDING:
        raise FriendError("not_pending", _("That friend request has already been answered."))
    return request


@transaction.atomic
def friend_request_accept(user: User, request: FriendRequest) -> Friendship:
    if request.to_user_id != user.pk or request.silenced:
        raise FriendError("not_yours", _("That friend request is not addressed to you."))
    sender = request.from_user
    _lock_pair(user, sender)
    request = _locked_pending(request)
    if not sender.is_active:
        raise FriendError("unavailable", _("That player is no longer available."))
    if _blocked(user, sender):
        raise FriendError(
            "you_blocked",
            _("You have blocked %(name)s. Unblock them first.") % {"name": sender.name},
        )
    _answer(request, FriendRequest.Status.ACCEPTED)
    low, high = _ordered(user, sender)
    friendship, _created = Friendship.objects.get_or_create(user_low=low, user_high=high)
    _tell_accepted(request)
    return friendship


@transaction.atomic
def friend_request_decline(user: User, request: FriendRequest) -> FriendRequest:
    if request.to_user_id != user.pk or request.silenced:
        raise FriendError("not_yours", _("That friend request is not addressed to you."))
    request = _locked_pending(request)
    _answer(request, FriendRequest.Status.DECLINED)
    return request


@transaction.atomic
def friend_request_cancel(user: User, request: FriendRequest) -> FriendRequest:
    if request.from_user_id != user.pk:
        raise FriendError("not_yours", _("You did not send that friend request."))
    request = _locked_pending(request)
    _answer(request, FriendRequest.Status.CANCELLED)
    # taken back: for its recipient it never was (the notice led to a request gone)
    _request_notices(request).delete()
    return request


@transaction.atomic
def friendship_remove(user: User, other: User) -> None:
    _lock_pair(user, other)
    low, high = _ordered(user, other)
    deleted, _detail = Friendship.objects.filter(user_low=low, user_high=high).delete()
    if not deleted:
        raise FriendError(
            "not_friends", _("You and %(name)s are not friends.") % {"name": other.name}
        )


@transaction.atomic
def user_block(user: User, other: User) -> Block:
    """Blocks ``other``: ends the friendship and every pending request between the two."""
    if user.pk == other.pk:
        raise FriendError("self", _("You cannot block yourself."))
    _lock_pair(user, other)
    if _blocked(user, other):
        raise FriendError(
            "already_blocked", _("You have already blocked %(name)s.") % {"name": other.name}
        )
    block = Block.objects.create(blocker=user, blocked=other)
    low, high = _ordered(user, other)
    Friendship.objects.filter(user_low=low, user_high=high).delete()
    for request in _pending_between(user, other).select_for_update():
        mine = request.from_user_id == user.pk
        _answer(request, FriendRequest.Status.CANCELLED if mine else FriendRequest.Status.DECLINED)
    return block


@transaction.atomic
def user_unblock(user: User, other: User) -> None:
    """Lifts a block. Requests ``other`` sent while blocked are cancelled, never delivered late."""
    _lock_pair(user, other)
    deleted, _detail = Block.objects.filter(blocker=user, blocked=other).delete()
    if not deleted:
        raise FriendError("not_blocked", _("You have not blocked %(name)s.") % {"name": other.name})
    for request in FriendRequest.objects.select_for_update().filter(
        from_user=other, to_user=user, status=FriendRequest.Status.PENDING, silenced=True
    ):
        _answer(request, FriendRequest.Status.CANCELLED)


# --- Moderation ---------------------------------------------------------------------------


def _may_moderate(actor: User, user: User) -> None:
    if (user.is_staff or user.is_superuser) and not actor.is_superuser:
        # or one moderator could lock every other one, and the admins, out (or back in)
        raise ModerationError("staff", _("Only a superuser can ban staff."))
    if user.closed_at is not None:
        # an unban would open a closed account again; a ban of one changes nothing
        raise ModerationError(
            "closed", _("%(name)s closed their account.") % {"name": user.username}
        )


@transaction.atomic
def user_ban(actor: User, user: User, reason: str) -> User:
    """Deactivates a player (they are signed out and their API tokens stop working)."""
    reason = reason.strip()
    if not reason:
        raise ModerationError("reason_required", _("Give a reason for the ban."))
    if actor.pk == user.pk:
        raise ModerationError("self", _("You cannot ban yourself."))
    # FOR NO KEY UPDATE: the admin hands the player's seats to the bot in the same transaction,
    # waiting for each table; a move there, holding it, still writes its event (which names
    # the player) instead of waiting for this row (a deadlock: the ban or the move cancelled)
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    _may_moderate(actor, user)
    if user.banned_at is not None:
        raise ModerationError(
            "already_banned", _("%(name)s is already banned.") % {"name": user.username}
        )
    user.is_active = False
    user.banned_at = timezone.now()
    user.ban_reason = reason
    user.save(update_fields=["is_active", "banned_at", "ban_reason"])
    ModerationLog.objects.create(
        actor=actor, action=ModerationAction.BAN, target_user=user, reason=reason
    )
    return user


@transaction.atomic
def talk_suspend(actor: User, user: User, days: int, reason: str) -> User:
    """The player keeps playing but writes no table talk for ``days`` days (a lighter
    sanction than a ban: hiding lines one by one was the only other tool)."""
    reason = reason.strip()
    if not reason:
        raise ModerationError(
            "reason_required", _("Give a reason: it goes into the moderation log.")
        )
    if actor.pk == user.pk:
        raise ModerationError("self", _("You cannot suspend yourself."))
    user = User.objects.select_for_update().get(pk=user.pk)
    _may_moderate(actor, user)
    user.talk_suspended_until = timezone.now() + timedelta(days=days)
    user.save(update_fields=["talk_suspended_until"])
    ModerationLog.objects.create(
        actor=actor,
        action=ModerationLog.Action.TALK_SUSPENDED,
        target_user=user,
        # in the moderator's language, as the rest of what they read in the log
        reason=ngettext("%(days)d day: %(reason)s", "%(days)d days: %(reason)s", days)
        % {"days": days, "reason": reason},
    )
    return user


@transaction.atomic
def talk_restore(actor: User, user: User, reason: str) -> User:
    user = User.objects.select_for_update().get(pk=user.pk)
    _may_moderate(actor, user)
    if not user.talk_suspended:
        raise ModerationError(
            "not_suspended", _("%(name)s may talk at the tables.") % {"name": user.username}
        )
    user.talk_suspended_until = None
    user.save(update_fields=["talk_suspended_until"])
    ModerationLog.objects.create(
        actor=actor, action=ModerationLog.Action.TALK_RESTORED, target_user=user, reason=reason
    )
    return user


@transaction.atomic
def account_close(user: User) -> User:
    """The player closes their own account (their tables are left first: see
    games.services.departure). They can no longer sign in; their friendships, requests,
    tokens, devices, two-factor authenticators and notices are deleted, and their email
    address is freed; their name stays on the records of games played."""
    # FOR NO KEY UPDATE, as the departure took it first (one strength, never raised: see
    # games.services.departure.player_departed): the tables' changes that name the player
    # (a notice, a record) check his row when they commit, holding his notices; FOR UPDATE
    # made that check wait for this closing while it waited to delete those notices (a
    # deadlock). Nothing here changes a key (id, username).
    user = User.objects.select_for_update(no_key=True).get(pk=user.pk)
    if user.closed_at is not None:
        return user
    Friendship.objects.filter(Q(user_low=user) | Q(user_high=user)).delete()
    pending = FriendRequest.objects.filter(
        Q(from_user=user) | Q(to_user=user), status=FriendRequest.Status.PENDING
    )
    for request in pending.select_for_update():
        _answer(request, FriendRequest.Status.CANCELLED)  # their notices read with them
    # then deleted, as the close page says, with the answered ones
    FriendRequest.objects.filter(Q(from_user=user) | Q(to_user=user)).delete()
    for token in ApiToken.objects.filter(user=user, revoked_at__isnull=True):
        # one by one, not a bulk update: a revoked token's save drops its cache entry and
        # closes the sockets it opened (games.broadcast.token_saved)
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
    ApiToken.objects.filter(user=user).delete()  # then deleted, as the close page says
    PushSubscription.objects.filter(user=user).delete()
    # two-factor sign-in: its secret and recovery codes are credentials, as the tokens are
    Authenticator.objects.filter(user=user).delete()
    Notification.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()
    user.email = ""
    user.email_preference = EmailPreference.NONE
    user.is_active = False
    user.closed_at = timezone.now()
    user.set_unusable_password()
    user.save()
    return user


@transaction.atomic
def user_unban(actor: User, user: User, reason: str = "") -> User:
    user = User.objects.select_for_update().get(pk=user.pk)
    _may_moderate(actor, user)
    if user.banned_at is None:
        raise ModerationError("not_banned", _("%(name)s is not banned.") % {"name": user.username})
    user.is_active = True
    user.banned_at = None
    user.ban_reason = ""
    user.save(update_fields=["is_active", "banned_at", "ban_reason"])
    ModerationLog.objects.create(
        actor=actor, action=ModerationAction.UNBAN, target_user=user, reason=reason.strip()
    )
    return user


EMAIL_LOOKUPS_PER_HOUR = 10


def friend_request_by_email(user: User, address: str) -> bool:
    """Sends a friend request to whoever signed up with ``address``, if anyone did. The answer
    is the same either way (True: done, False: too many lookups this hour), so the friends
    page cannot be used to probe which addresses have an account."""
    key = f"email-lookups:{user.pk}"
    cache.add(key, 0, 3600)
    if cache.incr(key) > EMAIL_LOOKUPS_PER_HOUR:
        return False
    other = User.objects.filter(is_active=True, email__iexact=address.strip()).first()
    if other is None or other.pk == user.pk:
        return True
    # already friends, already asked, blocked...: nothing is told about a stranger's address
    with contextlib.suppress(FriendError):
        friend_request_send(user, other, by_email=True)
    return True
