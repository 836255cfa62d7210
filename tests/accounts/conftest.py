"""Helpers for accounts tests: a snapshot of every friendship table, to prove nothing changed."""

from __future__ import annotations

import re

import pytest

from accounts.models import ApiToken, Block, FriendRequest, Friendship, ModerationLog, User


def accounts_state() -> dict[str, list]:
    return {
        "requests": sorted(
            FriendRequest.objects.values_list(
                "id", "from_user_id", "to_user_id", "status", "silenced", "answered_at"
            )
        ),
        "friendships": sorted(Friendship.objects.values_list("user_low_id", "user_high_id")),
        "blocks": sorted(Block.objects.values_list("blocker_id", "blocked_id")),
        "tokens": sorted(ApiToken.objects.values_list("id", "revoked_at")),
        "moderation": sorted(ModerationLog.objects.values_list("id", flat=True)),
        "users": sorted(
            User.objects.values_list("id", "is_active", "banned_at", "display_name", "language")
        ),
    }


@pytest.fixture
def state():
    return accounts_state


def link_in(body: str, path_part: str) -> str:
    """The first absolute link in an email body whose path contains ``path_part``."""
    match = re.search(r"https?://[^/\s]+(\S*" + re.escape(path_part) + r"\S*)", body)
    assert match, f"no link containing {path_part!r} in:\n{body}"
    return match.group(1)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []
