"""The turn of Imperador as a small state machine.

Phases: ``announce`` -> ``hands`` (secret window) -> ``pick`` / ``name`` -> ``give`` /
``take`` (one exchange at a time) -> ``reveal`` -> ``lay`` -> ``successor`` -> next turn.
Steps with a single possible choice are played automatically; every real choice is one
emperor action. Functions here mutate the working copy they are given and append events.
"""

from __future__ import annotations

from typing import Any

from games.engines.core import Event, Rng, State, private, public, seats_after
from games.engines.imperador.cards import (
    MAX_TURNS,
    band_values,
    card_face,
    copies_in,
    hidden_ids,
    new_turn,
    object_band,
    pairs_in_band,
    rules_of,
)

Events = list[Event]


def transfer(state: State, events: Events, card: int, src: int, dst: int, how: str) -> None:
    """Moves one number card between hands, keeping the fox-hand secrecy up to date.

    A card is hidden from the others only when a fox-free emperor gives it to a fox holder
    (decided): an emperor holding foxes shows his own hand, so whatever leaves or enters it
    is public, and a gift of his lands face up in the fox holder's visible hand. Rules
    version 1 games hid every gift to a fox holder, a fox emperor's included."""
    emperor = state["emperor"]
    foxes = state["foxes"]
    hides = src == emperor and foxes[dst] > 0
    if rules_of(state) >= 2:
        hides = hides and foxes[emperor] == 0
    was_public = foxes[src] > 0 and card not in hidden_ids(state, src)
    state["hands"][src].remove(card)
    state["hidden"][src] = [e for e in state["hidden"][src] if e["card"] != card]
    state["hands"][dst].append(card)
    state["hands"][dst].sort()
    if hides:
        state["hidden"][dst].append({"card": card, "giver": emperor})
    move = {"from": src, "to": dst, "how": how}
    state["turn"]["exchanges"].append(move)
    face = card_face(state, card)
    shown = was_public and not hides
    if rules_of(state) >= 2:
        shown = shown or (foxes[dst] > 0 and not hides)  # it lands in a visible hand
    if how == "named" or shown:
        events.append(public("card_passed", **move, card=face))
    else:
        events.append(public("card_passed", **move, card=None))
        events.append(private("card_seen", (src, dst), **move, card=face))


# --- announce and the hands window ---------------------------------------------------------


def announce(state: State, events: Events, band: int) -> None:
    turn = state["turn"]
    emperor = state["emperor"]
    turn["band"] = band
    turn["asked"] = [s for s in seats_after(emperor, state["players"]) if state["foxes"][s] == 0]
    events.append(
        public("band_announced", emperor=emperor, band=band, values=list(band_values(band)))
    )
    if turn["asked"]:
        state["phase"] = "hands"
        events.append(public("hands_window_opened", asked=sorted(turn["asked"])))
    else:
        close_hands(state, events)


def answer(state: State, events: Events, seat: int, choice: str) -> None:
    turn = state["turn"]
    turn["answers"][seat] = choice
    events.append(private("hand_answered", (seat,), seat=seat, choice=choice))
    if all(turn["answers"][s] is not None for s in turn["asked"]):
        close_hands(state, events)


def close_hands(state: State, events: Events) -> None:
    """Everyone answered or the deadline passed: a missing answer counts as down."""
    turn = state["turn"]
    emperor = state["emperor"]
    hands: list[str] = []
    for s in range(state["players"]):
        if s == emperor:
            hands.append("emperor")
        elif s not in turn["asked"]:
            hands.append("fox")
        else:
            hands.append("raised" if turn["answers"][s] == "raise" else "down")
    turn["hands"] = hands
    order = seats_after(emperor, state["players"])
    turn["raised"] = [s for s in order if hands[s] == "raised"]
    turn["downs"] = [s for s in order if hands[s] in ("down", "fox")]
    events.append(public("hands_shown", hands=hands))
    resolve(state, events)


# --- resolving the announcement --------------------------------------------------------------


