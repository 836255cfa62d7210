"""Cockroach Poker Royal's words: its creatures and claims, moves, phases and view keys.

Every entry carries the message context ``"game"`` (as ``games.labels`` does), so a word the
games share keeps one translation.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

# the game's own name, as its players know it (Persian: the rules' name; others: published)
TITLE = pgettext_lazy("game", "Cockroach Poker Royal")

WORDS: dict[str, Promise] = {
    # cards, creatures and claims
    "cockroach": pgettext_lazy("game", "cockroach"),
    "stink_bug": pgettext_lazy("game", "stink bug"),
    "rat": pgettext_lazy("game", "rat"),
    "fly": pgettext_lazy("game", "fly"),
    "bat": pgettext_lazy("game", "bat"),
    "toad": pgettext_lazy("game", "toad"),
    "scorpion": pgettext_lazy("game", "scorpion"),
    "royal": pgettext_lazy("game", "royal"),
    "royal_cockroach": pgettext_lazy("game", "royal cockroach"),
    "royal_stink_bug": pgettext_lazy("game", "royal stink bug"),
    "royal_rat": pgettext_lazy("game", "royal rat"),
    "royal_fly": pgettext_lazy("game", "royal fly"),
    "royal_bat": pgettext_lazy("game", "royal bat"),
    "royal_toad": pgettext_lazy("game", "royal toad"),
    "royal_scorpion": pgettext_lazy("game", "royal scorpion"),
    "joker": pgettext_lazy("game", "joker (every creature)"),
    "blank": pgettext_lazy("game", "blank (nothing)"),
    # moves and phases
    "offer": pgettext_lazy("game", "offer"),
    "call": pgettext_lazy("game", "call"),
    "peek": pgettext_lazy("game", "peek"),
    "pass": pgettext_lazy("game", "pass"),
    "name": pgettext_lazy("game", "name"),
    "answer": pgettext_lazy("game", "answer"),
    "named": pgettext_lazy("game", "named"),
    # how a game ends
    "empty_hand": pgettext_lazy("game", "empty hand"),
    "only_special_cards": pgettext_lazy("game", "only special cards"),
    "offer_limit": pgettext_lazy("game", "offer limit"),
    "row_limit": pgettext_lazy("game", "row limit"),
    # what the view shows
    "caller": pgettext_lazy("game", "caller"),
    "chain": pgettext_lazy("game", "chain"),
    "claim": pgettext_lazy("game", "claim"),
    "claimer": pgettext_lazy("game", "claimer"),
    "honesty": pgettext_lazy("game", "honesty"),
    "limit": pgettext_lazy("game", "limit"),
    "must_call": pgettext_lazy("game", "must call"),
    "named_not_placed": pgettext_lazy("game", "named, not yet placed"),
    "naming": pgettext_lazy("game", "naming"),
    "offerer": pgettext_lazy("game", "offerer"),
    "offers": pgettext_lazy("game", "offers"),
    "penalty": pgettext_lazy("game", "penalty"),
    "penalty_pile": pgettext_lazy("game", "penalty pile"),
    "receiver_peeked": pgettext_lazy("game", "receiver peeked"),
    "recent": pgettext_lazy("game", "recent rounds"),
    "row": pgettext_lazy("game", "row"),
    "row_tallies": pgettext_lazy("game", "row tallies"),
    "rows": pgettext_lazy("game", "rows"),
    "says": pgettext_lazy("game", "says"),
    "seen": pgettext_lazy("game", "seen"),
    "special": pgettext_lazy("game", "special"),
    "source": pgettext_lazy("game", "source"),
    "taker": pgettext_lazy("game", "taker"),
    "true_claims": pgettext_lazy("game", "true claims"),
    "new_top": pgettext_lazy("game", "new top card"),
    "pile_size": pgettext_lazy("game", "pile size"),
    "kinds": pgettext_lazy("game", "kinds"),
    "tasks": pgettext_lazy("game", "tasks"),
    "number": pgettext_lazy("game", "number"),
    "top": pgettext_lazy("game", "top card"),
}
