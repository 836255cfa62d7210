"""How a game of Cockroach Poker Royal moves: setup, taking cards, penalties, the end.

State (a JSON dict; lists are indexed by seat):

- ``kinds[id]``: what each physical card is (ids are shuffled per game; secret).
- ``hands``, ``rows``: card ids per seat. ``penalty``: the penalty pile, index 0 = the
  face-up top card.
- ``phase``: ``offer`` | ``answer`` (the receiver may call or peek) | ``pass`` (the
  receiver peeked and must pass) | ``name`` (the taker of a special card names cards)
  | ``over``. ``active``: the seat that must act.
- ``round``: the card in transit, its chain of claims and who has seen it.
- ``taker`` and ``tasks``: what the last taker still has to resolve, as a stack (last
  item first): ``place`` (cards going into the row, in order) or ``name`` (a special
  card's naming).
- ``offers``: offers made so far. ``recent``: the last few finished rounds (the whole
  story is the event log, which everybody may read once the game is over).
  ``honesty``: per seat, claims made in finished rounds and how many were true.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engines.cockroach_poker import cards as C
from games.engines.core import Event, IllegalAction, Rng, State, gettext_noop, public

GAME = "cockroach-poker-royal"
RECENT_ROUNDS = 5
START_OPTION = "first_seat"
LEGACY_START_OPTION = "first"


def setup(players: int, options: Any, seed: int, rules_version: int = C.RULES_VERSION) -> State:
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise IllegalAction(
            "bad_players", gettext_noop("Cockroach Poker Royal is for 2 to 6 players.")
        )
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise IllegalAction("bad_option", gettext_noop("Options must be an object."))
    unknown = set(options) - {START_OPTION, LEGACY_START_OPTION}
    if unknown:
        raise IllegalAction(
            "bad_option",
            gettext_noop("Unknown options: %(options)s."),
            options=", ".join(sorted(map(str, unknown))),
        )
    state: State = {
        "game": GAME,
        "rules_version": rules_version,
        "players": players,
        "rng": Rng.initial(seed),
    }
    rng = Rng(state)
    # Tables stored before the option had one name across games say "first".
    first = options.get(START_OPTION, options.get(LEGACY_START_OPTION))
    if first is None:
        first = rng.randrange(players)
    elif isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
        raise IllegalAction(
            "bad_option", gettext_noop("'%(option)s' must be a seat number."), option=START_OPTION
        )
    kinds = C.deck_kinds()
    rng.shuffle(kinds)  # ids never map to a kind across games
    order = list(range(C.DECK_SIZE))
    rng.shuffle(order)
    pile_size = C.penalty_pile_size(players)
    penalty, rest = order[:pile_size], order[pile_size:]
    share, extra = divmod(len(rest), players)
    hands: list[list[int]] = [[] for _ in range(players)]
    pos = 0
    for k in range(players):  # dealt from the first player on; they get the extra card
        take = share + (1 if k == 0 and extra else 0)
        hands[(first + k) % players] = rest[pos : pos + take]
        pos += take
    penalty += rest[pos:]  # leftovers go under the pile
    state.update(
        first=first,
        limit=C.row_limit(players),
        kinds=kinds,
        hands=hands,
        rows=[[] for _ in range(players)],
        penalty=penalty,
        phase="offer",
        active=first,
        round=None,
        taker=None,
        tasks=[],
        offers=0,
        recent=[],
        honesty=[{"claims": 0, "true_claims": 0} for _ in range(players)],
        result=None,
    )
    return state


def copy_state(state: State) -> State:
    """``apply``'s working copy: every list and dict an action may change is copied; the
    rest is shared (a deep copy of the whole state was most of a move's cost). Shared, never
    changed after they are made: ``kinds``, ``result``, the entries of ``recent`` and the
    links of a round's chain."""
    new = dict(state)
    new["rng"] = dict(state["rng"])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["rows"] = [list(row) for row in state["rows"]]
    new["penalty"] = list(state["penalty"])
    rnd = state["round"]
    if rnd is not None:
        new["round"] = {**rnd, "chain": list(rnd["chain"]), "seen": list(rnd["seen"])}
    new["tasks"] = [
        {**task, "cards": list(task["cards"])} if "cards" in task else dict(task)
        for task in state["tasks"]
    ]
    new["honesty"] = [dict(record) for record in state["honesty"]]
    new["recent"] = list(state["recent"])
    return new


def card_out(state: State, card: int) -> dict[str, Any]:
    return {"id": card, "kind": state["kinds"][card]}


def top_card(state: State) -> dict[str, Any] | None:
    return card_out(state, state["penalty"][0]) if state["penalty"] else None


def species_count(state: State, seat: int, species: str) -> int:
    return sum(1 for c in state["rows"][seat] if C.species_of(state["kinds"][c]) == species)


def may_peek(state: State) -> bool:
    """The receiver may pass only if some other player has not seen the card yet."""
    rnd = state["round"]
    return len(set(rnd["seen"]) | {rnd["chain"][-1]["to"]}) < state["players"]


def plain_cards(state: State, seat: int) -> list[int]:
    return [c for c in state["hands"][seat] if not C.is_special(state["kinds"][c])]


def naming_options(state: State, seat: int, task: dict[str, Any]) -> list[list[int]]:
    """Every legal naming: one truly matching card, or two of choice (ordered), or all the
    non-special cards when there are fewer than two. Special cards are never named."""
    plain = plain_cards(state, seat)
    claim = task["claim"]
    options: list[list[int]] = []
    if claim is not None:
        options += [[c] for c in plain if C.is_true(state["kinds"][c], claim)]
    if len(plain) >= 2:
        options += [[a, b] for a in plain for b in plain if a != b]
    elif plain not in options:
        options.append(list(plain))
    return options


# --- the end --------------------------------------------------------------------------


def finish(state: State, loser: int, reason: str, detail: str, events: list[Event]) -> None:
    n = state["players"]
    state["result"] = {
        "winners": [s for s in range(n) if s != loser],
        "losers": [loser],
        "scores": None,
        "reason": reason,
        "detail": detail,
    }
    state["phase"] = "over"
    state["active"] = None
    events.append(public("game_over", **state["result"]))


def begin_round(state: State, seat: int, events: list[Event]) -> None:
    """``seat`` must make the next offer, unless the game ends first."""
    state["round"] = None
    state["taker"] = None
    state["tasks"] = []
    hands, kinds = state["hands"], state["kinds"]
    if not hands[seat]:
        finish(state, seat, "empty_hand", f"Seat {seat} must offer and has no card.", events)
        return
    if all(C.is_special(kinds[c]) for hand in hands for c in hand):
        finish(
            state,
            seat,
            "only_special_cards",
            f"Only the special cards are left in hands; seat {seat} had to offer.",
            events,
        )
        return
    if state["rules_version"] >= 2 and all(C.is_special(kinds[c]) for c in hands[seat]):
        # Decided in rules version 2: a lone special card would otherwise go back and forth
        # (every receiver calls it right) until the 500-offer cap.
        finish(
            state,
            seat,
            "only_special_in_hand",
            f"Seat {seat} must offer and holds only special cards.",
            events,
        )
        return
    if state["offers"] >= C.OFFER_LIMIT:
        n = state["players"]
        order = [(seat + k) % n for k in range(n)]
        most = max(len(state["rows"][s]) for s in order)
        loser = next(s for s in order if len(state["rows"][s]) == most)
        finish(
            state,
            loser,
            "offer_limit",
            f"{C.OFFER_LIMIT} offers were made; seat {loser} has the most cards in their row.",
            events,
        )
        return
    state["phase"] = "offer"
    state["active"] = seat


# --- taking cards ---------------------------------------------------------------------


def place(state: State, seat: int, card: int, events: list[Event]) -> None:
    """One card reaches ``seat``'s row (or hand, if special); a royal's penalty is queued
    on top of the task stack so it resolves before anything else."""
    kind = state["kinds"][card]
    if C.is_special(kind):
        state["hands"][seat].append(card)
        events.append(public("special_to_hand", seat=seat, special=kind, source="penalty"))
        state["tasks"].append({"kind": "name", "special": kind, "claim": None, "source": "penalty"})
        return
    state["rows"][seat].append(card)
    events.append(public("to_row", seat=seat, card=card_out(state, card)))
    species = C.species_of(kind)
    assert species is not None  # the special cards went to the hand above
    if species_count(state, seat, species) >= state["limit"]:
        finish(
            state,
            seat,
            "row_limit",
            f"Seat {seat} has {state['limit']} {C.LABELS[species]} cards in their row.",
            events,
        )
        return
    if C.is_royal(kind) and state["penalty"]:
        penalty = state["penalty"].pop(0)
        events.append(
            public(
                "penalty",
                seat=seat,
                card=card_out(state, penalty),
                new_top=top_card(state),
                pile_size=len(state["penalty"]),
            )
        )
        state["tasks"].append({"kind": "place", "cards": [penalty]})


def name_cards(state: State, seat: int, named: list[int], events: list[Event]) -> None:
    hand = state["hands"][seat]
    for card in named:
        hand.remove(card)
    events.append(public("named", seat=seat, cards=[card_out(state, c) for c in named]))
    if named:
        state["tasks"].append({"kind": "place", "cards": list(named)})


def settle(state: State, events: list[Event]) -> None:
    """Works through the taker's task stack until a choice is needed or the round ends.
    A naming with exactly one possible answer is made at once (nothing to decide)."""
    seat = state["taker"]
    tasks = state["tasks"]
    while state["result"] is None and tasks:
        task = tasks[-1]
        if task["kind"] == "place":
            card = task["cards"].pop(0)
            if not task["cards"]:
                tasks.pop()
            place(state, seat, card, events)
            continue
        options = naming_options(state, seat, task)
        if len(options) > 1:
            state["phase"] = "name"
            state["active"] = seat
            return
        tasks.pop()
        name_cards(state, seat, options[0], events)
    if state["result"] is None:
        begin_round(state, seat, events)


def take_called_card(state: State, taker: int, card: int, claim: str, events: list[Event]) -> None:
    state["round"] = None
    state["taker"] = taker
    kind = state["kinds"][card]
    if C.is_special(kind):
        state["hands"][taker].append(card)
        events.append(public("special_to_hand", seat=taker, special=kind, source="call"))
        state["tasks"] = [{"kind": "name", "special": kind, "claim": claim, "source": "call"}]
    else:
        state["tasks"] = [{"kind": "place", "cards": [card]}]
    settle(state, events)
