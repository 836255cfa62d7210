"""The shared kernel every rules engine is built on.

An engine is a set of pure functions over a JSON-serialisable ``state`` dict:

- ``setup(players, options, seed) -> state``: deals; all randomness comes from ``seed``
  through :class:`Rng`, whose position is stored inside the state.
- ``legal_actions(state, seat) -> list[action]``: every action ``seat`` may take now,
  spelled out in full, out-of-turn actions and window answers included.
- ``is_legal(state, seat, action) -> bool``: ``action in legal_actions(state, seat)``, and
  ``may_act(state, seat) -> bool``: ``bool(legal_actions(state, seat))``, each answered
  without building the list where it is long (a move's check, a notice's).
- ``apply(state, seat, action) -> (state, events)``: validates and applies, or raises
  :class:`IllegalAction`. It never mutates its input. ``seat=None`` is the system, and
  ``{"type": "timeout"}`` from the system closes the window that is open.
- ``view(state, seat) -> dict``: exactly what ``seat`` may know, built from an allowlist;
  ``seat=None`` is a spectator; once the game is over everything is revealed.
- ``waiting_for(state) -> Waiting``: a turn (one seat), a window (several seats at once)
  or nothing (the game is over).
- ``result(state) -> dict | None``: ``None`` while the game runs.
- ``bot_action(state, seat, rng) -> action``: a legal, sensible move. Every engine's bot
  decides from ``(view, legal_actions, rng)`` only (:func:`bot_from_view`), so it cannot use
  anything its seat may not know.
- ``max_moves(players) -> int``: the longest possible game in applied actions (every turn,
  window answer, timeout and out-of-turn move), derived from the rules' safety caps.
- ``card_zones(state) -> dict[str, list[int]]``: every physical card id by zone, for the
  conservation check and for staff who read a game's full log.

Actions and events are plain dicts so they can live in JSON columns and in the event log.
Replaying ``apply`` over the recorded actions from ``setup`` rebuilds the state exactly.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

State = dict[str, Any]
Action = dict[str, Any]

TIMEOUT: Action = {"type": "timeout"}


def gettext_noop(message: str) -> str:
    """Marks an engine's message for the site's catalogues: xgettext extracts it as it does
    Django's own ``gettext_noop``, the engines stay free of Django, and the site translates
    the message where it shows it (games/errors.py, ``engine_message``)."""
    return message


class IllegalAction(Exception):
    """An action the rules do not allow now. ``code`` is stable; ``message`` is for people:
    ``template`` (English, marked with ``gettext_noop``) filled with ``params``, so the site
    can say it in the reader's language."""

    def __init__(self, code: str, template: str, **params: Any) -> None:
        self.code = code
        self.template = template
        self.params = params
        self.message = template % params if params else template
        super().__init__(self.message)

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


@dataclass(frozen=True)
class Event:
    """Something that happened, and who may learn it.

    ``to`` is ``None`` for everybody (players and spectators), otherwise the tuple of
    seats that may see it. Once a game is over, every event is shown to everyone.
    """

    kind: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: tuple[int, ...] | None = None

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "data": dict(self.data),
            "to": None if self.to is None else list(self.to),
        }

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Event:
        to = raw.get("to")
        return cls(
            kind=raw["kind"], data=dict(raw.get("data") or {}), to=None if to is None else tuple(to)
        )


def public(kind: str, **data: Any) -> Event:
    return Event(kind, data)


def private(kind: str, seats: Iterable[int], **data: Any) -> Event:
    return Event(kind, data, tuple(sorted(set(seats))))


