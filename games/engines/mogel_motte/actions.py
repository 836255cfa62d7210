"""What each seat may do now, and what each action does.

Actions (every field spelled out in ``legal_actions``):

- ``{"type": "play", "card": id}`` / ``{"type": "draw"}``: the active seat's turn.
- ``{"type": "give", "card": id, "to": seat}``: the spider's player hands a non-moth card over.
- ``{"type": "race", "card": id}`` / ``{"type": "decline"}``: the cockroach race window.
- ``{"type": "slap"}``: the mosquito slap window.
- ``{"type": "gift", "card": id}``: the mosquito gift window.
- ``{"type": "cheat", "card": id}``: any non-guard with an empty sleeve and 2+ cards in hand.
- ``{"type": "accuse", "target": seat, "card": id | null}``: the guard, at any time.
- ``{"type": "timeout"}``: the system closes the open window (seat ``None``).

Error codes: malformed, unknown_action, unknown_field, bad_seat, asides_limit, game_over, not_your_turn, wrong_phase,
no_window, not_asked, not_in_hand, not_playable, must_play, bad_target, not_guard,
guard_cannot_cheat, sleeve_full, last_card, reserved, not_a_match, moth, bad_card;
``setup`` raises bad_players / bad_option, ``bot_action`` no_move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.core import (
    Action,
    Event,
    State,
    gettext_noop,
    int_field,
    private,
    public,
    require,
    require_fields,
    seats_after,
)
from games.engines.mogel_motte import rules
from games.engines.mogel_motte.cards import ANT, COCKROACH, MOSQUITO, MOTH, SPIDER

FIELDS = {
    "play": {"card"},
    "draw": set(),
    "give": {"card", "to"},
    "race": {"card"},
    "decline": set(),
    "slap": set(),
    "gift": {"card"},
    "cheat": {"card"},
    "accuse": {"target", "card"},
    "timeout": set(),
}


def legal_actions(state: State, seat: int) -> list[Action]:
    if state["phase"] == "over" or seat not in range(state["players"]):
        return []
    phase = state["phase"]
    actions: list[Action] = []
    if seat == state["active"] and phase == "play":
        plays = rules.playable(state, seat)
        actions += [{"type": "play", "card": c} for c in plays] or [{"type": "draw"}]
    elif seat == state["active"] and phase == "spider":
        others = seats_after(seat, state["players"])
        actions += [
            {"type": "give", "card": c, "to": to}
            for c in rules.non_moths(state, seat)
            for to in others
        ]
    elif phase in rules.WINDOWS and seat in rules.remaining(state):
        if phase == "race":
            actions += [{"type": "race", "card": c} for c in rules.race_cards(state, seat)]
            actions.append({"type": "decline"})
        elif phase == "slap":
            actions.append({"type": "slap"})
        else:
            actions += [{"type": "gift", "card": c} for c in rules.handover_options(state, seat)]
    actions += [{"type": "cheat", "card": c} for c in rules.cheat_options(state, seat)]
    if seat == state["guard"] and rules.asides_left(state):
        handover: list[int | None] = list(rules.handover_options(state, seat)) or [None]
        actions += [
            {"type": "accuse", "target": target, "card": card}
            for target in seats_after(seat, state["players"])
            for card in handover
        ]
    return actions


# --- validation helpers ------------------------------------------------------------------


def check_fields(action: Mapping[str, Any], kind: str) -> None:
    require_fields(action, kind, FIELDS)


def count_aside(state: State) -> None:
    """A cheat or an accusation: refused once the turn's safety cap is reached."""
    require(
        rules.asides_left(state),
        "asides_limit",
        gettext_noop("Enough cheating and accusing for this turn: wait for the next one."),
    )
    if rules.asides_limit(state) is not None:
        state["asides"] += 1


def card_field(state: State, action: Mapping[str, Any], name: str = "card") -> int:
    card = int_field(action, name)
    require(
        0 <= card < len(rules.kinds(state)),
        "bad_card",
        gettext_noop("There is no card %(card)s."),
        card=card,
    )
    return card


def seat_field(state: State, action: Mapping[str, Any], name: str) -> int:
    seat = int_field(action, name)
    require(
        0 <= seat < state["players"],
        "bad_target",
        gettext_noop("There is no seat %(seat)s."),
        seat=seat,
    )
    return seat


