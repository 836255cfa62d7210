"""Read-only queries about users and their friends."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from accounts.models import Block, Friendship, User


def friends_of(user: User) -> QuerySet[User]:
    low = Friendship.objects.filter(user_high=user).values("user_low")
    high = Friendship.objects.filter(user_low=user).values("user_high")
    return User.objects.filter(Q(pk__in=low) | Q(pk__in=high)).order_by("username")


def are_friends(a: User, b: User) -> bool:
    if a.pk == b.pk:
        return False
    low, high = (a, b) if a.pk < b.pk else (b, a)
    return Friendship.objects.filter(user_low=low, user_high=high).exists()


def has_blocked(blocker: User, blocked: User) -> bool:
    """True when ``blocker`` blocked ``blocked``: the blocked one may not request or invite."""
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()
