"""Cockroach Poker Royal's history: one sentence per event kind of its engine."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.catalog.base import Sentence, Words


def _offered(d: dict[str, Any], w: Words) -> str:
    return _("%(giver)s offered %(receiver)s a card, claiming “%(claim)s”.") % {
        "giver": w.name(d.get("from")),
        "receiver": w.name(d.get("to")),
        "claim": w.word(d.get("claim")),
    }


def _passed(d: dict[str, Any], w: Words) -> str:
    return _("%(giver)s passed the card on to %(receiver)s, claiming “%(claim)s”.") % {
        "giver": w.name(d.get("from")),
        "receiver": w.name(d.get("to")),
        "claim": w.word(d.get("claim")),
    }


def _peeked(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s looked at the card and must pass it on.") % {"name": w.name(d.get("seat"))}


def _your_card(d: dict[str, Any], w: Words) -> str:
    return _("The card (a secret for its holder): %(card)s.") % {"card": w.card(d.get("card"))}


def _called(d: dict[str, Any], w: Words) -> str:
    values = {
        "caller": w.name(d.get("seat")),
        "claim": w.word(d.get("claim")),
        "card": w.card(d.get("card")),
        "taker": w.name(d.get("taker")),
    }
    if d.get("says") == "true":
        if d.get("right"):
            text = _("%(caller)s called “%(claim)s” true and was right — it was %(card)s.")
        else:
            text = _("%(caller)s called “%(claim)s” true and was wrong — it was %(card)s.")
    elif d.get("right"):
        text = _("%(caller)s called “%(claim)s” a lie and was right — it was %(card)s.")
    else:
        text = _("%(caller)s called “%(claim)s” a lie and was wrong — it was %(card)s.")
    return (text + " " + _("%(taker)s takes it.")) % values


def _special_to_hand(d: dict[str, Any], w: Words) -> str:
    values = {"name": w.name(d.get("seat")), "card": w.word(d.get("special"))}
    if d.get("source") == "penalty":
        return (
            _("The penalty card was the %(card)s: it goes into %(name)s's hand.") % values
            + " "
            + _("%(name)s puts two cards of their choice into their row.") % values
        )
    return _("The %(card)s goes into %(name)s's hand; %(name)s names cards for their row.") % values


def _to_row(d: dict[str, Any], w: Words) -> str:
    return _("%(card)s goes into %(name)s's row.") % {
        "card": w.card(d.get("card")),
        "name": w.name(d.get("seat")),
    }


def _penalty(d: dict[str, Any], w: Words) -> str:
    values = {
        "name": w.name(d.get("seat")),
        "card": w.card(d.get("card")),
        "size": d.get("pile_size", 0),
    }
    text = _("Royal penalty: %(name)s takes the %(card)s from the penalty pile.") % values
    if isinstance(d.get("new_top"), dict):
        values["top"] = w.card(d["new_top"])
        text += (
            " "
            + ngettext(
                "New top card: %(top)s (%(size)s card left).",
                "New top card: %(top)s (%(size)s cards left).",
                values["size"] if isinstance(values["size"], int) else 0,
            )
            % values
        )
    else:
        text += " " + _("The penalty pile is empty.")
    return text


def _named(d: dict[str, Any], w: Words) -> str:
    cards = d.get("cards")
    if not cards:
        return _("%(name)s had no card to name.") % {"name": w.name(d.get("seat"))}
    return _("%(name)s names %(cards)s for their row.") % {
        "name": w.name(d.get("seat")),
        "cards": w.cards(cards),
    }


def _game_over(d: dict[str, Any], w: Words) -> str:
    return _("Game over: %(losers)s lost (%(reason)s). %(winners)s win.") % {
        "losers": w.names(d.get("losers")),
        "reason": w.presentation.reason_text(d.get("reason")),
        "winners": w.names(d.get("winners")),
    }


SENTENCES: dict[str, Sentence] = {
    "offered": _offered,
    "passed": _passed,
    "peeked": _peeked,
    "your_card": _your_card,
    "called": _called,
    "special_to_hand": _special_to_hand,
    "to_row": _to_row,
    "penalty": _penalty,
    "named": _named,
    "game_over": _game_over,
}

REASONS = {
    "row_limit": lambda: _("too many of one creature in their row"),
    "empty_hand": lambda: _("they had to offer and had no card"),
    "only_special_cards": lambda: _("only the special cards were left in the hands"),
    "only_special_in_hand": lambda: _("they had to offer and held only special cards"),
    "offer_limit": lambda: _("after 500 offers, the longest row"),
}
