"""The language menu's entries, each language by its own name (accounts.languages)."""

from __future__ import annotations

from django import template

from accounts.languages import own_names

register = template.Library()


@register.simple_tag
def own_language_names() -> list[tuple[str, str]]:
    return own_names()
