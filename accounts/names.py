"""What a display name may be: one that cannot pass for another player's.

The name shows at tables, in notices and in emails. "Bob" plus an invisible character, or
"Bob" with a Cyrillic "В", reads exactly as "Bob" and would let one player pose as another.
So a name is normalised (NFKC: full-width "Ｂｏｂ" is "Bob"), may not hold invisible format
characters (a zero-width non-joiner between two Arabic-script letters excepted: Persian
spelling needs it) and may not mix the Latin, Greek, Cyrillic and Armenian alphabets, whose
letters look alike. A name wholly in one of them is fine.
"""

from __future__ import annotations

import unicodedata

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import display_name_taken
from config.inputs import BLANK, has_bidi_controls, has_control_characters

ZWNJ = "\u200c"
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC", "ARMENIAN"})


def _script(ch: str) -> str:
    return unicodedata.name(ch, "").split(" ", 1)[0] if ch.isalpha() else ""


def _invisible(name: str) -> bool:
    for at, ch in enumerate(name):
        if ord(ch) in BLANK:
            return True
        if unicodedata.category(ch) != "Cf":
            continue
        joins_persian = (
            ch == ZWNJ
            and 0 < at < len(name) - 1
            and _script(name[at - 1]) == _script(name[at + 1]) == "ARABIC"
        )
        if not joins_persian:
            return True
    return False


def checked_display_name(raw: str, user: User | None) -> str:
    """The name to store, or a ValidationError saying why not."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if has_control_characters(name) or has_bidi_controls(name):
        # Bidi overrides make a name read differently (in email subjects, at the table).
        raise forms.ValidationError(
            _("A display name may not contain control or direction characters."),
            code="bad_characters",
        )
    if _invisible(name):
        raise forms.ValidationError(
            _("A display name may not contain invisible characters."), code="invisible"
        )
    if len({_script(ch) for ch in name} & LOOKALIKE_SCRIPTS) > 1:
        raise forms.ValidationError(
            _("A display name may not mix Latin, Greek and Cyrillic letters."),
            code="mixed_scripts",
        )
    if name and user is not None and display_name_taken(name, user):
        raise forms.ValidationError(_("Another player already goes by that name."), code="taken")
    return name
