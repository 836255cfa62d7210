"""Imperador's history: one sentence per event kind of its engine."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.catalog.base import Sentence, Words, comma


def band(values: Any) -> str:
    if isinstance(values, list) and len(values) == 2:
        return f"\u2066{values[0]}–{values[1]}\u2069"  # isolated: stays "3–4" in Persian
    return "?"


def _slot(slot: Any) -> Any:
    return slot + 1 if isinstance(slot, int) else "?"


def _turn_started(d: dict[str, Any], w: Words) -> str:
    return _("Turn %(turn)s: %(name)s is emperor.") % {
        "turn": d.get("turn"),
        "name": w.name(d.get("emperor")),
    }


def _game_over(d: dict[str, Any], w: Words) -> str:
    return _("Game over: %(winners)s won (%(reason)s).") % {
        "winners": w.names(d.get("winners")),
        "reason": w.presentation.reason_text(d.get("reason")),
    }


def _band_announced(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s announces the band %(band)s.") % {
        "name": w.name(d.get("emperor")),
        "band": band(d.get("values")),
    }


def _hands_window_opened(d: dict[str, Any], w: Words) -> str:
    return _("%(asked)s raise a hand or keep it down, in secret.") % {
        "asked": w.names(d.get("asked"))
    }


def _hand_answered(d: dict[str, Any], w: Words) -> str:
    values = {"name": w.name(d.get("seat"))}
    if d.get("choice") == "raise":
        return _("%(name)s raised a hand.") % values
    return _("%(name)s kept their hand down.") % values


def _hands_window_timed_out(d: dict[str, Any], w: Words) -> str:
    return _("Time is up: a missing answer counts as down.")


HAND_WORDS = {
    "raised": lambda: _("raised"),
    "down": lambda: _("down"),
    "fox": lambda: _("down (fox)"),
}


def _hands_shown(d: dict[str, Any], w: Words) -> str:
    hands = d.get("hands")
    if not isinstance(hands, list):
        return _("The hands are shown.")
    parts = [
        _("%(name)s %(hand)s") % {"name": w.name(seat), "hand": HAND_WORDS[hand]()}
        for seat, hand in enumerate(hands)
        if hand in HAND_WORDS
    ]
    return _("Hands: %(hands)s.") % {"hands": comma().join(parts)}


CASES = {
    "a": lambda: _("The emperor holds a pair in the band."),
    "b": lambda: _("Two or more hands are down: the emperor picks one of them."),
    "c": lambda: _("One hand or none is down: the emperor names a value."),
}


def _case(d: dict[str, Any], w: Words) -> str:
    case = d.get("case")
    return CASES[case]() if case in CASES else ""


def _pair_shown(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s shows %(cards)s.") % {
        "name": w.name(d.get("emperor")),
        "cards": w.cards(d.get("cards")),
    }


def _player_picked(d: dict[str, Any], w: Words) -> str:
    return _("%(emperor)s picks %(name)s.") % {
        "emperor": w.name(d.get("emperor")),
        "name": w.name(d.get("seat")),
    }


def _card_passed(d: dict[str, Any], w: Words) -> str:
    values = {
        "giver": w.name(d.get("from")),
        "receiver": w.name(d.get("to")),
        "card": w.card(d.get("card")),
    }
    known = isinstance(d.get("card"), dict)
    how = d.get("how")
    if how == "random":
        if known:
            return _("%(receiver)s took a random card from %(giver)s: %(card)s.") % values
        return _("%(receiver)s took a random card from %(giver)s.") % values
    if how == "named":
        return _("%(giver)s handed the named card to %(receiver)s: %(card)s.") % values
    if how == "chosen":
        if known:
            return _("%(receiver)s chose a card from %(giver)s's hand: %(card)s.") % values
        return _("%(receiver)s chose a card from %(giver)s's hand.") % values
    if known:
        return _("%(giver)s gave %(receiver)s %(card)s.") % values
    return _("%(giver)s gave %(receiver)s a card.") % values


def _value_named(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s names the value %(value)s.") % {
        "name": w.name(d.get("emperor")),
        "value": d.get("value"),
    }


def _liars_caught(d: dict[str, Any], w: Words) -> str:
    raw = d.get("seats")
    seats = raw if isinstance(raw, list) else []
    return ngettext(
        "Caught lying: %(names)s takes %(foxes)s foxes.",
        "Caught lying: %(names)s take %(foxes)s foxes each.",
        len(seats),
    ) % {"names": w.names(seats), "foxes": d.get("foxes")}


def _nobody_holds(d: dict[str, Any], w: Words) -> str:
    return _("Nobody else holds a %(value)s: nothing is exchanged.") % {"value": d.get("value")}


def _object_revealed(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s turns over object %(slot)s: it shows %(band)s.") % {
        "name": w.name(d.get("emperor")),
        "slot": _slot(d.get("slot")),
        "band": band((d.get("object") or {}).get("values")),
    }


def _object_turned_down(d: dict[str, Any], w: Words) -> str:
    return _("No pair fits: object %(slot)s is turned face down again.") % {
        "slot": _slot(d.get("slot"))
    }


def _pair_laid(d: dict[str, Any], w: Words) -> str:
    cards = d.get("cards") if isinstance(d.get("cards"), list) else []
    return _("%(name)s lays a pair of %(value)s on object %(slot)s (%(band)s).") % {
        "name": w.name(d.get("seat")),
        "value": cards[0].get("value") if cards and isinstance(cards[0], dict) else "?",
        "slot": _slot(d.get("slot")),
        "band": band((d.get("object") or {}).get("values")),
    }


def _emperor_stays(d: dict[str, Any], w: Words) -> str:
    return _("Nobody raised a hand: %(name)s stays emperor.") % {"name": w.name(d.get("emperor"))}


def _emperor_passed(d: dict[str, Any], w: Words) -> str:
    values = {"old": w.name(d.get("from")), "new": w.name(d.get("to"))}
    if d.get("forced"):
        return _("%(old)s reigned two turns: %(new)s becomes emperor.") % values
    return _("%(old)s hands the emperor card to %(new)s.") % values


def _foxes_shed(d: dict[str, Any], w: Words) -> str:
    raw = d.get("seats")
    seats = raw if isinstance(raw, list) else []
    return ngettext("%(names)s discards a fox.", "%(names)s discard a fox each.", len(seats)) % {
        "names": w.names(seats)
    }


def _sheep_taken(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s takes a sheep.") % {"name": w.name(d.get("seat"))}


def _sheep_returned(d: dict[str, Any], w: Words) -> str:
    return _("Everybody had a sheep: all sheep go back.")


SENTENCES: dict[str, Sentence] = {
    "game_over": _game_over,
    "turn_started": _turn_started,
    "band_announced": _band_announced,
    "hands_window_opened": _hands_window_opened,
    "hand_answered": _hand_answered,
    "hands_window_timed_out": _hands_window_timed_out,
    "hands_shown": _hands_shown,
    "case": _case,
    "pair_shown": _pair_shown,
    "player_picked": _player_picked,
    "card_passed": _card_passed,
    "card_seen": _card_passed,
    "value_named": _value_named,
    "liars_caught": _liars_caught,
    "nobody_holds": _nobody_holds,
    "object_revealed": _object_revealed,
    "object_turned_down": _object_turned_down,
    "pair_laid": _pair_laid,
    "emperor_stays": _emperor_stays,
    "emperor_passed": _emperor_passed,
    "foxes_shed": _foxes_shed,
    "sheep_taken": _sheep_taken,
    "sheep_returned": _sheep_returned,
}

REASONS = {
    "two_pairs": lambda: _("two pairs laid down"),
    "turn_limit": lambda: _("the turn limit: most pairs laid down"),
}