def in_hand(state: State, seat: int, card: int) -> None:
    require(
        card in state["hands"][seat], "not_in_hand", gettext_noop("That card is not in your hand.")
    )


def my_turn(state: State, seat: int, phase: str, what: str) -> None:
    """``what``: the move refused, named in the refusal (``phase`` is where it belongs)."""
    require(seat == state["active"], "not_your_turn", gettext_noop("It is not your turn."))
    require(
        state["phase"] == phase,
        "wrong_phase",
        gettext_noop("This is not the moment to %(what)s."),
        what=what,
    )


def asked(state: State, seat: int, phase: str) -> None:
    require(
        state["phase"] == phase,
        "no_window",
        gettext_noop("No %(window)s window is open."),
        window=phase,
    )
    require(
        seat in rules.remaining(state),
        "not_asked",
        gettext_noop("You have nothing to answer here."),
    )


# --- the actions ---------------------------------------------------------------------------


def do_play(state: State, seat: int, action: Action, events: list[Event]) -> None:
    my_turn(state, seat, "play", "play")
    card = card_field(state, action)
    in_hand(state, seat, card)
    require(
        rules.kinds(state)[card] != MOTH or seat == state["guard"],
        "moth",
        gettext_noop("Only the guard may play a Cheating Moth."),
    )
    require(
        rules.can_play(state, seat, card),
        "not_playable",
        gettext_noop("Play one above or one below."),
    )
    state["hands"][seat].remove(card)
    state["discard"].append(card)
    kind = rules.kinds(state)[card]
    events.append(public("played", seat=seat, card=rules.face(state, card)))
    if rules.count(state, seat) == 0:
        rules.end_round(state, events, "out")  # the card's action does not happen
    elif kind == ANT:
        for other in seats_after(seat, state["players"]):
            rules.draw_one(state, other, events)
        rules.advance(state, events, seat)
    elif kind == SPIDER:
        state["phase"] = "spider"
    elif kind == COCKROACH:
        rules.open_race(state, seat, events)
    elif kind == MOSQUITO:
        rules.open_slap(state, seat, events)
    else:
        rules.advance(state, events, seat)


def do_draw(state: State, seat: int, action: Action, events: list[Event]) -> None:
    my_turn(state, seat, "play", "draw")
    require(
        not rules.playable(state, seat),
        "must_play",
        gettext_noop("You can play, so you must play."),
    )
    rules.draw_one(state, seat, events)
    rules.advance(state, events, seat)


def do_give(state: State, seat: int, action: Action, events: list[Event]) -> None:
    my_turn(state, seat, "spider", "give")
    card = card_field(state, action)
    to = seat_field(state, action, "to")
    in_hand(state, seat, card)
    require(
        rules.kinds(state)[card] != MOTH, "moth", gettext_noop("A Cheating Moth cannot be given.")
    )
    require(to != seat, "bad_target", gettext_noop("Give the card to another player."))
    state["hands"][seat].remove(card)
    state["hands"][to].append(card)
    events.append(public("spider_gave", seat=seat, to=to))
    events.append(
        private("card_given", [seat, to], giver=seat, receiver=to, card=rules.face(state, card))
    )
    rules.advance(state, events, seat)


def do_race(state: State, seat: int, action: Action, events: list[Event]) -> None:
    asked(state, seat, "race")
    card = card_field(state, action)
    in_hand(state, seat, card)
    require(
        card in rules.race_cards(state, seat),
        "not_a_match",
        gettext_noop("Race with a plain number card of the cockroach's value."),
    )
    by = state["window"]["by"]
    state["hands"][seat].remove(card)
    state["discard"].append(card)
    events.append(public("race_won", seat=seat, card=rules.face(state, card)))
    rules.advance(state, events, by)


def do_decline(state: State, seat: int, action: Action, events: list[Event]) -> None:
    asked(state, seat, "race")
    state["window"]["declined"].append(seat)
    events.append(private("declined", [seat], seat=seat))


def do_slap(state: State, seat: int, action: Action, events: list[Event]) -> None:
    asked(state, seat, "slap")
    state["window"]["slapped"].append(seat)
    events.append(private("slapped", [seat], seat=seat))


