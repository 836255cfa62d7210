"""A notice keeps the language it was written in; the page says so where it is not its own."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, get_language_info

register = template.Library()


@register.simple_tag
def written_in(note: object) -> SafeString | str:
    """` lang=".." dir=".."` for a notice written in another language than the page's."""
    language = getattr(note, "language", "")
    if not language or language == get_language():
        return ""
    try:
        rtl = get_language_info(language)["bidi"]
    except KeyError:
        return ""
    return format_html(' lang="{}" dir="{}"', language, "rtl" if rtl else "ltr")
