"""The actions a seat may take, their validation, and what they do.

Actions (all fields required):

- ``{"type": "offer", "card": id, "to": seat, "claim": claim}``: the active player
  offers a card from their hand face down.
- ``{"type": "call", "says": "true" | "false"}``: the receiver calls the current claim.
- ``{"type": "peek"}``: the receiver looks at the card; they must then pass it.
- ``{"type": "pass", "to": seat, "claim": claim}``: pass the peeked card to a player who
  has not seen it, with a claim.
- ``{"type": "name", "cards": [id, ...]}``: the taker of a special card names the cards
  that go into their row, in order.

Error codes: ``malformed``, ``unknown_action``, ``unknown_field``, ``bad_choice``, ``game_over``,
``not_your_turn``, ``wrong_phase``, ``not_in_hand``, ``bad_target``, ``must_call``,
``bad_naming``, ``no_window``.
"""

from __future__ import annotations

from typing import Any

from games.engines.cockroach_poker import cards as C
from games.engines.cockroach_poker import rules as R
from games.engines.core import (
    Action,
    Event,
    IllegalAction,
    State,
    gettext_noop,
    int_field,
    private,
    public,
    require,
    require_fields,
    require_type,
    str_field,
)

FIELDS: dict[str, tuple[str, ...]] = {
    "offer": ("card", "to", "claim"),
    "call": ("says",),
    "peek": (),
    "pass": ("to", "claim"),
    "name": ("cards",),
    "timeout": (),
}
ACTION_TYPES = tuple(FIELDS)
SAYS = ("true", "false")


def _on_turn(state: State, seat: Any) -> bool:
    """Only the active seat of a running game has moves."""
    return state["result"] is None and seat is not None and seat == state["active"]


def legal_actions(state: State, seat: Any) -> list[Action]:
    if not _on_turn(state, seat):
        return []
    phase = state["phase"]
    n = state["players"]
    if phase == "offer":
        targets = [t for t in range(n) if t != seat]
        return [
            {"type": "offer", "card": card, "to": to, "claim": claim}
            for card in state["hands"][seat]
            for to in targets
            for claim in C.CLAIMS
        ]
    if phase == "answer":
        moves: list[Action] = [{"type": "call", "says": says} for says in SAYS]
        if R.may_peek(state):
            moves.append({"type": "peek"})
        return moves
    if phase == "pass":
        seen = set(state["round"]["seen"])
        return [
            {"type": "pass", "to": to, "claim": claim}
            for to in range(n)
            if to not in seen
            for claim in C.CLAIMS
        ]
    if phase == "name":
        task = state["tasks"][-1]
        return [{"type": "name", "cards": option} for option in R.naming_options(state, seat, task)]
    return []


def may_act(state: State, seat: Any) -> bool:
    """``bool(legal_actions(state, seat))`` without building the list (a notice's check)."""
    if not _on_turn(state, seat):
        return False
    phase = state["phase"]
    if phase == "offer":
        return bool(state["hands"][seat]) and state["players"] > 1
    if phase == "answer":
        return True  # a call is always possible
    if phase == "pass":
        seen = state["round"]["seen"]
        return any(to not in seen for to in range(state["players"]))
    if phase == "name":
        return bool(R.naming_options(state, seat, state["tasks"][-1]))
    return False


_KEYS = {kind: {"type", *fields} for kind, fields in FIELDS.items()}


def is_legal(state: State, seat: Any, action: Any) -> bool:
    """``action in legal_actions(state, seat)`` without building the list: the same keys and
    each value ``==`` to one the list would hold (an offer phase lists ~300)."""
    if not isinstance(action, dict) or not _on_turn(state, seat):
        return False
    phase = state["phase"]
    kind = action.get("type")
    keys = _KEYS.get(kind) if isinstance(kind, str) else None
    if keys is None or action.keys() != keys:
        return False
    n = state["players"]
    if phase == "offer":
        return (
            kind == "offer"
            and action["card"] in state["hands"][seat]
            and action["to"] in [t for t in range(n) if t != seat]
            and action["claim"] in C.CLAIMS
        )
    if phase == "answer":
        if kind == "call":
            return action["says"] in SAYS
        return kind == "peek" and R.may_peek(state)
    if phase == "pass":
        seen = state["round"]["seen"]
        return (
            kind == "pass"
            and action["to"] in [t for t in range(n) if t not in seen]
            and action["claim"] in C.CLAIMS
        )
    if phase == "name":
        options = R.naming_options(state, seat, state["tasks"][-1])
        return kind == "name" and action["cards"] in options
    return False


def apply(state: State, seat: Any, action: Any) -> tuple[State, list[Event]]:
    kind = require_type(action, ACTION_TYPES)
    require_fields(action, kind, FIELDS)
    if kind == "timeout":
        raise IllegalAction(
            "no_window", gettext_noop("This game has no reaction windows to close.")
        )
    require(state["result"] is None, "game_over", gettext_noop("The game is over."))
    require(
        not isinstance(seat, bool) and isinstance(seat, int) and seat == state["active"],
        "not_your_turn",
        gettext_noop("It is not your turn."),
    )
    handler = {"offer": _offer, "call": _call, "peek": _peek, "pass": _pass, "name": _name}[kind]
    new = R.copy_state(state)
    events: list[Event] = []
    handler(new, seat, action, events)
    return new, events


