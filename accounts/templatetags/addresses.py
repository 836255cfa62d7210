"""An email address as a page shows it to whoever holds a link (an unsubscribe link travels
with forwarded mail): enough to recognise one's own, not to learn someone else's."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def masked_email(address: str) -> str:
    """ "dave.smith@example.com" → "d•••@example.com"."""
    local, at, domain = (address or "").partition("@")
    if not at:
        return "•••"
    return f"{local[:1]}•••@{domain}"
