"""What a display name may be: one that cannot pass for another player's.

The name shows at tables, in notices and in emails. "Bob" plus an invisible character, or
"Bob" with a Cyrillic "В", reads exactly as "Bob" and would let one player pose as another.
So a name is normalised (NFKC: full-width "Ｂｏｂ" is "Bob"), may not hold invisible format
characters (a zero-width non-joiner between two Arabic-script letters excepted: Persian
spelling needs it) and may not mix the Latin, Greek, Cyrillic and Armenian alphabets, whose
letters look alike. A name wholly in one of them is fine, unless it reads as another player's
name: "Аӏісе" in Cyrillic letters is "Alice". Names are compared by their look-alike key
(``name_key``: NFKC, casefolded, each letter by the Latin one it passes for, after Unicode's
confusables, UTS #39), and a username chosen at sign-up keeps the same rules.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.selectors import name_taken
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


DISPLAY_NAME_WORDS = {
    "invisible": _("A display name may not contain invisible characters."),
    "mixed_scripts": _("A display name may not mix Latin, Greek and Cyrillic letters."),
}
NAME_TAKEN = _("Another player already goes by that name, or one that looks the same.")
USERNAME_WORDS = {
    "invisible": _("A username may not contain invisible characters."),
    "mixed_scripts": _("A username may not mix Latin, Greek and Cyrillic letters."),
}


def _refuse_lookalikes(name: str, user: User | None, words: dict[str, Any]) -> None:
    """The rules a display name and a new username share, each refusal in ``words``."""
    if _invisible(name):
        raise forms.ValidationError(words["invisible"], code="invisible")
    if len({_script(ch) for ch in name} & LOOKALIKE_SCRIPTS) > 1:
        raise forms.ValidationError(words["mixed_scripts"], code="mixed_scripts")
    if name and name_taken(name, user):
        raise forms.ValidationError(NAME_TAKEN, code="taken")


def checked_display_name(raw: str, user: User | None) -> str:
    """The name to store, or a ValidationError saying why not."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if has_control_characters(name) or has_bidi_controls(name):
        # Bidi overrides make a name read differently (in email subjects, at the table).
        raise forms.ValidationError(
            _("A display name may not contain control or direction characters."),
            code="bad_characters",
        )
    if user is not None and name == user.display_name:
        return name  # kept as it was: a pair the keys made alike later must not block a save
    if not name and user is not None and name_taken(user.username, user):
        # the username shows again: another player may go by it meanwhile
        raise forms.ValidationError(
            _(
                "Another player now goes by your username, or a name that looks the same: keep a display name."
            ),
            code="username_taken",
        )
    _refuse_lookalikes(name, user, DISPLAY_NAME_WORDS)
    return name


def checked_username(name: str, user: User | None = None) -> str:
    """A new player's username (shown until they set a display name): the display name's
    rules, against every player's shown name. ``user``: a player a moderator renames, whose
    new username may not be another's in other letters' case either (allauth checks that at
    sign-up; the admin's form only refused the very same spelling)."""
    others = User.objects.filter(username__iexact=name)
    if user is not None and others.exclude(pk=user.pk).exists():
        raise forms.ValidationError(NAME_TAKEN, code="taken")
    _refuse_lookalikes(name, user, USERNAME_WORDS)
    return name
