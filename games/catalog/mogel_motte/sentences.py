"""Mogel Motte's history: one sentence per event kind of its engine."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.catalog.base import Sentence, Words


def _played(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s played %(card)s.") % {
        "name": w.name(d.get("seat")),
        "card": w.card(d.get("card")),
    }


def _turn_started(d: dict[str, Any], w: Words) -> str:
    return _("Turn %(turn)s: %(name)s plays.") % {
        "turn": d.get("turn"),
        "name": w.name(d.get("seat")),
    }


def _drew(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s drew a card.") % {"name": w.name(d.get("seat"))}


def _drew_card(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s drew %(card)s.") % {
        "name": w.name(d.get("seat")),
        "card": w.card(d.get("card")),
    }


def _draw_skipped(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s could not draw: there are no cards left.") % {"name": w.name(d.get("seat"))}


def _reshuffled(d: dict[str, Any], w: Words) -> str:
    raw = d.get("draw_count")
    count = raw if isinstance(raw, int) else 0
    return ngettext(
        "The discard pile was shuffled into a new draw pile (%(count)s card).",
        "The discard pile was shuffled into a new draw pile (%(count)s cards).",
        count,
    ) % {"count": count}


def _round_started(d: dict[str, Any], w: Words) -> str:
    return _("Round %(round)s begins. %(guard)s is the guard; the first card is %(card)s.") % {
        "round": d.get("round"),
        "guard": w.name(d.get("starting_guard")),
        "card": w.card(d.get("top")),
    }


def _dealt(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s was dealt %(cards)s.") % {
        "name": w.name(d.get("seat")),
        "cards": w.cards(d.get("cards")),
    }


def _spider_gave(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s gave %(receiver)s a card (spider).") % {
        "name": w.name(d.get("seat")),
        "receiver": w.name(d.get("to")),
    }


def _spider_nothing(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s had nothing to give for the spider.") % {"name": w.name(d.get("seat"))}


def _given(d: dict[str, Any], w: Words) -> str:
    return _("%(giver)s gave %(receiver)s %(card)s.") % {
        "giver": w.name(d.get("giver")),
        "receiver": w.name(d.get("receiver")),
        "card": w.card(d.get("card")),
    }


def _race_opened(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s played a cockroach: race to lay a plain %(value)s first!") % {
        "name": w.name(d.get("by")),
        "value": d.get("value"),
    }


def _race_won(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s won the race with %(card)s.") % {
        "name": w.name(d.get("seat")),
        "card": w.card(d.get("card")),
    }


def _race_closed(d: dict[str, Any], w: Words) -> str:
    if d.get("winner") is None:
        return _("Nobody joined the race.")
    return _("%(name)s won the race.") % {"name": w.name(d.get("winner"))}


def _declined(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s let the race go.") % {"name": w.name(d.get("seat"))}


def _slap_opened(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s played a mosquito: %(asked)s must slap!") % {
        "name": w.name(d.get("by")),
        "asked": w.names(d.get("asked")),
    }


def _slapped(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s slapped.") % {"name": w.name(d.get("seat"))}


def _slap_closed(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s was the slowest to slap %(by)s's mosquito.") % {
        "name": w.name(d.get("slowest")),
        "by": w.name(d.get("by")),
    }


def _gift_opened(d: dict[str, Any], w: Words) -> str:
    return _("For %(by)s's mosquito, %(givers)s each give %(receiver)s a card (not a moth).") % {
        "by": w.name(d.get("by")),
        "givers": w.names(d.get("givers")),
        "receiver": w.name(d.get("receiver")),
    }


def _gift_chosen(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s chose %(card)s as the gift.") % {
        "name": w.name(d.get("seat")),
        "card": w.card(d.get("card")),
    }


def _gifts_moved(d: dict[str, Any], w: Words) -> str:
    if not d.get("givers"):
        return _("Nobody had a card to give %(receiver)s.") % {
            "receiver": w.name(d.get("receiver"))
        }
    return _("%(receiver)s received a card from %(givers)s.") % {
        "receiver": w.name(d.get("receiver")),
        "givers": w.names(d.get("givers")),
    }


def _window_timeout(d: dict[str, Any], w: Words) -> str:
    window = d.get("window")
    if window == "race":
        return _("Time is up for the race.")
    if window == "slap":
        return _("Time is up for slapping.")
    if window == "gift":
        return _("Time is up for the gifts: missing gifts are drawn at random.")
    return _("Time is up.")


def _fidget(d: dict[str, Any], w: Words) -> str:
    return _("Someone is fidgeting under the table…")


def _slipped(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s slipped %(card)s up their sleeve.") % {
        "name": w.name(d.get("seat")),
        "card": w.card(d.get("card")),
    }


def _fell(d: dict[str, Any], w: Words) -> str:
    return _("A card fell from %(name)s's sleeve to the floor: %(name)s cheated!") % {
        "name": w.name(d.get("seat"))
    }


def _fell_card(d: dict[str, Any], w: Words) -> str:
    return _("%(card)s fell from %(name)s's sleeve to the floor.") % {
        "name": w.name(d.get("seat")),
        "card": w.card(d.get("card")),
    }


def _accused(d: dict[str, Any], w: Words) -> str:
    values = {
        "guard": w.name(d.get("guard")),
        "target": w.name(d.get("target")),
        "card": w.card(d.get("returned")),
    }
    if not d.get("right"):
        return _("%(guard)s accused %(target)s, wrongly: %(guard)s draws a card.") % values
    text = _("%(guard)s caught %(target)s cheating: %(card)s goes back into their hand.") % values
    if d.get("handed_over"):
        text += " " + _("%(guard)s hands %(target)s a card.") % values
    return text


def _new_guard(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s is now the guard.") % {"name": w.name(d.get("seat"))}


def _round_ended(d: dict[str, Any], w: Words) -> str:
    values = {
        "round": d.get("round"),
        "out": w.names(d.get("out")),
        "scores": w.scores(d.get("scores")),
        "totals": w.scores(d.get("totals")),
    }
    if d.get("out"):
        text = _("Round %(round)s is over: %(out)s went out.") % values
    else:
        text = _("Round %(round)s is over (turn limit).") % values
    return text + " " + _("Penalty points: %(scores)s. Totals: %(totals)s.") % values


def _game_result(d: dict[str, Any], w: Words) -> str:
    """The second end event of games stored before ``game_over`` carried the result."""
    result = d.get("result")
    if not isinstance(result, dict):
        return _("Game over.")
    return _("Winner: %(winners)s (lowest total).") % {"winners": w.names(result.get("winners"))}


def _game_over(d: dict[str, Any], w: Words) -> str:
    text = _("Game over. Penalty points: %(scores)s.") % {"scores": w.scores(d.get("scores"))}
    if "winners" in d:  # since it carries the result (older games: a game_result event)
        text += " " + _game_result({"result": d}, w)
    return text


SENTENCES: dict[str, Sentence] = {
    "game_over": _game_over,
    "game_result": _game_result,
    "turn_started": _turn_started,
    "played": _played,
    "drew": _drew,
    "drew_card": _drew_card,
    "draw_skipped": _draw_skipped,
    "reshuffled": _reshuffled,
    "round_started": _round_started,
    "dealt": _dealt,
    "spider_gave": _spider_gave,
    "spider_nothing": _spider_nothing,
    "card_given": _given,
    "gift_given": _given,
    "handed_over": _given,
    "race_opened": _race_opened,
    "race_won": _race_won,
    "race_closed": _race_closed,
    "declined": _declined,
    "slap_opened": _slap_opened,
    "slapped": _slapped,
    "slap_closed": _slap_closed,
    "gift_opened": _gift_opened,
    "gift_chosen": _gift_chosen,
    "gifts_moved": _gifts_moved,
    "window_timeout": _window_timeout,
    "fidget": _fidget,
    "slipped": _slipped,
    "fell": _fell,
    "fell_card": _fell_card,
    "accused": _accused,
    "new_guard": _new_guard,
    "round_ended": _round_ended,
}
