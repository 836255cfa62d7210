"""A shown name's look-alike key: "Аӏісе" (Cyrillic), "ALICE" and "alice" share one.

NFKC (full-width "Ａｌｉｃｅ" is "Alice"), casefolded, each letter replaced by the Latin letters it
passes for (Unicode's confusables, UTS #39: accounts/lookalike_table.py).
"""

from __future__ import annotations

import unicodedata

from accounts.lookalike_table import LOOKALIKES

# UTS #39 gives the palochka "i"; it has no dot and reads as the "l" of a Latin name
KEY_LETTERS = {**LOOKALIKES, "\u04cf": "l"}


def name_key(name: str) -> str:
    folded = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    return "".join(KEY_LETTERS.get(ch, ch) for ch in folded)
