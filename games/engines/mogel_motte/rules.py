"""State helpers: reading positions and moving cards. Everything here mutates the working
copy that ``engine.apply`` made; nothing here validates player input.

Phases: ``play`` (the active seat plays or draws), ``spider`` (the active seat gives a card),
``race`` / ``slap`` / ``gift`` (reaction windows) and ``over``.
"""

from __future__ import annotations

from typing import Any

from games.engines.core import Event, Rng, State, private, public, seats_after
from games.engines.mogel_motte.cards import (
    HAND_SIZE,
    MOTH,
    NUMBER,
    PENALTY,
    adjacent,
    decode,
    encode,
    faces,
)

TURN_LIMIT = 300
WINDOWS = ("race", "slap", "gift")
# 2: at most ``ASIDES_PER_SEAT * players`` cheats and accusations in one turn.
RULES_VERSION = 2
ASIDES_PER_SEAT = 2


def asides_limit(state: State) -> int | None:
    """How many cheats and accusations a turn allows (``None``: no cap, rules version 1).

    A safety cap, as the 300 turns are: without it a cheat and a right accusation could
    follow each other for ever inside one turn (the caught cheater becomes guard, the old
    guard cheats, ...), so no game would have a longest length. Twice the players is room
    for every seat to cheat once and be accused once in a turn."""
    if state.get("rules_version", 1) < 2:
        return None
    return ASIDES_PER_SEAT * state["players"]


def asides_left(state: State) -> bool:
    limit = asides_limit(state)
    return limit is None or state.get("asides", 0) < limit


# --- copying -----------------------------------------------------------------------------


def copy_state(state: State) -> State:
    """``apply``'s working copy: the same as ``core.working_copy`` for this state's shape
    (every list and dict that is ever mutated is copied), but an order of magnitude faster.
    Entries of ``fidgets`` and ``round_scores`` are never mutated, nor ``last_accusation``."""
    new = dict(state)
    new["rng"] = dict(state["rng"])
    for key in ("sleeves", "slipped", "draw", "discard", "scores"):
        new[key] = list(state[key])
    for key in ("fidgets", "round_scores"):
        new[key] = list(state[key])
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["floor"] = [list(cards) for cards in state["floor"]]
    window = state["window"]
    if window is not None:
        new["window"] = {k: list(v) if isinstance(v, list) else v for k, v in window.items()}
    return new


# --- reading -----------------------------------------------------------------------------


def kinds(state: State) -> tuple[str, ...]:
    """Each card id's kind (the deck string, decoded once and cached)."""
    return decode(state["deck"])[0]


def values(state: State) -> tuple[int, ...]:
    return decode(state["deck"])[1]


def face(state: State, card: int) -> dict[str, Any]:
    return {"id": card, "kind": kinds(state)[card], "value": values(state)[card]}


def count(state: State, seat: int) -> int:
    """The public card count: hand and sleeve together."""
    return len(state["hands"][seat]) + (state["sleeves"][seat] is not None)


def top_value(state: State) -> int:
    return values(state)[state["discard"][-1]]


def can_play(state: State, seat: int, card: int) -> bool:
    if kinds(state)[card] == MOTH and seat != state["guard"]:
        return False
    return adjacent(values(state)[card], top_value(state))


def playable(state: State, seat: int) -> list[int]:
    return [c for c in state["hands"][seat] if can_play(state, seat, c)]


def non_moths(state: State, seat: int) -> list[int]:
    kind = kinds(state)
    return [c for c in state["hands"][seat] if kind[c] != MOTH]


def committed(state: State, seat: int) -> int | None:
    """The card ``seat`` has chosen as its mosquito gift, which must stay in its hand."""
    if state["phase"] == "gift":
        return state["window"]["chosen"][seat]
    return None


def handover_options(state: State, seat: int) -> list[int]:
    """Non-moth cards ``seat`` may still part with (gift choices, accusation hand-overs)."""
    held = committed(state, seat)
    return [c for c in non_moths(state, seat) if c != held]


def race_cards(state: State, seat: int) -> list[int]:
    wanted = state["window"]["value"]
    kind, value = decode(state["deck"])
    return [c for c in state["hands"][seat] if kind[c] == NUMBER and value[c] == wanted]


def can_cheat(state: State, seat: int) -> bool:
    return (
        state["phase"] != "over"
        and asides_left(state)
        and seat != state["guard"]
        and state["sleeves"][seat] is None
        and len(state["hands"][seat]) >= 2
    )


def owes_non_moth(state: State, seat: int) -> bool:
    """The spider's player before giving, or a gift-window giver before choosing."""
    if state["phase"] == "spider":
        return seat == state["active"]
    if state["phase"] == "gift":
        window = state["window"]
        return seat in window["asked"] and window["chosen"][seat] is None
    return False


