"""Imperador's words: its cards, moves, hands and view keys (message context ``"game"``)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

# the game's own name, as its players know it (Persian: the rules' name; others: published)
TITLE = pgettext_lazy("game", "Imperador")

WORDS: dict[str, Promise] = {
    # cards
    "number": pgettext_lazy("game", "number"),
    "object": pgettext_lazy("game", "object"),
    "fox": pgettext_lazy("game", "fox"),
    "sheep": pgettext_lazy("game", "sheep"),
    "emperor": pgettext_lazy("game", "emperor"),
    # moves and answers
    "announce": pgettext_lazy("game", "announce"),
    "raise": pgettext_lazy("game", "raise"),
    "down": pgettext_lazy("game", "down"),
    "pick": pgettext_lazy("game", "pick"),
    "give": pgettext_lazy("game", "give"),
    "take": pgettext_lazy("game", "take"),
    "reveal": pgettext_lazy("game", "reveal"),
    "lay": pgettext_lazy("game", "lay"),
    "successor": pgettext_lazy("game", "successor"),
    "name": pgettext_lazy("game", "name"),
    "raised": pgettext_lazy("game", "raised"),
    "chosen": pgettext_lazy("game", "chosen"),
    "named": pgettext_lazy("game", "named"),
    "random": pgettext_lazy("game", "random"),
    "liar": pgettext_lazy("game", "liar"),
    "face_down": pgettext_lazy("game", "face down"),
    "laid_away": pgettext_lazy("game", "laid away"),
    # how a game ends
    "two_pairs": pgettext_lazy("game", "two pairs"),
    "turn_limit": pgettext_lazy("game", "turn limit"),
    # what the view shows
    "answers": pgettext_lazy("game", "answers"),
    "asked": pgettext_lazy("game", "asked"),
    "band": pgettext_lazy("game", "band"),
    "case": pgettext_lazy("game", "case"),
    "cards_you_gave": pgettext_lazy("game", "cards you gave"),
    "choice": pgettext_lazy("game", "choice"),
    "downs": pgettext_lazy("game", "hands down"),
    "exchanges": pgettext_lazy("game", "exchanges"),
    "forced": pgettext_lazy("game", "forced"),
    "foxes": pgettext_lazy("game", "foxes"),
    "giver": pgettext_lazy("game", "giver"),
    "giving": pgettext_lazy("game", "giving"),
    "giving_to": pgettext_lazy("game", "giving to"),
    "got_named": pgettext_lazy("game", "got the named value"),
    "grid": pgettext_lazy("game", "objects"),
    "hand_count": pgettext_lazy("game", "cards in hand"),
    "hidden": pgettext_lazy("game", "hidden"),
    "hidden_count": pgettext_lazy("game", "hidden cards"),
    "how": pgettext_lazy("game", "how"),
    "is_emperor": pgettext_lazy("game", "is emperor"),
    "laid": pgettext_lazy("game", "laid pairs"),
    "liars": pgettext_lazy("game", "liars"),
    "max_turns": pgettext_lazy("game", "turn limit"),
    "not": pgettext_lazy("game", "not to give back"),
    "objects": pgettext_lazy("game", "objects"),
    "picked": pgettext_lazy("game", "picked"),
    "public_cards": pgettext_lazy("game", "open cards"),
    "received": pgettext_lazy("game", "received"),
    "reign": pgettext_lazy("game", "reign"),
    "revealed": pgettext_lazy("game", "revealed"),
    "shown": pgettext_lazy("game", "shown"),
    "slot": pgettext_lazy("game", "slot"),
    "taking_from": pgettext_lazy("game", "taking from"),
    "turn_number": pgettext_lazy("game", "turn number"),
    "viewer": pgettext_lazy("game", "your seat"),
    "your_answer": pgettext_lazy("game", "your answer"),
    "gift": pgettext_lazy("game", "gift"),
    "seen": pgettext_lazy("game", "seen"),
}