def resolve(state: State, events: Events) -> None:
    turn = state["turn"]
    emperor = state["emperor"]
    hand = state["hands"][emperor]
    shown = pairs_in_band(state, hand, turn["band"])
    turn["case"] = "a" if shown else "b" if len(turn["downs"]) >= 2 else "c"
    events.append(public("case", case=turn["case"]))
    if shown:
        turn["shown"] = sorted(c for v in shown for c in copies_in(state, hand, v))
        events.append(
            public(
                "pair_shown", emperor=emperor, cards=[card_face(state, c) for c in turn["shown"]]
            )
        )
        if len(turn["downs"]) == 1:
            pick(state, events, turn["downs"][0])
        else:
            state["phase"] = "pick" if turn["downs"] else "reveal"
    else:
        state["phase"] = "pick" if turn["case"] == "b" else "name"


def pick(state: State, events: Events, seat: int) -> None:
    """The emperor takes a random card from ``seat``, then gives one of his choice."""
    turn = state["turn"]
    emperor = state["emperor"]
    turn["picked"] = seat
    events.append(public("player_picked", emperor=emperor, seat=seat))
    card = Rng(state).choice(sorted(state["hands"][seat]))
    transfer(state, events, card, seat, emperor, "random")
    turn["giving"] = {"to": seat, "not": card}
    state["phase"] = "give"


def give(state: State, events: Events, card: int) -> None:
    turn = state["turn"]
    transfer(state, events, card, state["emperor"], turn["giving"]["to"], "gift")
    turn["giving"] = None
    advance(state, events)


def name(state: State, events: Events, value: int) -> None:
    turn = state["turn"]
    emperor = state["emperor"]
    turn["named"] = value
    events.append(public("value_named", emperor=emperor, value=value))
    liars = [s for s in turn["raised"] if copies_in(state, state["hands"][s], value)]
    turn["liars"] = liars
    for s in liars:
        state["foxes"][s] += 2
        state["hidden"][s] = []
    if liars:
        events.append(public("liars_caught", seats=liars, foxes=2))
    queue = []
    for s in turn["downs"]:  # at most one in case (c)
        if copies_in(state, state["hands"][s], value):
            queue.append({"step": "named", "from": s})
    queue += [{"step": "liar", "from": s} for s in liars]
    if not queue:
        events.append(public("nobody_holds", value=value))
    turn["queue"] = queue
    advance(state, events)


def advance(state: State, events: Events) -> None:
    """Runs the next pending exchange of case (c), or moves on to the reveal."""
    turn = state["turn"]
    emperor = state["emperor"]
    if not turn["queue"]:
        turn["taking_from"] = None
        state["phase"] = "reveal"
        return
    step = turn["queue"].pop(0)
    src = step["from"]
    if step["step"] == "named" or not turn["got_named"]:
        card = copies_in(state, state["hands"][src], turn["named"])[0]
        turn["got_named"] = True
        transfer(state, events, card, src, emperor, "named")
        turn["giving"] = {"to": src, "not": card}
        state["phase"] = "give"
    else:
        turn["taking_from"] = src
        state["phase"] = "take"


def take(state: State, events: Events, card: int) -> None:
    turn = state["turn"]
    src = turn["taking_from"]
    turn["taking_from"] = None
    transfer(state, events, card, src, state["emperor"], "chosen")
    turn["giving"] = {"to": src, "not": card}
    state["phase"] = "give"


# --- reveal, lay, succession -----------------------------------------------------------------


def reveal(state: State, events: Events, slot: int) -> None:
    emperor = state["emperor"]
    obj = state["grid"][slot]
    band = object_band(state, obj)
    state["seen"][slot] = True
    state["turn"]["revealed"] = {"slot": slot, "band": band, "laid": None}
    events.append(
        public("object_revealed", emperor=emperor, slot=slot, object=card_face(state, obj))
    )
    fitting = pairs_in_band(state, state["hands"][emperor], band)
    if len(fitting) == 1:
        lay(state, events, fitting[0])
    elif fitting:
        state["phase"] = "lay"
    else:
        events.append(public("object_turned_down", slot=slot))
        to_successor(state, events)


