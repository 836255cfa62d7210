"""Read-only queries about users and their friends."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Window
from django.db.models.functions import RowNumber

from accounts.models import ApiToken, Block, FriendRequest, Friendship, Notification, User
from accounts.name_keys import name_key
from accounts.notifications import notice_key


def friends_of(user: User) -> QuerySet[User]:
    low = Friendship.objects.filter(user_high=user).values("user_low")
    high = Friendship.objects.filter(user_low=user).values("user_high")
    # a banned player stays a friend (an unban brings them back) but is not listed meanwhile:
    # nobody can invite them, and their last "online" would show for ever
    return User.objects.filter(Q(pk__in=low) | Q(pk__in=high), is_active=True).order_by("username")


def are_friends(a: User, b: User) -> bool:
    if a.pk == b.pk:
        return False
    low, high = (a, b) if a.pk < b.pk else (b, a)
    return Friendship.objects.filter(user_low=low, user_high=high).exists()


def has_blocked(blocker: User, blocked: User) -> bool:
    """True when ``blocker`` blocked ``blocked``: the blocked one may not request or invite."""
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def blocks_between(user: Any, other: Any) -> QuerySet[Block]:
    """The blocks either way between ``user`` and ``other`` (a user, an id or an OuterRef)."""
    return Block.objects.filter(Q(blocker=user, blocked=other) | Q(blocker=other, blocked=user))


def blocks_with_any(user: Any, others: Any) -> QuerySet[Block]:
    """The blocks either way between ``user`` and any of ``others`` (ids, or a subquery of
    ids such as the players seated at a table)."""
    return Block.objects.filter(
        Q(blocker=user, blocked_id__in=others) | Q(blocked=user, blocker_id__in=others)
    )


def any_block_between(user: User, others: list[int]) -> bool:
    """True when ``user`` blocked, or was blocked by, any of the players ``others`` (ids)."""
    return blocks_with_any(user, others).exists()


def name_taken(name: str, user: User | None) -> bool:
    """Whether another active player shows ``name``, in any case, or a name with its
    look-alike key (``accounts.name_keys.name_key``; their display name, or their username
    when they have none): two "Alice"s at one table is an impersonation, in whatever letters.
    The key reads a capital I beside small letters as an l, so "IAN" and "Ian" differ there:
    the case-insensitive match keeps them one name, as the database's constraint does."""
    others = User.objects.filter(
        Q(name_key=name_key(name))
        | Q(display_name__iexact=name)
        | Q(display_name="", username__iexact=name),
        is_active=True,
    )
    return (others.exclude(pk=user.pk) if user is not None else others).exists()


def find_player(query: str) -> User | None:
    """An active player by exact username (case-insensitive)."""
    query = query.strip()
    if not query:
        return None
    active = User.objects.filter(is_active=True)
    exact = active.filter(username=query).first()
    return exact or active.filter(username__iexact=query).order_by("pk").first()


def incoming_requests(user: User) -> QuerySet[FriendRequest]:
    """Pending requests the player may answer (never the silenced ones: see FriendRequest)."""
    return (
        FriendRequest.objects.filter(
            to_user=user,
            status=FriendRequest.Status.PENDING,
            silenced=False,
            from_user__is_active=True,
        )
        .select_related("from_user")
        .order_by("-created_at")
    )


def outgoing_requests(user: User) -> QuerySet[FriendRequest]:
    """Pending requests the player sent, silenced ones included so a block stays secret; not
    those sent to an email address (listing them would say whose address it is)."""
    return (
        FriendRequest.objects.filter(
            from_user=user, status=FriendRequest.Status.PENDING, by_email=False
        )
        .select_related("to_user")
        .order_by("-created_at")
    )


def blocked_by(user: User) -> QuerySet[User]:
    """The players ``user`` has blocked."""
    return User.objects.filter(blocks_received__blocker=user).order_by("username")


def relationship(viewer: User, other: User) -> str:
    """How ``viewer`` relates to ``other`` as the viewer may know it.

    One of "self", "blocked" (viewer blocked other), "friends", "outgoing", "incoming", "none".
    Whether ``other`` blocked the viewer is deliberately not part of the answer.
    """
    if viewer.pk == other.pk:
        return "self"
    if has_blocked(viewer, other):
        return "blocked"
    if are_friends(viewer, other):
        return "friends"
    if outgoing_requests(viewer).filter(to_user=other).exists():
        return "outgoing"
    if incoming_requests(viewer).filter(from_user=other).exists():
        return "incoming"
    return "none"