def _phase(state: State, wanted: str, refusal: str) -> None:
    """``refusal``: the whole sentence (a verb filled into one would stay untranslated)."""
    if state["phase"] != wanted:
        if state["phase"] == "pass" and wanted == "answer":
            raise IllegalAction(
                "must_pass", gettext_noop("You looked at the card: now you must pass it on.")
            )
        raise IllegalAction("wrong_phase", refusal)


def _target(state: State, action: Action, seat: int) -> int:
    to = int_field(action, "to")
    require(0 <= to < state["players"], "bad_target", gettext_noop("No such player to give to."))
    require(to != seat, "bad_target", gettext_noop("Give the card to another player."))
    return to


def _offer(state: State, seat: int, action: Action, events: list[Event]) -> None:
    _phase(state, "offer", gettext_noop("You cannot offer a card now."))
    card = int_field(action, "card")
    to = _target(state, action, seat)
    claim = str_field(action, "claim", C.CLAIMS)
    require(
        card in state["hands"][seat], "not_in_hand", gettext_noop("That card is not in your hand.")
    )
    state["hands"][seat].remove(card)
    state["offers"] += 1
    state["round"] = {
        "number": state["offers"],
        "card": card,
        "offerer": seat,
        "chain": [{"from": seat, "to": to, "claim": claim}],
        "seen": [seat],
    }
    state["phase"] = "answer"
    state["active"] = to
    events.append(public("offered", number=state["offers"], to=to, claim=claim, **{"from": seat}))
    events.append(private("your_card", [seat], card=R.card_out(state, card)))


def _call(state: State, seat: int, action: Action, events: list[Event]) -> None:
    _phase(state, "answer", gettext_noop("You cannot call now."))
    says = str_field(action, "says", SAYS)
    rnd = state["round"]
    card = rnd["card"]
    kind = state["kinds"][card]
    last = rnd["chain"][-1]
    claim = last["claim"]
    truth = C.is_true(kind, claim)
    right = (says == "true") == truth
    taker = last["from"] if right else seat
    shown = {"kind": kind} if C.is_special(kind) else R.card_out(state, card)
    events.append(
        public(
            "called",
            number=rnd["number"],
            seat=seat,
            says=says,
            claim=claim,
            chain=rnd["chain"],
            card=shown,
            right=right,
            taker=taker,
        )
    )
    for link in rnd["chain"]:
        record = state["honesty"][link["from"]]
        record["claims"] += 1
        record["true_claims"] += int(C.is_true(kind, link["claim"]))
    past = {
        "number": rnd["number"],
        "offerer": rnd["offerer"],
        "card": card,
        "kind": kind,
        "chain": rnd["chain"],
        "seen": rnd["seen"],
        "caller": seat,
        "says": says,
        "right": right,
        "taker": taker,
    }
    state["recent"] = [*state["recent"], past][-R.RECENT_ROUNDS :]
    R.take_called_card(state, taker, card, claim, events)


def _peek(state: State, seat: int, action: Action, events: list[Event]) -> None:
    _phase(state, "answer", gettext_noop("You cannot look at the card now."))
    require(
        R.may_peek(state),
        "must_call",
        gettext_noop("Everybody else has seen this card: you must call."),
    )
    state["round"]["seen"].append(seat)
    state["phase"] = "pass"
    events.append(public("peeked", seat=seat))
    events.append(private("your_card", [seat], card=R.card_out(state, state["round"]["card"])))


def _pass(state: State, seat: int, action: Action, events: list[Event]) -> None:
    _phase(state, "pass", gettext_noop("You cannot pass the card now."))
    to = _target(state, action, seat)
    claim = str_field(action, "claim", C.CLAIMS)
    rnd = state["round"]
    require(
        to not in rnd["seen"], "bad_target", gettext_noop("That player has already seen this card.")
    )
    rnd["chain"].append({"from": seat, "to": to, "claim": claim})
    state["phase"] = "answer"
    state["active"] = to
    events.append(public("passed", to=to, claim=claim, **{"from": seat}))


def _name(state: State, seat: int, action: Action, events: list[Event]) -> None:
    _phase(state, "name", gettext_noop("You cannot name cards now."))
    named = action.get("cards")
    if (
        not isinstance(named, list)
        or len(named) > 2
        or any(isinstance(c, bool) or not isinstance(c, int) for c in named)
    ):
        raise IllegalAction(
            "malformed", gettext_noop("'cards' must be a list of at most two card ids.")
        )
    task = state["tasks"][-1]
    if named not in R.naming_options(state, seat, task):
        raise IllegalAction(
            "bad_naming",
            gettext_noop(
                "Name one card from your hand that truly matches the claim, or two cards of "
                "your choice (all your non-special cards if you hold fewer than two)."
            ),
        )
    state["tasks"].pop()
    R.name_cards(state, seat, named, events)
    R.settle(state, events)