@dataclass(frozen=True)
class Waiting:
    """Whom the game waits on.

    ``kind`` is ``"turn"`` (one seat), ``"window"`` (several seats answer at once, closed
    by all answering or by the system's timeout) or ``"none"`` (game over).
    ``seats`` are the seats that still owe an answer: platform-internal, because in some
    windows who has answered is secret. ``shown`` is what everybody may be told.
    ``step`` (optional) tells turns of the same seat apart: when the seat on turn stays the
    same but ``step`` changes, a new turn has begun (a new wait, with its own deadline).
    Moves that keep the seat and the step (a cheat, a peek) continue the same turn.
    """

    kind: str
    seats: tuple[int, ...] = ()
    window: str | None = None
    shown: tuple[int, ...] = ()
    step: Any = None

    @classmethod
    def turn(cls, seat: int, step: Any = None) -> Waiting:
        return cls("turn", (seat,), None, (seat,), step)

    @classmethod
    def open_window(
        cls, name: str, seats: Iterable[int], shown: Iterable[int] | None = None
    ) -> Waiting:
        remaining = tuple(sorted(seats))
        return cls("window", remaining, name, remaining if shown is None else tuple(sorted(shown)))

    @classmethod
    def nobody(cls) -> Waiting:
        return cls("none")

    def to_public_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "window": self.window, "seats": list(self.shown)}


class Rng:
    """Deterministic randomness whose position lives in the state.

    Each draw builds a fresh ``random.Random`` from ``(seed, step)`` and then advances
    ``state["rng"]["step"]``, so a state read back from JSON continues exactly where it
    stopped. String seeding of ``random.Random`` is stable across runs and platforms.
    """

    def __init__(self, state: State) -> None:
        self._box = state["rng"]

    @staticmethod
    def initial(seed: int) -> dict[str, int]:
        return {"seed": int(seed), "step": 0}

    def _next(self) -> random.Random:
        step = self._box["step"]
        self._box["step"] = step + 1
        return random.Random(f"{self._box['seed']}:{step}")

    def shuffle(self, items: list[Any]) -> None:
        self._next().shuffle(items)

    def choice(self, items: list[Any]) -> Any:
        if not items:
            raise ValueError("choice from an empty list")
        return self._next().choice(items)

    def randrange(self, n: int) -> int:
        return self._next().randrange(n)


class Engine(Protocol):
    slug: str
    start_option: str  # the setup option that names the starting seat
    start_options: tuple[str, ...]  # that option and its older names, all still read
    creator_picks_start: bool  # whether the rules let the table's creator pick who starts
    name: str
    rules_version: int
    # Whether bots make out-of-turn moves of their own (``bot_aside``): the platform then
    # gives them moments of their own to make them (games/services/bot_time.py).
    bot_asides: bool
    # The action types that answer a window (a race, a slap, a show of hands): one that comes
    # after its window closed is "too late"; any other stale move is on a page gone stale.
    window_answers: frozenset[str]
    min_players: int
    max_players: int

    def max_moves(self, players: int) -> int: ...
    def setup(self, players: int, options: Mapping[str, Any], seed: int) -> State: ...
    def legal_actions(self, state: State, seat: int) -> list[Action]: ...
    def is_legal(self, state: State, seat: int, action: Action) -> bool: ...
    def may_act(self, state: State, seat: int) -> bool: ...
    def apply(
        self, state: State, seat: int | None, action: Action
    ) -> tuple[State, list[Event]]: ...
    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...
    def waiting_for(self, state: State) -> Waiting: ...
    def result(self, state: State) -> dict[str, Any] | None: ...
    def bot_action(self, state: State, seat: int, rng: random.Random) -> Action: ...
    def bot_aside(self, state: State, seat: int, rng: random.Random) -> Action | None: ...
    def card_zones(self, state: State) -> dict[str, list[int]]: ...


class LegalFromList:
    """``is_legal`` and ``may_act`` read from ``legal_actions``: for an engine whose lists are
    short (a handful of actions), where building one costs less than a check of its own."""

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        raise NotImplementedError

    def is_legal(self, state: State, seat: int, action: Action) -> bool:
        return action in self.legal_actions(state, seat)

    def may_act(self, state: State, seat: int) -> bool:
        return bool(self.legal_actions(state, seat))


class UnknownRulesVersion(LookupError):
    """A stored game's rules version that this code cannot play (or replay)."""

    def __init__(self, slug: str, version: object, known: Iterable[int]) -> None:
        self.slug = slug
        self.version = version
        self.known = tuple(known)
        super().__init__(
            f"{slug!r} has no rules version {version!r} here (known: {list(self.known)}); "
            "a game keeps the rules it started with, so it cannot be loaded by this code."
        )


class Decide(Protocol):
    """A bot's decision: from what its seat may know, never from the state."""

    def __call__(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random, /
    ) -> Action: ...