def active_tokens(user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by("-created_at")


NOTICES_PAGE = 25  # rows: a table's notices are one row, a notice without a table one
# A table's earlier notices folded under its row; the rest are counted, and the table's own
# page (table_notices) has them all. Fifty each made the page of a player at 50 tables
# ~100 KB, most of it folded away on a phone (phone review).
EARLIER_SHOWN = 3
TABLE_NOTICES_PAGE = 50  # one table's notices on its own page


@dataclass
class NoticeGroup:
    """One table's notices, newest first (a friend request stands alone): a player back after
    days reads one row per table instead of every turn it had since. ``earlier``: the newest
    EARLIER_SHOWN of the others; ``earlier_count`` and ``earlier_unread`` count them all."""

    newest: Notification
    earlier: list[Notification] = field(default_factory=list)
    earlier_count: int = 0
    earlier_unread: bool = False

    @property
    def unread(self) -> bool:
        return self.newest.read_at is None or self.earlier_unread

    @property
    def key(self) -> str:
        """What the page's "Mark read" posts for a notice about no table (notice_key)."""
        return notice_key(self.newest.pk)

    @property
    def earlier_left_out(self) -> bool:
        """Some earlier notices are only on the table's own page (``table_notices``)."""
        return self.earlier_count > len(self.earlier)


def notice_rows(user: User) -> QuerySet[Notification]:
    """The newest notice of each table and every notice without one, newest first: what the
    notifications page pages through, so that a table is one row on one page however many
    notices it has (paged by notice, a long table began again as a row of the next page)."""
    newer_of_its_table = Notification.objects.filter(
        user=OuterRef("user"), game_id=OuterRef("game_id")
    ).filter(
        Q(created_at__gt=OuterRef("created_at"))
        | Q(created_at=OuterRef("created_at"), pk__gt=OuterRef("pk"))
    )
    return (
        Notification.objects.filter(user=user)
        .filter(Q(game_id__isnull=True) | ~Exists(newer_of_its_table))
        .order_by("-created_at", "-pk")
    )


def notice_groups(user: User, rows: Iterable[Notification]) -> list[NoticeGroup]:
    """A page of ``notice_rows`` with each table's earlier notices under its row."""
    rows = list(rows)
    games = {row.game_id for row in rows if row.game_id is not None}
    earlier: dict[int, list[Notification]] = {}
    counted: dict[int, tuple[int, bool]] = {}
    if games:
        # Each table's newest few, numbered per table in one statement, and the counts of all:
        # a player at 50 tables read every notice they ever had there (thousands) to show 50 each.
        older = Notification.objects.filter(user=user, game_id__in=games).exclude(
            pk__in=[row.pk for row in rows]
        )
        newest_first = [F("created_at").desc(), F("pk").desc()]
        shown = older.annotate(
            place=Window(RowNumber(), partition_by=[F("game_id")], order_by=newest_first)
        ).filter(place__lte=EARLIER_SHOWN)
        for note in shown.order_by(*newest_first):
            assert note.game_id is not None  # game_id__in
            earlier.setdefault(note.game_id, []).append(note)
        totals = older.values("game_id").annotate(
            count=Count("pk"), unread=Count("pk", filter=Q(read_at__isnull=True))
        )
        counted = {t["game_id"]: (t["count"], t["unread"] > 0) for t in totals}
    groups = []
    for row in rows:
        count, unread = counted.get(row.game_id, (0, False)) if row.game_id else (0, False)
        notes = earlier.get(row.game_id, []) if row.game_id is not None else []
        groups.append(NoticeGroup(row, notes, count, unread))
    return groups


def table_notices(user: User, game_id: int) -> QuerySet[Notification]:
    """Every notice ``user`` had about one table, newest first: the table's own page, where a
    row of the notifications page folds only its newest few."""
    return Notification.objects.filter(user=user, game_id=game_id).order_by("-created_at", "-pk")
