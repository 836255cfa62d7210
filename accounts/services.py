"""The only code that writes accounts data: friendships, requests, blocks, tokens, bans."""

from __future__ import annotations

from django.db import transaction

from accounts.models import Friendship, User


def _ordered(a: User, b: User) -> tuple[User, User]:
    return (a, b) if a.pk < b.pk else (b, a)


@transaction.atomic
def friendship_create(a: User, b: User) -> Friendship:
    low, high = _ordered(a, b)
    friendship, _ = Friendship.objects.get_or_create(user_low=low, user_high=high)
    return friendship