class Aside(Protocol):
    """A bot's out-of-turn initiative, from what its seat may know: an action, or None."""

    def __call__(
        self, view: dict[str, Any], legal: list[Action], rng: random.Random, /
    ) -> Action | None: ...


def bot_from_view(
    engine: Engine, state: State, seat: int, rng: random.Random, decide: Decide
) -> Action:
    """``engine.bot_action`` for every engine: the bot gets the seat's view and legal actions,
    so hidden information cannot reach it whatever the bot's code does."""
    legal = engine.legal_actions(state, seat)
    if not legal:
        raise IllegalAction("no_move", gettext_noop("This seat has nothing to do now."))
    action = decide(engine.view(state, seat), legal, rng)
    return action if action in legal else rng.choice(legal)


def aside_from_view(
    engine: Engine, state: State, seat: int, rng: random.Random, aside: Aside
) -> Action | None:
    """``engine.bot_aside``: an out-of-turn move a bot makes on its own initiative (a sleeve
    cheat, an accusation), or None. The platform asks at the bots' own moments, random times
    whoever's turn it is, each a change of its own as a person's move is, so neither the
    moment nor the shape of a bot's secret move says which seat made it."""
    legal = engine.legal_actions(state, seat)
    if not legal:
        return None
    action = aside(engine.view(state, seat), legal, rng)
    return action if action in legal else None


def no_aside(view: dict[str, Any], legal: list[Action], rng: random.Random) -> Action | None:
    """For games without out-of-turn moves."""
    return None


def working_copy(state: State) -> State:
    """The copy ``apply`` mutates, so a rejected action leaves the caller's state as it was."""
    return copy.deepcopy(state)


def require(condition: bool, code: str, template: str, **params: Any) -> None:
    if not condition:
        raise IllegalAction(code, template, **params)


def require_type(action: Any, allowed: Iterable[str]) -> str:
    """Checks the action's shape and returns its type; a forged payload gets a clear error."""
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise IllegalAction("malformed", gettext_noop("An action must be an object with a 'type'."))
    kind = action["type"]
    if kind not in set(allowed):
        raise IllegalAction(
            "unknown_action", gettext_noop("'%(kind)s' is not an action in this game."), kind=kind
        )
    return kind


def require_fields(
    action: Mapping[str, Any], kind: str, fields: Mapping[str, Iterable[str]]
) -> None:
    """Refuses fields the action type does not have: a client sending them has misunderstood
    something, and silently ignoring them would hide it."""
    extra = set(action) - {"type"} - set(fields[kind])
    if extra:
        raise IllegalAction(
            "unknown_field",
            gettext_noop("Unexpected field(s) for '%(kind)s': %(fields)s."),
            kind=kind,
            fields=", ".join(sorted(map(str, extra))),
        )


def int_field(action: Mapping[str, Any], name: str) -> int:
    value = action.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(
            "malformed", gettext_noop("'%(name)s' must be a whole number."), name=name
        )
    return value


def str_field(action: Mapping[str, Any], name: str, choices: Iterable[str] | None = None) -> str:
    value = action.get(name)
    if not isinstance(value, str):
        raise IllegalAction("malformed", gettext_noop("'%(name)s' must be text."), name=name)
    if choices is not None and value not in set(choices):
        raise IllegalAction(
            "bad_choice",
            gettext_noop("'%(value)s' is not a valid %(name)s."),
            value=value,
            name=name,
        )
    return value


def deadline_move(engine: Engine, state: State, rng: random.Random) -> tuple[int | None, Action]:
    """What a passed deadline does: a window closes by the system's timeout; on a turn the
    bot moves for the seat. The move is recorded like any other, so replay stays exact."""
    waiting = engine.waiting_for(state)
    if waiting.kind == "window":
        return None, dict(TIMEOUT)
    if waiting.kind == "turn":
        seat = waiting.seats[0]
        return seat, engine.bot_action(state, seat, rng)
    raise IllegalAction("game_over", gettext_noop("The game is over."))


def seats_after(start: int, players: int) -> list[int]:
    """The other seats in play order, beginning with the one after ``start``."""
    return [(start + k) % players for k in range(1, players)]
