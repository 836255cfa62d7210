"""Mogel Motte's words: its cards, moves, windows and view keys (message context ``"game"``)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

# the game's own name, as its players know it (Persian: the rules' name; others: published)
TITLE = pgettext_lazy("game", "Mogel Motte")

WORDS: dict[str, Promise] = {
    # cards
    "number": pgettext_lazy("game", "number"),
    "ant": pgettext_lazy("game", "ant"),
    "cockroach": pgettext_lazy("game", "cockroach"),
    "mosquito": pgettext_lazy("game", "mosquito"),
    "spider": pgettext_lazy("game", "spider"),
    "moth": pgettext_lazy("game", "cheating moth"),
    # moves, windows and answers
    "play": pgettext_lazy("game", "play"),
    "draw": pgettext_lazy("game", "draw"),
    "give": pgettext_lazy("game", "give"),
    "race": pgettext_lazy("game", "race"),
    "decline": pgettext_lazy("game", "decline"),
    "slap": pgettext_lazy("game", "slap"),
    "gift": pgettext_lazy("game", "gift"),
    "cheat": pgettext_lazy("game", "cheat"),
    "accuse": pgettext_lazy("game", "accuse"),
    "declined": pgettext_lazy("game", "declined"),
    "slapped": pgettext_lazy("game", "slapped"),
    "out": pgettext_lazy("game", "out"),
    # what the view shows
    "active": pgettext_lazy("game", "active"),
    "after_fidget": pgettext_lazy("game", "after fidget"),
    "asked": pgettext_lazy("game", "asked"),
    "discard": pgettext_lazy("game", "discard pile"),
    "draw_count": pgettext_lazy("game", "draw pile"),
    "fidget_count": pgettext_lazy("game", "fidget count"),
    "fidgets": pgettext_lazy("game", "fidgets"),
    "first_guard": pgettext_lazy("game", "first guard"),
    "floor": pgettext_lazy("game", "floor"),
    "floor_count": pgettext_lazy("game", "cards on the floor"),
    "givers": pgettext_lazy("game", "givers"),
    "guard": pgettext_lazy("game", "guard"),
    "handed_over": pgettext_lazy("game", "handed over"),
    "is_guard": pgettext_lazy("game", "is guard"),
    "last_accusation": pgettext_lazy("game", "last accusation"),
    "returned": pgettext_lazy("game", "returned"),
    "round_scores": pgettext_lazy("game", "round scores"),
    "sleeve": pgettext_lazy("game", "sleeve"),
    "sleeve_falls_after_turn": pgettext_lazy("game", "sleeve card falls after turn"),
    "sleeves": pgettext_lazy("game", "sleeves"),
    "slipped": pgettext_lazy("game", "slipped"),
    "slowest": pgettext_lazy("game", "slowest"),
    "starting_guard": pgettext_lazy("game", "starting guard"),
    "top": pgettext_lazy("game", "top card"),
    "totals": pgettext_lazy("game", "totals"),
    "window": pgettext_lazy("game", "window"),
    "answer": pgettext_lazy("game", "answer"),
    "name": pgettext_lazy("game", "name"),
    "turn_limit": pgettext_lazy("game", "turn limit"),
}