def lay(state: State, events: Events, value: int) -> None:
    emperor = state["emperor"]
    revealed = state["turn"]["revealed"]
    slot = revealed["slot"]
    cards = copies_in(state, state["hands"][emperor], value)
    for card in cards:
        state["hands"][emperor].remove(card)
    state["hidden"][emperor] = [e for e in state["hidden"][emperor] if e["card"] not in cards]
    obj = state["grid"][slot]
    state["grid"][slot] = None
    state["laid"][emperor].append({"object": obj, "cards": sorted(cards)})
    revealed["laid"] = value
    events.append(
        public(
            "pair_laid",
            seat=emperor,
            slot=slot,
            object=card_face(state, obj),
            cards=[card_face(state, c) for c in sorted(cards)],
        )
    )
    if len(state["laid"][emperor]) >= 2:
        finish(state, events, [emperor], "two_pairs")
    else:
        to_successor(state, events)


def successor_candidates(state: State) -> list[int]:
    turn = state["turn"]
    sheep = state["sheep"]
    for tier in (
        [s for s in turn["liars"] if not sheep[s]],
        [s for s in turn["raised"] if not sheep[s]],
        list(turn["raised"]),
    ):
        if tier:
            return sorted(tier)
    return []


def to_successor(state: State, events: Events) -> None:
    players = state["players"]
    emperor = state["emperor"]
    candidates = successor_candidates(state)
    # 3 players: an emperor who would stay after two turns in a row hands on instead. Since
    # rules version 2 only when nobody raised (he would stay); before, whatever the hands.
    limit = players == 3 and state["reign"] >= 2
    if limit and (not candidates or rules_of(state) < 2):
        order = seats_after(emperor, players)
        without = [s for s in order if not state["sheep"][s]]
        hand_over(state, events, (without or order)[0], forced=True)
        return
    if not candidates:
        events.append(public("emperor_stays", emperor=emperor))
        state["reign"] += 1
        next_turn(state, events)
    elif len(candidates) == 1:
        hand_over(state, events, candidates[0])
    else:
        state["phase"] = "successor"


def hand_over(state: State, events: Events, seat: int, forced: bool = False) -> None:
    old = state["emperor"]
    state["emperor"] = seat
    state["reign"] = 1
    events.append(public("emperor_passed", **{"from": old, "to": seat, "forced": forced}))
    shed = [s for s in range(state["players"]) if state["foxes"][s] > 0]
    for s in shed:
        state["foxes"][s] -= 1
        if state["foxes"][s] == 0:
            state["hidden"][s] = []
    if shed:
        events.append(public("foxes_shed", seats=shed))
    if not state["sheep"][seat]:
        state["sheep"][seat] = True
        events.append(public("sheep_taken", seat=seat))
    if all(state["sheep"]):
        state["sheep"] = [False] * state["players"]
        events.append(public("sheep_returned"))
    next_turn(state, events)


def next_turn(state: State, events: Events) -> None:
    if state["turn_number"] >= MAX_TURNS:
        pairs = [len(laid) for laid in state["laid"]]
        best = max(pairs)
        finish(
            state, events, [s for s in range(state["players"]) if pairs[s] == best], "turn_limit"
        )
        return
    state["turn_number"] += 1
    state["turn"] = new_turn(state["players"])
    state["phase"] = "announce"
    events.append(public("turn_started", turn=state["turn_number"], emperor=state["emperor"]))


def finish(state: State, events: Events, winners: list[int], reason: str) -> None:
    state["phase"] = "over"
    state["winners"] = sorted(winners)
    state["reason"] = reason
    events.append(public("game_over", winners=state["winners"], reason=reason))


def result_of(state: State) -> dict[str, Any] | None:
    if state["phase"] != "over":
        return None
    winners = state["winners"]
    return {
        "winners": list(winners),
        "losers": [s for s in range(state["players"]) if s not in winners],
        "scores": [len(laid) for laid in state["laid"]],
        "reason": state["reason"],
    }
