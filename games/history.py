"""The table's history log in words: one readable, translated sentence per engine event.

``sentence(event, players)`` turns an event as the viewer may see it (``{"kind", "data"}``,
already filtered by ``selectors.events_for``) and the seat names into one sentence. It reads
nothing but the event's own data: what the data does not say, the sentence does not say.
Seats become names, never numbers; cards and claims go through ``games.labels.word``.
An unknown kind falls back to its humanised name and its data.

Several engines share a kind (``game_over``, ``turn_started``): the data's keys tell them apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

# Events only some seats receive while the game runs (everybody sees them at the end).
SECRET_KINDS = frozenset(
    {
        "your_card",
        "card_given",
        "declined",
        "slapped",
        "gift_chosen",
        "gift_given",
        "slipped",
        "handed_over",
        "drew_card",
        "dealt",
        "fell_card",
        "card_seen",
        "hand_answered",
    }
)


def word(key: str) -> str:
    """An engine word in the current language (``games.labels``), else the key with spaces."""
    try:
        from games.labels import word as translate
    except ImportError:  # pragma: no cover - the labels module is being written alongside
        return key.replace("_", " ")
    return translate(key)


class Words:
    """Names, cards and lists for one sentence; every lookup tolerates odd data."""

    def __init__(self, players: Sequence[str]) -> None:
        self.players = list(players)

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.players):
            return str(self.players[seat])
        return _("someone")

    def names(self, seats: Any) -> str:
        if not isinstance(seats, list | tuple) or not seats:
            return _("nobody")
        return join([self.name(s) for s in seats])

    @staticmethod
    def card(card: Any) -> str:
        return card_name(card)

    def cards(self, cards: Any) -> str:
        if not isinstance(cards, list | tuple) or not cards:
            return _("no card")
        return join([card_name(c) for c in cards])

    def scores(self, scores: Any) -> str:
        if not isinstance(scores, list | tuple):
            return ""
        return ", ".join(
            _("%(name)s %(points)s") % {"name": self.name(seat), "points": points}
            for seat, points in enumerate(scores)
        )


def join(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if not items:
        return _("nobody")
    if len(items) == 1:
        return items[0]
    return _("%(list)s and %(last)s") % {"list": ", ".join(items[:-1]), "last": items[-1]}


def card_name(card: Any) -> str:
    """A card as words: "royal rat", "5", "spider 3", "object 3–4"."""
    if not isinstance(card, dict):
        return _("a card")
    kind = card.get("kind")
    value = card.get("value")
    if kind == "object":
        values = card.get("values")
        if isinstance(values, list) and len(values) == 2:
            return _("object %(band)s") % {"band": _band(values)}
        return word("object")
    if kind == "number" and isinstance(value, int):
        return str(value)
    text = word(kind) if isinstance(kind, str) else _("a card")
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{text} {value}"
    return text


def claim_name(claim: Any) -> str:
    return word(claim) if isinstance(claim, str) else "?"


# --- Cockroach Poker Royal ---------------------------------------------------------------------


def _offered(d: dict[str, Any], w: Words) -> str:
    return _("%(giver)s offered %(receiver)s a card, claiming “%(claim)s”.") % {
        "giver": w.name(d.get("from")),
        "receiver": w.name(d.get("to")),
        "claim": claim_name(d.get("claim")),
    }


def _passed(d: dict[str, Any], w: Words) -> str:
    return _("%(giver)s passed the card on to %(receiver)s, claiming “%(claim)s”.") % {
        "giver": w.name(d.get("from")),
        "receiver": w.name(d.get("to")),
        "claim": claim_name(d.get("claim")),
    }


def _peeked(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s looked at the card and must pass it on.") % {"name": w.name(d.get("seat"))}


def _your_card(d: dict[str, Any], w: Words) -> str:
    return _("The card (a secret for its holder): %(card)s.") % {"card": w.card(d.get("card"))}


def _called(d: dict[str, Any], w: Words) -> str:
    values = {
        "caller": w.name(d.get("seat")),
        "claim": claim_name(d.get("claim")),
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
    values = {"name": w.name(d.get("seat")), "card": claim_name(d.get("special"))}
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


ROYAL_REASONS = {
    "row_limit": lambda: _("too many of one creature in their row"),
    "empty_hand": lambda: _("they had to offer and had no card"),
    "only_special_cards": lambda: _("only the special cards were left in the hands"),
    "only_special_in_hand": lambda: _("they had to offer and held only special cards"),
    "offer_limit": lambda: _("after 500 offers, the longest row"),
}


def reason_text(reason: Any) -> str:
    """A game end's reason in words (the engines' reasons are keys, or English sentences)."""
    if isinstance(reason, str) and reason in ROYAL_REASONS:
        return ROYAL_REASONS[reason]()
    if reason == "two_pairs":
        return _("two pairs laid down")
    if reason == "turn_limit":
        return _("the turn limit: most pairs laid down")
    if isinstance(reason, str) and "lowest total" in reason:
        return _("lowest total after every round")
    return word(reason) if isinstance(reason, str) else ""


def _game_over(d: dict[str, Any], w: Words) -> str:
    if "losers" in d and "detail" in d:  # Cockroach Poker Royal
        return _("Game over: %(losers)s lost (%(reason)s). %(winners)s win.") % {
            "losers": w.names(d.get("losers")),
            "reason": reason_text(d.get("reason")),
            "winners": w.names(d.get("winners")),
        }
    if "scores" in d:  # Mogel Motte
        text = _("Game over. Penalty points: %(scores)s.") % {"scores": w.scores(d.get("scores"))}
        if "winners" in d:  # since it carries the result (older games: a game_result event)
            text += " " + _game_result({"result": d}, w)
        return text
    if "winners" in d:  # Imperador
        return _("Game over: %(winners)s won (%(reason)s).") % {
            "winners": w.names(d.get("winners")),
            "reason": reason_text(d.get("reason")),
        }
    return _("Game over.")


def _game_result(d: dict[str, Any], w: Words) -> str:
    """Mogel Motte's second end event in games stored before it had only ``game_over``."""
    result = d.get("result")
    if not isinstance(result, dict):
        return _("Game over.")
    return _("Winner: %(winners)s (lowest total).") % {"winners": w.names(result.get("winners"))}


