"""The moderators' role: a group with what moderation needs and nothing a superuser keeps for
itself (deleting players, editing permissions, emails or passwords, the site's settings).

``manage.py moderator NAME`` puts a player in it (and makes them staff); the demo seed makes
its ``mod`` one. The admin's limits for staff who are not superusers (accounts/admin.py,
games/admin.py) then apply, which the demo's superuser never showed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import Group, Permission
from django.db.models import Q

GROUP = "Moderators"
# app label -> codenames. "change" is what the admin's actions check (ban, abort, hide, ...):
# the pages themselves stay read-only. Not games.view_event: every hidden card of every table
# (behind the game page's reveal step, logged) and who has answered a secret window (the
# notices' email states) are for staff a superuser trusts with them, one by one.
PERMISSIONS = {
    "accounts": (
        "view_user",
        "change_user",
        "view_moderationlog",
        "view_notification",
        "view_friendrequest",
        "view_friendship",
        "view_block",
    ),
    "games": (
        "view_game",
        "change_game",
        "view_seat",
        "change_seat",
        "view_invitation",
        "view_report",
        "change_report",
        "view_chatmessage",
        "change_chatmessage",
    ),
}


def moderators_group() -> Group:
    """The group, made or brought up to date (safe to call again)."""
    group, _created = Group.objects.get_or_create(name=GROUP)
    wanted = Q()
    for app_label, codenames in PERMISSIONS.items():
        wanted |= Q(content_type__app_label=app_label, codename__in=codenames)
    permissions = list(Permission.objects.filter(wanted))
    missing = {c for cs in PERMISSIONS.values() for c in cs} - {p.codename for p in permissions}
    if missing:  # a renamed model: fail loudly rather than hand out a lesser role
        raise LookupError(f"unknown permissions: {', '.join(sorted(missing))}")
    group.permissions.set(permissions)
    return group


def make_moderator(user: Any) -> None:
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(moderators_group())


def unmake_moderator(user: Any) -> None:
    user.groups.remove(moderators_group())
    if not user.is_superuser and not user.groups.exists():
        user.is_staff = False
        user.save(update_fields=["is_staff"])