def reserved(state: State, seat: int) -> list[int]:
    """Cards ``seat`` may not slip up its sleeve: its chosen gift, and the last non-moth
    card it still owes (cheating it away would show everybody who cheated)."""
    held = committed(state, seat)
    if held is not None:
        return [held]
    owed = non_moths(state, seat)
    return owed if len(owed) == 1 and owes_non_moth(state, seat) else []


def cheat_options(state: State, seat: int) -> list[int]:
    if not can_cheat(state, seat):
        return []
    kept = reserved(state, seat)
    return [c for c in state["hands"][seat] if c not in kept]


def remaining(state: State) -> list[int]:
    """Seats that still owe an answer in the open window (platform-internal: secret)."""
    window = state["window"]
    phase = state["phase"]
    if phase == "race":
        return [s for s in range(state["players"]) if s not in window["declined"]]
    if phase == "slap":
        return [s for s in window["asked"] if s not in window["slapped"]]
    if phase == "gift":
        return [
            s for s in window["asked"] if window["chosen"][s] is None and handover_options(state, s)
        ]
    return []


def someone_out(state: State) -> bool:
    return any(count(state, s) == 0 for s in range(state["players"]))


# --- moving cards ------------------------------------------------------------------------


def draw_one(state: State, seat: int, events: list[Event]) -> int | None:
    """Draws for ``seat``; refills the draw pile from the discard pile (all but its top)."""
    if not state["draw"] and len(state["discard"]) > 1:
        state["draw"] = state["discard"][:-1]
        state["discard"] = state["discard"][-1:]
        Rng(state).shuffle(state["draw"])
        events.append(public("reshuffled", draw_count=len(state["draw"])))
    if not state["draw"]:
        events.append(public("draw_skipped", seat=seat))
        return None
    card = state["draw"].pop()
    state["hands"][seat].append(card)
    events.append(public("drew", seat=seat, draw_count=len(state["draw"])))
    events.append(private("drew_card", [seat], seat=seat, card=face(state, card)))
    return card


def deal_round(state: State, events: list[Event]) -> None:
    players = state["players"]
    ids = list(range(len(kinds(state))))
    Rng(state).shuffle(ids)
    state["hands"] = [ids[s * HAND_SIZE : (s + 1) * HAND_SIZE] for s in range(players)]
    rest = ids[players * HAND_SIZE :]
    state["discard"] = rest[:1]
    state["draw"] = rest[1:]
    state["sleeves"] = [None] * players
    state["slipped"] = [None] * players
    state["floor"] = [[] for _ in range(players)]
    state["guard"] = state["starting_guard"]
    state["active"] = state["starting_guard"]
    state["turn"] = 1
    state["phase"] = "play"
    state["window"] = None
    state["fidgets"] = []
    state["fidget_count"] = 0
    state["last_accusation"] = None
    if asides_limit(state) is not None:
        state["asides"] = 0  # cheats and accusations in this turn
    events.append(
        public(
            "round_started",
            round=state["round"],
            starting_guard=state["starting_guard"],
            top=face(state, state["discard"][-1]),
        )
    )
    for seat in range(players):
        cards = [face(state, c) for c in state["hands"][seat]]
        events.append(private("dealt", [seat], seat=seat, cards=cards))


def new_state(
    players: int, first_guard: int | None, seed: int, rules_version: int = RULES_VERSION
) -> State:
    state: State = {"rules_version": rules_version, "players": players, "rng": Rng.initial(seed)}
    if first_guard is None:
        first_guard = Rng(state).randrange(players)
    deck = faces()
    Rng(state).shuffle(deck)
    state.update(
        deck=encode(deck),
        round=1,
        rounds=players,
        first_guard=first_guard,
        starting_guard=first_guard,
        scores=[0] * players,
        round_scores=[],
    )
    deal_round(state, [])
    return state


def start_turn(state: State, seat: int, events: list[Event]) -> None:
    """``seat`` becomes active: the previous turn ends, sleeve cards slipped two turns ago
    fall to the floor, and a round that has played its last allowed turn ends."""
    if state["turn"] >= TURN_LIMIT:
        end_round(state, events, "turn_limit")
        return
    state["turn"] += 1
    state["active"] = seat
    state["phase"] = "play"
    state["window"] = None
    if asides_limit(state) is not None:
        state["asides"] = 0
    for s in range(state["players"]):
        card = state["sleeves"][s]
        if card is not None and state["slipped"][s] <= state["turn"] - 2:
            state["floor"][s].append(card)
            state["sleeves"][s] = None
            state["slipped"][s] = None
            events.append(public("fell", seat=s, count=count(state, s)))
            events.append(private("fell_card", [s], seat=s, card=face(state, card)))
    # Only the notices whose card may still be caught stay on the table.
    state["fidgets"] = [f for f in state["fidgets"] if f["turn"] >= state["turn"] - 1]
    events.append(public("turn_started", seat=seat, turn=state["turn"]))


