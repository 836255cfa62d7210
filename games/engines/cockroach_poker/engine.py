"""Cockroach Poker Royal: the engine object the registry knows.

Readings (where the rules file leaves a choice, this is what the engine does):

- A naming with exactly one possible answer (the taker holds no non-special card, or
  exactly one) is made at once, without asking: there is nothing to decide.
- Named cards leave the hand when they are named. If a royal among them draws a special
  card as its penalty, that special card's naming (two of choice, from what is left in
  the hand) resolves before the remaining named cards go down. If a row reaches the
  limit before all named cards are down, the rest stay where they are
  (``named_not_placed`` in the final reveal).
- The checks at the start of a round run in this order: the player who must offer has
  no card (they lose); no hand holds a non-special card (the player who must offer
  loses); 500 offers were made (the most cards in a row loses; among tied seats, the
  first in play order starting with the player who must offer).
- The receiver's ``peek`` counts as having seen the card; ``pass`` then goes to a seat
  that has not seen it. A seat may call only about the last claim of the chain.
- There are no reaction windows: a system ``timeout`` is always refused, and a turn
  deadline is played by the bot.
- ``first_seat`` may be given as an option (the table's creator picks); otherwise it is
  drawn from the seed. ``first`` (its name before every engine used ``first_seat``) is still
  accepted, so tables stored with it still start and replay.
- A special card taken as a penalty is named like the others: two non-special cards of
  choice, or all of them if the taker holds fewer than two.
- "No player holds any card other than the two special cards" counts empty hands as
  holding nothing else, so it also ends a game where the specials are all that is left.
- The reveal replay is the event log (every event is shown to all once the game is
  over; ``called`` events carry the whole chain and the card). The state and the views
  keep only the last 5 rounds plus each seat's public record of claims made and how
  many were true, so the state stays small.
- Rules version 2 (decided): a player who must offer and holds only special cards loses
  (reason ``only_special_in_hand``), checked after the two checks above. Version 1 games
  (``state["rules_version"] == 1``) play on without it: there a lone blank or joker could go
  back and forth until the 500-offer rule.
- The longest game (``max_moves``): at most 500 offers; an offer's round is the offer, at
  most ``players - 2`` peek-and-pass pairs and a call; then at most two namings (there are
  two special cards). No windows, no out-of-turn moves.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from games.engines.cockroach_poker import actions, bot, rules, views
from games.engines.cockroach_poker import cards as C
from games.engines.core import Action, Event, State, Waiting, bot_from_view


class CockroachPokerRoyal:
    slug = "cockroach-poker-royal"
    # The option naming who starts; the table's creator may pick it (a [D] of the rules).
    start_option = rules.START_OPTION
    start_options: tuple[str, ...] = (rules.START_OPTION, rules.LEGACY_START_OPTION)
    creator_picks_start = True
    name = "Cockroach Poker Royal"
    bot_asides = False
    window_answers: frozenset[str] = frozenset()  # every wait is a turn
    min_players = 2
    max_players = 6

    def __init__(self, rules_version: int = C.RULES_VERSION) -> None:
        # The version new games get from ``setup``; a state keeps its own and the changed
        # rules read it there, so any instance plays an older game by its own rules.
        self.rules_version = rules_version

    def max_moves(self, players: int) -> int:
        round_moves = 1 + 2 * max(0, players - 2) + 1  # offer, peek+pass pairs, call
        return C.OFFER_LIMIT * (round_moves + 2)  # + at most two namings per round

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        return rules.setup(players, options, seed, self.rules_version)

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        return actions.legal_actions(state, seat)

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        return actions.is_legal(state, seat, action)

    def may_act(self, state: State, seat: int) -> bool:
        return actions.may_act(state, seat)

    def apply(self, state: State, seat: int | None, action: Action) -> tuple[State, list[Event]]:
        return actions.apply(state, seat, action)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def waiting_for(self, state: State) -> Waiting:
        return views.waiting_for(state)

    def result(self, state: State) -> dict[str, Any] | None:
        return views.result(state)

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        return bot_from_view(self, state, seat, rng, bot.decide)

    def bot_aside(self, state: State, seat: int, rng: random.Random) -> Action | None:
        return None  # no out-of-turn moves in this game

    def card_zones(self, state: State) -> dict[str, list[int]]:
        return views.card_zones(state)


ENGINE = CockroachPokerRoyal()


def for_version(rules_version: int) -> CockroachPokerRoyal:
    """The engine that starts (and replays) games under an older rules version."""
    return CockroachPokerRoyal(rules_version)
