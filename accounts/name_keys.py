"""A shown name's look-alike key: "Аӏісе" (Cyrillic), "AIice" (a capital i), "ALICE" and
"alice" share one.

NFKC (full-width "Ａｌｉｃｅ" is "Alice"); a capital I beside a small letter, which sans-serif
faces draw as an l, taken for one; casefolded; each letter replaced by the Latin letters it
passes for (Unicode's confusables, UTS #39: accounts/lookalike_table.py, plus the ASCII ones
that table leaves out); and the pairs of letters that pass for one ("rn" for "m").
"""

from __future__ import annotations

import re
import unicodedata

from accounts.lookalike_table import LOOKALIKES

KEY_LETTERS = {
    **LOOKALIKES,
    # UTS #39 gives the palochka "i"; it has no dot and reads as the "l" of a Latin name
    "\u04cf": "l",
    # the ASCII look-alikes (the table keeps letters NFKC and casefolding leave outside ASCII)
    "0": "o",
    "1": "l",
    "|": "l",
}
LETTER_PAIRS = (("rn", "m"), ("vv", "w"))
CAPITAL_I_AS_L = re.compile(r"(?<=[a-z])I|I(?=[a-z])")


def name_key(name: str) -> str:
    shown = " ".join(unicodedata.normalize("NFKC", name).split())
    folded = CAPITAL_I_AS_L.sub("l", shown).casefold()
    key = "".join(KEY_LETTERS.get(ch, ch) for ch in folded)
    for pair, letter in LETTER_PAIRS:
        key = key.replace(pair, letter)
    return key
