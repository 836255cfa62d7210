"""The Imperador engine object: validation, legal actions and dispatch to ``rules``."""

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
    bot_from_view,
    gettext_noop,
    int_field,
    public,
    require,
    require_fields,
    require_type,
    str_field,
)
from games.engines.imperador import bot, rules, views
from games.engines.imperador.cards import (
    MAX_TURNS,
    RULES_VERSION,
    band_values,
    copy_state,
    deal,
    pairs_in_band,
)

FIELDS: dict[str, tuple[str, ...]] = {
    "announce": ("band",),
    "hand": ("choice",),
    "pick": ("seat",),
    "give": ("card",),
    "name": ("value",),
    "take": ("card",),
    "reveal": ("slot",),
    "lay": ("value",),
    "successor": ("seat",),
    "timeout": (),
}
ACTION_TYPES = tuple(FIELDS)
START_OPTION = "first_seat"
LEGACY_START_OPTION = "first_emperor"  # its name before every engine used "first_seat"
EMPEROR_PHASES = {
    "announce": ("announce", "band"),
    "pick": ("pick", "seat"),
    "give": ("give", "card"),
    "name": ("name", "value"),
    "take": ("take", "card"),
    "reveal": ("reveal", "slot"),
    "lay": ("lay", "value"),
    "successor": ("successor", "seat"),
}


# What each emperor step's refusal says: the rule the refused choice breaks.
REFUSALS: dict[str, str] = {
    "announce": gettext_noop("Announce one of the bands of the objects."),
    "pick": gettext_noop("Pick a player whose hand is down."),
    "give": gettext_noop("Give a card from your hand."),
    "name": gettext_noop("Name one of the two values of the announced band."),
    "take": gettext_noop("Take a card from the caught liar's hand."),
    "reveal": gettext_noop("Turn over an object that is still face down."),
    "lay": gettext_noop("Lay a pair you hold that fits the object you turned over."),
    "successor": gettext_noop(
        "Choose the next emperor among those who raised a hand: a caught liar without a "
        "sheep first, then a player without a sheep."
    ),
}
GIVING_BACK = gettext_noop("You may not give back the card you have just received.")


def refusal(state: State, value: int) -> str:
    """The rule a choice outside ``emperor_choices`` breaks, for its refusal."""
    giving = state["turn"]["giving"]
    if state["phase"] == "give" and value == giving["not"]:
        return GIVING_BACK
    return REFUSALS[state["phase"]]


def emperor_choices(state: State) -> list[int]:
    """The values the emperor may choose from in the current phase (one field per phase)."""
    phase = state["phase"]
    turn = state["turn"]
    emperor = state["emperor"]
    if phase == "announce":
        return list(range(1, state["players"] + 1))
    if phase == "pick":
        return sorted(turn["downs"])
    if phase == "give":
        return [c for c in state["hands"][emperor] if c != turn["giving"]["not"]]
    if phase == "name":
        return list(band_values(turn["band"]))
    if phase == "take":
        return list(state["hands"][turn["taking_from"]])
    if phase == "reveal":
        return [slot for slot, obj in enumerate(state["grid"]) if obj is not None]
    if phase == "lay":
        return pairs_in_band(state, state["hands"][emperor], turn["revealed"]["band"])
    if phase == "successor":
        return rules.successor_candidates(state)
    return []


def window_open_for(state: State, seat: int) -> bool:
    turn = state["turn"]
    return state["phase"] == "hands" and seat in turn["asked"] and turn["answers"][seat] is None


