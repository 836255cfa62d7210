"""What counts as acceptable text from a client, shared by the HTTP guard, forms and the socket.

PostgreSQL refuses NUL in text columns (the write then fails as a 500), and other control
characters in names or keys end up in emails and logs. Tab, newline and carriage return are
ordinary in free text and stay allowed.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from django.utils.translation import gettext_noop

ALLOWED_CONTROLS = frozenset("\t\n\r")
# Bidi embeddings, overrides and isolates: they reorder what is shown around them (a name that
# reads backwards in an email subject). Refused where a text names someone.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
MAX_JSON_DEPTH = 32


class BadInput(ValueError):
    """Client input refused before any code uses it; ``code`` is stable for API answers."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        # ``message`` is English and marked for the catalogues (gettext_noop): the answer
        # translates it for its reader, then fills in ``params``
        super().__init__(message % params if params else message)
        self.code = code
        self.message = message
        self.params = params


def has_control_characters(text: str) -> bool:
    return any(
        unicodedata.category(ch) == "Cc" and ch not in ALLOWED_CONTROLS
        for ch in text
        if ch < "\xa0"  # every Cc character is below U+00A0: skip the lookup for the rest
    )


def has_bidi_controls(text: str) -> bool:
    return any(ch in BIDI_CONTROLS for ch in text)


# Shown as nothing, yet not format characters (Cf): the default-ignorable code points of
# other categories (a grapheme joiner, variation selectors, the Hangul fillers) and the
# blank braille pattern.
BLANK = frozenset(
    [
        *(0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0),
        *range(0x180B, 0x1810),
        *range(0xFE00, 0xFE10),
        *range(0xE0100, 0xE01F0),
    ]
)
# format characters, marks on nothing, spaces and separators, controls: none shows by itself
UNSEEN_CATEGORIES = frozenset({"Cf", "Mn", "Me", "Zs", "Zl", "Zp", "Cc"})


def shows_something(text: str) -> bool:
    """Whether ``text`` has a character a reader sees (fifty zero-width joiners have none)."""
    return any(
        ord(ch) not in BLANK and unicodedata.category(ch) not in UNSEEN_CATEGORIES for ch in text
    )


def echo(text: str, limit: int = 40) -> str:
    """What a message may repeat of someone's input: no control or direction characters (a
    reversed name turned the rest of the sentence around), at most ``limit`` characters."""
    kept = "".join(
        ch for ch in text if ch not in BIDI_CONTROLS and unicodedata.category(ch) != "Cc"
    )
    return kept if len(kept) <= limit else kept[: limit - 1] + "…"


def check_text(text: str) -> None:
    if has_control_characters(text):
        raise BadInput(
            "control_characters", gettext_noop("Text may not contain control characters.")
        )


def check_json_value(value: Any, max_depth: int = MAX_JSON_DEPTH) -> None:
    """Every string (keys included) free of control characters, nesting at most ``max_depth``.
    Iterative, so a hostile depth cannot exhaust the interpreter's stack."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, dict | list):
            if depth > max_depth:
                raise BadInput(
                    "too_deep", gettext_noop("JSON may nest at most %(n)d levels."), n=max_depth
                )
            children = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in children:
                if isinstance(key, str):
                    check_text(key)
                stack.append((child, depth + 1))


def parse_json(raw: str | bytes, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """json.loads with the checks above; RecursionError (a very deep document) is bad input."""
    try:
        value = json.loads(raw)
    except RecursionError as exc:
        raise BadInput(
            "too_deep", gettext_noop("JSON may nest at most %(n)d levels."), n=max_depth
        ) from exc
    except ValueError as exc:
        raise BadInput("malformed", gettext_noop("Send a JSON object.")) from exc
    check_json_value(value, max_depth)
    return value
