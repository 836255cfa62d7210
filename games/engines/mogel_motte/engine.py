"""Mogel Motte (Cheating Moth): shed your hand on a +/-1 discard pile while the guard watches.

Rules: /work/shared/rules/mogel-motte.md (rules_version 2). Modules: ``cards`` (the deck and
its one value table), ``rules`` (state helpers, windows, rounds), ``actions`` (legality and
effects), ``views`` (allowlisted views), ``bot``.

Readings (where the rules left a choice to the engine):

- The Guard Bug is a marker, not a card id: ``state["guard"]``; card ids 0..70 are the 71
  dealt cards, so ``card_zones`` covers those.
- Turns are numbered from 1 in each round; the starting guard's first turn is turn 1. A
  card slipped during turn t falls when turn t+1 ends, i.e. as turn t+2 begins, before
  anything else happens in turn t+2. The 300-turn safety ends the round when its 300th
  turn ends (instead of a 301st turn beginning); sleeves are scored then too.
- An accusation's hand-over must be a non-moth card and, during a gift window, not the
  card the guard has already chosen as a gift. The card is named even on a wrong
  accusation (it then stays put, unseen).
- Nobody may cheat away a card they owe: their chosen gift, or, while they still owe a
  spider hand-over or a gift choice, their last non-moth card. Otherwise the missing gift
  would show everybody who cheated while the card is still catchable.
- The gift window asks every player except the slowest who holds a non-moth card when it
  opens (the mosquito's player included). Who is asked is public (a player with only moths
  gives nothing, which everybody sees once the gifts move); who has already chosen is not.
  A guard who hands over their last non-moth card in a right accusation before choosing
  gives nothing; when nobody still owes a choice the gifts move at once.
- Race and slap answers are secret while the window is open (the public waiting list shows
  every asked seat). When a slap window closes only the slowest is announced.
- A spider's hand-over is a separate step of the same turn (``give``). A spider whose
  player has no non-moth card left (or hands it over as guard in a right accusation
  before giving) does nothing.
- The round-end check runs after every action: a player left without hand and sleeve by a
  spider hand-over, a gift, a right accusation's hand-over, a race or a card falling to the
  floor ends the round too. Several players can be out at once (all score 0).
- Ties for the lowest total all win; everybody else is listed as a loser.
- The view lists the fidget notices whose card may still be caught (slipped this turn or
  the one before), numbered, and by turn only; nothing links a notice to a seat or to a
  later right accusation. The round's count of notices and the last accusation (guard,
  target, right or wrong) are public; the full history lives in the event log.
- "At least 2 cards in hand" for a cheat counts the hand only (not the sleeve), a chosen
  gift included. Moths are never race cards, gifts or spider hand-overs.
- After the game the view shows every zone as it stands at the end of the last round.
- The bot suspects whoever was active when the fresh fidget happened (public: the notice
  carries its turn, the seat then active and the guard); it accuses once per fidget. It
  decides from its seat's view and legal actions only.
- Rules version 2 (a safety cap, like the 300 turns): a turn allows at most 2 x players
  cheats and accusations together; then neither is legal until the next turn begins. The
  cap exists so that a game has a longest length (``max_moves``): without it a cheat and a
  right accusation could alternate for ever inside one turn. Version 1 games play on
  without it.
- The longest game (``max_moves``): players rounds of at most 300 turns; a turn holds a play
  or draw, then a spider hand-over, or a race window (at most one answer per seat, or fewer
  and the timeout), or a slap and a gift window (at most players - 1 answers each), and at
  most 2 x players cheats and accusations.
- ``first_seat`` names the starting guard; ``first_guard`` (its name before every engine used
  ``first_seat``) is still accepted, so stored tables still start and replay.
- The end of the game is one ``game_over`` event carrying the result (winners, losers,
  scores, reason).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines.core import (
    Action,
    Event,
    LegalFromList,
    State,
    Waiting,
    aside_from_view,
    bot_from_view,
    gettext_noop,
    public,
    require,
    require_type,
)
from games.engines.mogel_motte import actions, bot, rules, views

START_OPTION = "first_seat"
LEGACY_START_OPTION = "first_guard"


class MogelMotte(LegalFromList):
    slug = "mogel-motte"
    # The option naming who starts; the table's creator may pick it (a [D] of the rules).
    start_option = START_OPTION
    start_options: tuple[str, ...] = (START_OPTION, LEGACY_START_OPTION)
    creator_picks_start = True
    name = "Mogel Motte"
    bot_asides = True  # sleeve cheats and accusations
    window_answers = frozenset({"race", "decline", "slap", "gift"})
    min_players = 3
    max_players = 5

    def __init__(self, rules_version: int = rules.RULES_VERSION) -> None:
        # The version new games get from ``setup``; a state keeps its own and the changed
        # rules read it there, so any instance plays an older game by its own rules.
        self.rules_version = rules_version

    def max_moves(self, players: int) -> int:
        """The bound of rules version 2 (see the readings). A version 1 game has no cap on
        cheats and accusations, hence no true bound; this figure still bounds what bots
        do there (one cheat per empty sleeve, one accusation per fidget)."""
        own = 1 + max(1, players, 2 * (players - 1))
        asides = rules.ASIDES_PER_SEAT * players
        return players * rules.TURN_LIMIT * (own + asides)

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        require(
            isinstance(players, int) and self.min_players <= players <= self.max_players,
            "bad_players",
            gettext_noop("Mogel Motte is for 3 to 5 players."),
        )
        options = dict(options or {})
        unknown = set(options) - {START_OPTION, LEGACY_START_OPTION}
        require(
            not unknown,
            "bad_option",
            gettext_noop("Unknown options: %(options)s."),
            options=", ".join(sorted(map(str, unknown))),
        )
        first_guard = options.get(START_OPTION, options.get(LEGACY_START_OPTION))
        if first_guard is not None:
            require(
                isinstance(first_guard, int)
                and not isinstance(first_guard, bool)
                and 0 <= first_guard < players,
                "bad_option",
                gettext_noop("'%(option)s' must be a seat number."),
                option=START_OPTION,
            )
        return rules.new_state(players, first_guard, seed, self.rules_version)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return actions.legal_actions(state, seat)

    def apply(self, state: State, seat: int | None, action: Action) -> tuple[State, list[Event]]:
        kind = require_type(action, actions.FIELDS)
        actions.check_fields(action, kind)
        require(state["phase"] != "over", "game_over", gettext_noop("The game is over."))
        events: list[Event] = []
        if seat is None:
            require(kind == "timeout", "bad_seat", gettext_noop("Only players take actions."))
            require(
                state["phase"] in rules.WINDOWS, "no_window", gettext_noop("No window is open.")
            )
            new = rules.copy_state(state)
            actions.do_timeout(new, events)
        else:
            require(
                isinstance(seat, int)
                and not isinstance(seat, bool)
                and 0 <= seat < state["players"],
                "bad_seat",
                gettext_noop("There is no such seat."),
            )
            require(kind != "timeout", "bad_seat", gettext_noop("Only the system closes a window."))
            new = rules.copy_state(state)
            actions.HANDLERS[kind](new, seat, action, events)
        rules.settle(new, events)
        if new["phase"] == "over":
            result = self.result(new)
            assert result is not None  # the phase is "over"
            events.append(public("game_over", **result))
        return new, events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.waiting_for(state), self.result(state))

    def waiting_for(self, state: State) -> Waiting:
        phase = state["phase"]
        if phase == "over":
            return Waiting.nobody()
        if phase in ("play", "spider"):
            # the turn counter: a cheat or an accusation inside a turn does not start a new one
            return Waiting.turn(state["active"], step=state["turn"])
        shown = range(state["players"]) if phase == "race" else state["window"]["asked"]
        return Waiting.open_window(phase, rules.remaining(state), shown=shown)

    def result(self, state: State) -> dict[str, Any] | None:
        if state["phase"] != "over":
            return None
        scores = list(state["scores"])
        best = min(scores)
        winners = [s for s, points in enumerate(scores) if points == best]
        losers = [s for s, points in enumerate(scores) if points != best]
        reason = f"{state['rounds']} rounds played; lowest total wins"
        if any(r["reason"] == "turn_limit" for r in state["round_scores"]):
            reason += " (a round hit the 300-turn safety end)"
        return {"winners": winners, "losers": losers, "scores": scores, "reason": reason}

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        return bot_from_view(self, state, seat, rng, bot.decide)

    def bot_aside(self, state: State, seat: int, rng: random.Random) -> Action | None:
        return aside_from_view(self, state, seat, rng, bot.aside)

    def card_zones(self, state: State) -> dict[str, list[int]]:
        zones: dict[str, list[int]] = {
            "draw": list(state["draw"]),
            "discard": list(state["discard"]),
        }
        for s in range(state["players"]):
            zones[f"hand_{s}"] = list(state["hands"][s])
            sleeve = state["sleeves"][s]
            zones[f"sleeve_{s}"] = [] if sleeve is None else [sleeve]
            zones[f"floor_{s}"] = list(state["floor"][s])
        return zones