class ImperadorEngine(LegalFromList):
    slug = "imperador"
    # The option naming the first emperor. The rules draw him at random [D]: the table's
    # creator may not pick him; the option serves tests and tables made before.
    start_option = START_OPTION
    start_options: tuple[str, ...] = (START_OPTION, LEGACY_START_OPTION)
    creator_picks_start = False
    name = "Imperador"
    bot_asides = False
    window_answers = frozenset({"hand"})
    min_players = 3
    max_players = 6

    def __init__(self, rules_version: int = RULES_VERSION) -> None:
        # The version new games get from ``setup``; a state keeps its own and the changed
        # rules read it there, so any instance plays an older game by its own rules.
        self.rules_version = rules_version

    def max_moves(self, players: int) -> int:
        """Per turn: announce, one answer per asked seat (or fewer and the timeout), pick or
        name, a take and a give per exchange (at most ``players - 1`` in case (c)), reveal,
        lay, successor. At most ``MAX_TURNS`` turns."""
        per_turn = 1 + (players - 1) + 1 + 2 * (players - 1) + 3
        return MAX_TURNS * per_turn

    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State:
        require(
            isinstance(players, int) and self.min_players <= players <= self.max_players,
            "bad_players",
            gettext_noop("Imperador is played by 3 to 6 players."),
        )
        options = dict(options or {})
        unknown = set(options) - {START_OPTION, LEGACY_START_OPTION}
        require(
            not unknown,
            "bad_option",
            gettext_noop("Unknown options: %(options)s."),
            options=", ".join(sorted(map(str, unknown))),
        )
        first = options.get(START_OPTION, options.get(LEGACY_START_OPTION))
        if first is not None:
            require(
                isinstance(first, int) and not isinstance(first, bool) and 0 <= first < players,
                "bad_option",
                gettext_noop("'%(option)s' must be a seat number."),
                option=START_OPTION,
            )
        return deal(players, first, seed, self.rules_version)

    # --- what may be done -------------------------------------------------------------------

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if not isinstance(seat, int) or not 0 <= seat < state["players"]:
            return []
        if window_open_for(state, seat):
            return [{"type": "hand", "choice": c} for c in ("raise", "down")]
        if state["phase"] in EMPEROR_PHASES and seat == state["emperor"]:
            kind, field = EMPEROR_PHASES[state["phase"]]
            return [{"type": kind, field: choice} for choice in emperor_choices(state)]
        return []

    def waiting_for(self, state: State) -> Waiting:
        phase = state["phase"]
        if phase == "over":
            return Waiting.nobody()
        if phase == "hands":
            turn = state["turn"]
            remaining = [s for s in turn["asked"] if turn["answers"][s] is None]
            return Waiting.open_window("hands", remaining, shown=turn["asked"])
        # the turn number: an emperor who stays on starts a new turn (a new wait)
        return Waiting.turn(state["emperor"], step=state["turn_number"])

    # --- doing it ---------------------------------------------------------------------------

    def apply(self, state: State, seat: int | None, action: Action) -> tuple[State, list[Event]]:
        kind = require_type(action, ACTION_TYPES)
        require_fields(action, kind, FIELDS)
        require(state["phase"] != "over", "game_over", gettext_noop("The game is over."))
        events: list[Event] = []
        if seat is None:
            require(
                kind == "timeout",
                "system_only_timeout",
                gettext_noop("The system can only close windows."),
            )
            require(state["phase"] == "hands", "no_window", gettext_noop("No window is open."))
            new = copy_state(state)
            events.append(public("hands_window_timed_out"))
            rules.close_hands(new, events)
            return new, events
        require(
            isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["players"],
            "bad_seat",
            gettext_noop("No such seat."),
        )
        require(kind != "timeout", "not_system", gettext_noop("Only the system closes a window."))
        if kind == "hand":
            require(
                window_open_for(state, seat),
                "not_asked",
                gettext_noop("You are not asked to answer now."),
            )
            choice = str_field(action, "choice", ("raise", "down"))
            new = copy_state(state)
            rules.answer(new, events, seat, choice)
            return new, events
        require(
            state["phase"] in EMPEROR_PHASES and seat == state["emperor"],
            "not_your_turn",
            gettext_noop("It is not your move."),
        )
        expected, field = EMPEROR_PHASES[state["phase"]]
        require(
            kind == expected,
            "wrong_step",
            gettext_noop("Now the emperor must '%(step)s'."),
            step=expected,
        )
        value = int_field(action, field)
        require(value in emperor_choices(state), "not_allowed", refusal(state, value))
        new = copy_state(state)
        step = getattr(rules, {"successor": "hand_over"}.get(kind, kind))
        step(new, events, value)
        return new, events

    # --- what is seen -----------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat, self.waiting_for(state))

    def result(self, state: State) -> dict[str, Any] | None:
        return rules.result_of(state)

    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action:
        return bot_from_view(self, state, seat, rng, bot.decide)

    def bot_aside(self, state: State, seat: int, rng: random.Random) -> Action | None:
        return None  # no out-of-turn moves in this game

    def card_zones(self, state: State) -> dict[str, list[int]]:
        zones: dict[str, list[int]] = {}
        for s in range(state["players"]):
            zones[f"hand:{s}"] = sorted(state["hands"][s])
            zones[f"laid_pairs:{s}"] = sorted(c for lay in state["laid"][s] for c in lay["cards"])
            zones[f"laid_objects:{s}"] = sorted(lay["object"] for lay in state["laid"][s])
        zones["object_grid"] = sorted(obj for obj in state["grid"] if obj is not None)
        return zones
