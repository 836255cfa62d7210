"""Which language a signed-in player is answered in: one rule for pages, the API and sockets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils import translation


def reader_language(cookies: Mapping[str, str], user: Any) -> str:
    """The language cookie (a choice made on this device), else the player's own language;
    "" when neither names a language the site speaks (the request's own negotiation, or the
    site's default, decides then)."""
    chosen = cookies.get(settings.LANGUAGE_COOKIE_NAME) or getattr(user, "language", "")
    try:
        return translation.get_supported_language_variant(chosen) if chosen else ""
    except LookupError:
        return ""


def own_names() -> list[tuple[str, str]]:
    """Each language by its own name, capitalised alike ("Čeština", "Français", "فارسی"): a
    reader looks for their own language's name, not its name in the language on screen."""
    return [(code, OWN_NAMES.get(code, code)) for code, _name in settings.LANGUAGES]


OWN_NAMES = {
    "en": "English",
    "fa": "فارسی",
    "cs": "Čeština",
    "pt": "Português",
    "fr": "Français",
}
