"""One page of a finished game's reveal, without replaying the game for it.

An over game's event log never grows (moves, deadlines and moderation all need an open game),
so its replay is worked out once and kept in the cache: an outline (how many steps, where the
rounds begin, the steps with a bluff or cheat and the state each was made in) and, under a key
of its own, each step with the state it left. A page reads the outline and its one step.
Before, every page replayed the whole game and told every step in words: paging through a
long reveal cost O(n²).

Only the engine's facts are kept, never words: names (a player may rename) and the language
(each viewer's) are applied per page.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import gettext as _

from games.catalog import registry as catalog
from games.replays import Played, PlayedStep, RevealStep, names_for, played

KEPT_SECONDS = 6 * 3600  # a reveal is paged through in a sitting; a later visit replays once more


@dataclass(frozen=True)
class Outline:
    """What every page of one reveal shows besides its step (no words, see the module)."""

    last: int
    rounds: list[int]
    # (index, the step, the state it was made in): the steps with a bluff or a cheat
    marking: list[tuple[int, PlayedStep, Any]]


@dataclass(frozen=True)
class RevealPage:
    """The reveal at one step: the step told in words, the state it left, and the game's
    rounds and marks (the page's jumps)."""

    index: int
    last: int
    step: RevealStep
    state: Any
    rounds: list[int]
    marked: list[RevealStep]


def kept_key(game: Any) -> str:
    """The cache key of a game's kept replay. ``version`` counts the log's rows (append-only),
    so a key names one log; the seed, rules and options make it another game's key should an
    id come back (a restored database, one test run after another on the same Redis)."""
    what = [
        game.engine,
        game.rules_version,
        game.seed,
        game.seats_count,
        game.options,
        game.version,
    ]
    digest = hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()[:32]
    return f"reveal:{game.pk}:{digest}"


def reveal_page(game: Any, players: list[str], index: int) -> RevealPage:
    """The reveal of an over game at step ``index`` (clamped to the game's steps)."""
    if not game.is_over:  # its states hold every hidden card; the view says so first
        raise ValueError(f"game {game.pk} is not over: it has no reveal")
    outline, step, state, index = _kept(game, max(0, index))
    presentation = catalog.get(game.engine)
    humans = {s.index for s in game.seats.all() if s.user_id is not None and s.index < len(players)}
    marked = []
    for at, made, before in outline.marking:
        names = names_for(made, players, humans)
        marks = presentation.marks(before, made.seat, made.action, made.told, names)
        marked.append(RevealStep(at, None, [], marks))
    if step is None:
        told = RevealStep(
            0,
            None,
            [{"text": _("The cards are dealt."), "secret": False}],
            [],
            starts_round=presentation.deal_starts_round,
        )
    else:
        names = names_for(step, players, humans)
        told = RevealStep(
            index,
            names[step.seat] if step.seat is not None and step.seat < len(names) else None,
            [
                {"text": presentation.sentence(e, names), "secret": e["to"] is not None}
                for e in step.told
            ],
            # this step's, if it made any: told among the game's marked steps just above
            next((m.marks for m in marked if m.index == index), []),
            index in outline.rounds,
        )
    return RevealPage(index, outline.last, told, state, outline.rounds, marked)


def _kept(game: Any, index: int) -> tuple[Outline, PlayedStep | None, Any, int]:
    key = kept_key(game)
    outline = cache.get(key)
    if isinstance(outline, Outline):
        index = min(index, outline.last)
        kept = cache.get(f"{key}:{index}")
        if kept is not None:
            return outline, kept[0], kept[1], index
    replayed = played(game)
    outline = _outline(game, replayed)
    steps: list[PlayedStep | None] = [None, *replayed.steps]
    cache.set_many(
        {f"{key}:{i}": (steps[i], state) for i, state in enumerate(replayed.states)},
        KEPT_SECONDS,
    )
    cache.set(key, outline, KEPT_SECONDS)  # last: a page that finds it finds its step too
    index = min(index, outline.last)
    return outline, steps[index], replayed.states[index], index


def _outline(game: Any, replayed: Played) -> Outline:
    """Whether a step starts a round or made a bluff or cheat is a fact of the game, not of
    names (``Presentation.marks`` promises it): stand-in names find them."""
    presentation = catalog.get(game.engine)
    rounds = [0] if presentation.deal_starts_round else []
    marking = []
    stand_in = [str(seat) for seat in range(game.seats_count)]
    for index, step in enumerate(replayed.steps, start=1):
        if any(e["kind"] in presentation.round_kinds for e in step.told):
            rounds.append(index)
        before = replayed.states[index - 1]
        if presentation.marks(before, step.seat, step.action, step.told, stand_in):
            marking.append((index, step, before))
    return Outline(len(replayed.steps), rounds, marking)