def advance(state: State, events: list[Event], after: int) -> None:
    """The action resolved: end the round if someone is out, else the next seat plays."""
    if someone_out(state):
        end_round(state, events, "out")
    else:
        start_turn(state, (after + 1) % state["players"], events)


def end_round(state: State, events: list[Event], reason: str) -> None:
    players = state["players"]
    out = [s for s in range(players) if count(state, s) == 0]
    scores = []
    for s in range(players):
        cards = list(state["hands"][s])
        if state["sleeves"][s] is not None:
            cards.append(state["sleeves"][s])
        scores.append(0 if s in out else sum(PENALTY[kinds(state)[c]] for c in cards))
    for s in range(players):
        state["scores"][s] += scores[s]
    state["round_scores"].append(
        {"round": state["round"], "scores": scores, "out": out, "reason": reason}
    )
    state["window"] = None
    events.append(
        public(
            "round_ended",
            round=state["round"],
            scores=scores,
            totals=list(state["scores"]),
            out=out,
            reason=reason,
        )
    )
    if state["round"] >= state["rounds"]:
        state["phase"] = "over"  # the engine then reports the result in one game_over event
        return
    state["round"] += 1
    state["starting_guard"] = (state["starting_guard"] + 1) % players
    deal_round(state, events)


# --- windows -----------------------------------------------------------------------------


def open_race(state: State, by: int, events: list[Event]) -> None:
    state["phase"] = "race"
    state["window"] = {"name": "race", "by": by, "value": top_value(state), "declined": []}
    events.append(public("race_opened", by=by, value=top_value(state)))


def open_slap(state: State, by: int, events: list[Event]) -> None:
    asked = seats_after(by, state["players"])
    state["phase"] = "slap"
    state["window"] = {"name": "slap", "by": by, "asked": sorted(asked), "slapped": []}
    events.append(public("slap_opened", by=by, asked=sorted(asked)))


def close_slap(state: State, events: list[Event]) -> None:
    window = state["window"]
    slapped = window["slapped"]
    missing = [s for s in seats_after(window["by"], state["players"]) if s not in slapped]
    slowest = missing[0] if missing else slapped[-1]
    events.append(public("slap_closed", by=window["by"], slowest=slowest))
    asked = [s for s in range(state["players"]) if s != slowest and non_moths(state, s)]
    state["phase"] = "gift"
    state["window"] = {
        "name": "gift",
        "by": window["by"],
        "receiver": slowest,
        "asked": asked,
        "chosen": [None] * state["players"],
    }
    events.append(public("gift_opened", by=window["by"], receiver=slowest, givers=asked))


def close_gift(state: State, events: list[Event], timeout: bool) -> None:
    """All gifts move together; at the deadline a missing choice is drawn at random."""
    window = state["window"]
    receiver = window["receiver"]
    chosen = list(window["chosen"])
    if timeout:
        for s in window["asked"]:
            options = handover_options(state, s)
            if chosen[s] is None and options:
                chosen[s] = Rng(state).choice(options)
    givers = []
    for s in window["asked"]:
        card = chosen[s]
        if card is None or card not in state["hands"][s]:
            continue
        state["hands"][s].remove(card)
        state["hands"][receiver].append(card)
        givers.append(s)
        events.append(
            private("gift_given", [s, receiver], giver=s, receiver=receiver, card=face(state, card))
        )
    events.append(public("gifts_moved", receiver=receiver, givers=givers))
    advance(state, events, window["by"])


def settle(state: State, events: list[Event]) -> None:
    """Runs after every action: a player with no cards ends the round; a window nobody owes
    an answer to closes; a spider with nothing left to give is over."""
    while state["phase"] != "over":
        phase = state["phase"]
        if someone_out(state):
            end_round(state, events, "out")
        elif phase == "spider" and not non_moths(state, state["active"]):
            events.append(public("spider_nothing", seat=state["active"]))
            advance(state, events, state["active"])
        elif phase in WINDOWS and not remaining(state):
            if phase == "race":
                events.append(public("race_closed", winner=None))
                advance(state, events, state["window"]["by"])
            elif phase == "slap":
                close_slap(state, events)
            else:
                close_gift(state, events, timeout=False)
        else:
            return
