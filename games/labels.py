"""The words every game shares, translated for the board, the forms and the reveal.

Engines (``games/engines/``) are pure Python and speak in English keys: card kinds and claims,
action types, phases, view keys and result reasons. A game's own words (its cards, claims,
moves and view keys) live in its package (``games/catalog/<game>/words.py``) and are looked up
first by its presentation (``Presentation.word``); this module holds the keys every game uses
(``"card"``, ``"round"``, ``"winners"``). A key not listed falls back to itself with spaces for
underscores.

The translation depends on the key alone (never on who looks or on the state), so a page
rendered from a real state and from a scrambled one differ only where the views differ.
Every entry carries the message context ``"game"``, so "name" the action and "name" the
form field elsewhere on the site can be translated differently.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

WORDS: dict[str, Promise] = {
    # --- answers and other values ---------------------------------------------------------
    "over": pgettext_lazy("game", "over"),
    "true": pgettext_lazy("game", "true"),
    "false": pgettext_lazy("game", "false"),
    # --- what the views show ----------------------------------------------------------------
    "by": pgettext_lazy("game", "by"),
    "card": pgettext_lazy("game", "card"),
    "cards": pgettext_lazy("game", "cards"),
    "count": pgettext_lazy("game", "count"),
    "deck": pgettext_lazy("game", "deck"),
    "detail": pgettext_lazy("game", "detail"),
    "draw_pile": pgettext_lazy("game", "draw pile"),
    "first": pgettext_lazy("game", "first"),
    "from": pgettext_lazy("game", "from"),
    "hand_counts": pgettext_lazy("game", "cards in hand"),
    "hands": pgettext_lazy("game", "hands"),
    "hand": pgettext_lazy("game", "hand"),
    "id": pgettext_lazy("game", "id"),
    "kind": pgettext_lazy("game", "kind"),
    "losers": pgettext_lazy("game", "losers"),
    "n": pgettext_lazy("game", "number"),
    "phase": pgettext_lazy("game", "phase"),
    "pile": pgettext_lazy("game", "pile"),
    "players": pgettext_lazy("game", "players"),
    "reason": pgettext_lazy("game", "reason"),
    "receiver": pgettext_lazy("game", "receiver"),
    "result": pgettext_lazy("game", "result"),
    "right": pgettext_lazy("game", "right"),
    "round": pgettext_lazy("game", "round"),
    "rounds": pgettext_lazy("game", "rounds"),
    "score": pgettext_lazy("game", "score"),
    "scores": pgettext_lazy("game", "scores"),
    "seats": pgettext_lazy("game", "seats"),
    "size": pgettext_lazy("game", "size"),
    "status": pgettext_lazy("game", "status"),
    "target": pgettext_lazy("game", "target"),
    "to": pgettext_lazy("game", "to"),
    "turn": pgettext_lazy("game", "turn"),
    "type": pgettext_lazy("game", "type"),
    "value": pgettext_lazy("game", "value"),
    "values": pgettext_lazy("game", "values"),
    "winners": pgettext_lazy("game", "winners"),
    "you": pgettext_lazy("game", "you"),
    # --- the raw state (staff log and the full reveal) ------------------------------------
    "queue": pgettext_lazy("game", "queue"),
    "seed": pgettext_lazy("game", "seed"),
    "step": pgettext_lazy("game", "step"),
    "winner": pgettext_lazy("game", "winner"),
}


def word(key: str, default: str | None = None) -> str:
    """``key`` in the current language; else ``default``, else the key with spaces."""
    if key in WORDS:
        return str(WORDS[key])
    if default is not None:
        return default
    return key.replace("_", " ")