# --- Mogel Motte ---------------------------------------------------------------------------


def _played(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s played %(card)s.") % {
        "name": w.name(d.get("seat")),
        "card": w.card(d.get("card")),
    }


def _turn_started(d: dict[str, Any], w: Words) -> str:
    if "emperor" in d:  # Imperador
        return _("Turn %(turn)s: %(name)s is emperor.") % {
            "turn": d.get("turn"),
            "name": w.name(d.get("emperor")),
        }
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
    count = d.get("draw_count") if isinstance(d.get("draw_count"), int) else 0
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


# --- Imperador -------------------------------------------------------------------------------


def _band(values: Any) -> str:
    if isinstance(values, list) and len(values) == 2:
        return f"\u2066{values[0]}–{values[1]}\u2069"  # isolated: stays "3–4" in Persian
    return "?"


def _band_announced(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s announces the band %(band)s.") % {
        "name": w.name(d.get("emperor")),
        "band": _band(d.get("values")),
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
    return _("Hands: %(hands)s.") % {"hands": ", ".join(parts)}


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
    seats = d.get("seats") if isinstance(d.get("seats"), list) else []
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
        "band": _band((d.get("object") or {}).get("values")),
    }


def _slot(slot: Any) -> Any:
    return slot + 1 if isinstance(slot, int) else "?"


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
        "band": _band((d.get("object") or {}).get("values")),
    }


def _emperor_stays(d: dict[str, Any], w: Words) -> str:
    return _("Nobody raised a hand: %(name)s stays emperor.") % {"name": w.name(d.get("emperor"))}


def _emperor_passed(d: dict[str, Any], w: Words) -> str:
    values = {"old": w.name(d.get("from")), "new": w.name(d.get("to"))}
    if d.get("forced"):
        return _("%(old)s reigned two turns: %(new)s becomes emperor.") % values
    return _("%(old)s hands the emperor card to %(new)s.") % values


def _foxes_shed(d: dict[str, Any], w: Words) -> str:
    return _("%(names)s discard a fox.") % {"names": w.names(d.get("seats"))}


def _sheep_taken(d: dict[str, Any], w: Words) -> str:
    return _("%(name)s takes a sheep.") % {"name": w.name(d.get("seat"))}


def _sheep_returned(d: dict[str, Any], w: Words) -> str:
    return _("Everybody had a sheep: all sheep go back.")


SENTENCES: dict[str, Callable[[dict[str, Any], Words], str]] = {
    # Cockroach Poker Royal
    "offered": _offered,
    "passed": _passed,
    "peeked": _peeked,
    "your_card": _your_card,
    "called": _called,
    "special_to_hand": _special_to_hand,
    "to_row": _to_row,
    "penalty": _penalty,
    "named": _named,
    # shared
    "game_over": _game_over,
    "turn_started": _turn_started,
    # Mogel Motte
    "game_result": _game_result,
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
    # Imperador
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

SEAT_KEYS = {"seat", "from", "to", "by", "guard", "target", "emperor", "giver", "receiver", "taker"}


def _fallback(kind: str, data: dict[str, Any], w: Words) -> str:
    """Any other event: its kind in words, then its data with seats as names."""
    parts = []
    for key, value in data.items():
        if key in SEAT_KEYS and isinstance(value, int):
            shown = w.name(value)
        elif isinstance(value, dict) and "kind" in value:
            shown = w.card(value)
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            shown = w.cards(value)
        elif isinstance(value, str):
            shown = word(value)
        else:
            shown = str(value)
        parts.append(f"{word(key)}: {shown}")
    text = word(kind)
    text = text[:1].upper() + text[1:]
    return f"{text} ({', '.join(parts)})" if parts else f"{text}."


def sentence(event: dict[str, Any], players: Sequence[str]) -> str:
    """One sentence for ``event`` (``{"kind", "data"}``) with seats named from ``players``."""
    kind = str(event.get("kind", ""))
    data = event.get("data") if isinstance(event.get("data"), dict) else {}
    words = Words(players)
    build = SENTENCES.get(kind)
    if build is not None:
        try:
            text = build(data, words)
        except (KeyError, TypeError, ValueError):  # odd data: say what we can
            text = ""
        if text:
            return text[:1].upper() + text[1:]
    return _fallback(kind, data, words)


# Routine events the log shows in small print.
MINOR_KINDS = frozenset({"turn_started", "hands_window_opened", "drew"})


def is_minor(event: dict[str, Any]) -> bool:
    return event.get("kind") in MINOR_KINDS


def is_secret(event: dict[str, Any]) -> bool:
    """Whether the event is one only some seats see while the game runs."""
    return event.get("kind") in SECRET_KINDS
