"""The base of the admin's mixins (config.admin_actions and .admin_lookups, games.admin_reveal,
games.admin's TalkCount): the type checker reads one as the ModelAdmin it is mixed into; at run
time it is a plain class."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from django.contrib.admin import ModelAdmin

    ModelAdminMixin = ModelAdmin[Any]
else:
    ModelAdminMixin = object
