"""A player's name set apart inside a sentence of a right-to-left language.

In a Persian sentence a Latin name runs together, left to right, with whatever stands next to
it with only spaces or punctuation between: another Latin name ("alice، bob را انتخاب می‌کند",
"alice picks bob", read "bob، alice": the other way round) or a number ("alice 2 روباه", the
2 read before the name). A name between FSI and PDI (Unicode's first-strong isolate) keeps its
own direction inside and counts as one neutral mark outside, so the sentence keeps its order.
The marks are invisible and work in plain text too (notices, emails, pushes), where ``<bdi>``
cannot be used; a display name may not hold them itself (``config.inputs``).
"""

from __future__ import annotations

from django.utils import translation

FSI, PDI = "\u2068", "\u2069"


def isolated(name: str) -> str:
    """``name`` isolated when the active language is written right to left, as it is."""
    return f"{FSI}{name}{PDI}" if translation.get_language_bidi() else name