def do_gift(state: State, seat: int, action: Action, events: list[Event]) -> None:
    asked(state, seat, "gift")
    card = card_field(state, action)
    in_hand(state, seat, card)
    require(
        rules.kinds(state)[card] != MOTH, "moth", gettext_noop("A Cheating Moth cannot be given.")
    )
    state["window"]["chosen"][seat] = card
    events.append(private("gift_chosen", [seat], seat=seat, card=rules.face(state, card)))


def do_cheat(state: State, seat: int, action: Action, events: list[Event]) -> None:
    card = card_field(state, action)
    require(seat != state["guard"], "guard_cannot_cheat", gettext_noop("The guard cannot cheat."))
    count_aside(state)
    require(
        state["sleeves"][seat] is None,
        "sleeve_full",
        gettext_noop("Your sleeve already holds a card."),
    )
    require(
        len(state["hands"][seat]) >= 2,
        "last_card",
        gettext_noop("You cannot cheat away your last card."),
    )
    in_hand(state, seat, card)
    require(
        card not in rules.reserved(state, seat),
        "reserved",
        gettext_noop("That card is owed: your chosen gift or the last card you can give."),
    )
    state["hands"][seat].remove(card)
    state["sleeves"][seat] = card
    state["slipped"][seat] = state["turn"]
    state["fidget_count"] += 1
    state["fidgets"].append(
        {
            "n": state["fidget_count"],
            "turn": state["turn"],
            "guard": state["guard"],  # public facts at the time of the notice
            "active": state["active"],
        }
    )
    events.append(public("fidget", turn=state["turn"], n=state["fidget_count"]))
    events.append(private("slipped", [seat], seat=seat, card=rules.face(state, card)))


def do_accuse(state: State, seat: int, action: Action, events: list[Event]) -> None:
    require(seat == state["guard"], "not_guard", gettext_noop("Only the guard may accuse."))
    target = seat_field(state, action, "target")
    require(target != seat, "bad_target", gettext_noop("Accuse another player."))
    options = rules.handover_options(state, seat)
    if action.get("card") is None and "card" in action:
        require(
            not options, "bad_card", gettext_noop("Name the non-moth card you would hand over.")
        )
        card = None
    else:
        card = card_field(state, action)
        require(
            card in options,
            "bad_card",
            gettext_noop("Name a non-moth card from your hand (not your gift)."),
        )
    count_aside(state)
    caught = state["sleeves"][target]
    state["last_accusation"] = {
        "turn": state["turn"],
        "guard": seat,
        "target": target,
        "right": caught is not None,
        "after_fidget": state["fidget_count"],
    }
    if caught is None:
        events.append(public("accused", guard=seat, target=target, right=False, returned=None))
        rules.draw_one(state, seat, events)
        return
    state["sleeves"][target] = None
    state["slipped"][target] = None
    state["hands"][target].append(caught)
    events.append(
        public(
            "accused",
            guard=seat,
            target=target,
            right=True,
            returned=rules.face(state, caught),
            handed_over=card is not None,
        )
    )
    if card is not None:
        state["hands"][seat].remove(card)
        state["hands"][target].append(card)
        events.append(
            private(
                "handed_over",
                [seat, target],
                giver=seat,
                receiver=target,
                card=rules.face(state, card),
            )
        )
    state["guard"] = target
    events.append(public("new_guard", seat=target))


def do_timeout(state: State, events: list[Event]) -> None:
    phase = state["phase"]
    require(phase in rules.WINDOWS, "no_window", gettext_noop("No window is open."))
    events.append(public("window_timeout", window=phase))
    if phase == "race":
        events.append(public("race_closed", winner=None))
        rules.advance(state, events, state["window"]["by"])
    elif phase == "slap":
        rules.close_slap(state, events)
    else:
        rules.close_gift(state, events, timeout=True)


HANDLERS = {
    "play": do_play,
    "draw": do_draw,
    "give": do_give,
    "race": do_race,
    "decline": do_decline,
    "slap": do_slap,
    "gift": do_gift,
    "cheat": do_cheat,
    "accuse": do_accuse,
}
