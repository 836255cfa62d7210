"""Journey: a Mogel Motte table in three browser contexts — a cockroach race answered by all
three at once, then a mosquito slap and its gifts answered at once — every answer made in
its player's page, every page following the table in place.

The players, their friendship and the table are set up through the services (the Cockroach
Poker journey proves those pages). The deal is chosen, not hoped for: the test tries seeds
with the pure engine until one reaches a race (with someone able to race) and a slap within a
few turns, and starts the table on that seed. The moves the test makes in the pages follow
the same plan, read from the game as it is.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.engines import registry
from games.engines.mogel_motte import rules
from games.engines.mogel_motte.cards import COCKROACH, MOSQUITO, NUMBER
from games.models import Game
from tests.games.worker import wait_for
from tests.journeys.drive import (
    AnyOf,
    click_moves_at_once,
    friends_at_a_started_table,
    in_thread,
    move,
    open_seats,
    shoot,
    wait_revision,
)

JOURNEY = "mogel-motte"
ENGINE = "mogel-motte"
WINDOWS = ("race", "slap", "gift")

pytestmark = [pytest.mark.browser]


def _same_face(state: dict[str, Any], card: int) -> AnyOf:
    """Cards of the holder's hand with this card's kind and value (one choice on the page)."""
    kinds, values = rules.kinds(state), rules.values(state)
    hand = next(h for h in state["hands"] if card in h)
    return AnyOf(c for c in hand if (kinds[c], values[c]) == (kinds[card], values[card]))


def plan(engine: Any, state: dict[str, Any], done: set[str]) -> list[tuple[int, dict[str, Any]]]:
    """The moves to make now: one (a turn) or one per seat the window still waits on."""
    waiting = engine.waiting_for(state)
    mine = [
        (
            seat,
            [a for a in engine.legal_actions(state, seat) if a["type"] not in ("cheat", "accuse")],
        )
        for seat in waiting.seats
    ]
    if state["phase"] in WINDOWS:  # race if you can, else decline; slap; give the first card
        return [(seat, legal[0]) for seat, legal in mine]
    ((seat, legal),) = mine
    plays = [a for a in legal if a["type"] == "play"]
    if not plays:
        return [(seat, legal[0])]  # draw (or a spider's gift)
    kinds = rules.kinds(state)
    wanted = [k for k, window in ((COCKROACH, "race"), (MOSQUITO, "slap")) if window not in done]
    for kind in [*wanted, NUMBER]:
        for action in plays:
            if kinds[action["card"]] == kind:
                return [(seat, action)]
    return [(seat, plays[0])]


def rehearse(engine: Any, seed: int, turns: int = 8) -> bool:
    """Whether the plan reaches a race someone can race in and a slap within ``turns``."""
    state = engine.setup(3, {}, seed)
    done: set[str] = set()
    for _ in range(turns * 3):
        phase = state["phase"]
        if phase == "over":
            return False
        if phase == "race" and not any(rules.race_cards(state, s) for s in range(3)):
            return False
        moves = plan(engine, state, done)
        for seat, action in moves:  # in a race, the first racer closes the window
            if action in engine.legal_actions(state, seat):
                state, _events = engine.apply(copy.deepcopy(state), seat, action)
        if phase in ("race", "slap"):
            done.add(phase)
        if done == {"race", "slap"} and state["phase"] not in WINDOWS:
            return True
    return False


def _form_fields(state: dict[str, Any], action: dict[str, Any]) -> dict[str, Any]:
    fields = {k: v for k, v in action.items() if k != "type"}
    if "card" in fields:
        fields["card"] = _same_face(state, fields["card"])
    return fields


def test_a_race_and_a_slap_answered_in_three_pages_at_once(make_user, signed_in_page, stack):
    engine = registry.get(ENGINE)
    seed = next(s for s in range(1, 2000) if rehearse(engine, s))
    users = [make_user(name) for name in ("mia", "noa", "oli")]

    game = in_thread(lambda: friends_at_a_started_table(users, ENGINE, seed))
    assert game.seed == seed
    pages = open_seats(game, users, signed_in_page, stack.base)
    shoot(pages[0], JOURNEY, "01-table")

    done: set[str] = set()
    for _step in range(40):
        game.refresh_from_db()
        state = game.state
        phase = state["phase"]
        if done == {"race", "slap"} and phase not in WINDOWS:
            break
        moves = plan(engine, state, done)
        for seat, _action in moves:
            wait_revision(pages[seat], game.revision_for(seat))
        if phase not in WINDOWS:
            ((seat, action),) = moves
            move(pages[seat], action["type"], **_form_fields(state, action))
            continue
        # A window: every page answers at once (the clicks go out before any answer is back).
        if phase in ("race", "slap"):
            shoot(pages[moves[0][0]], JOURNEY, f"02-{phase}-open")
        pressed = click_moves_at_once(
            [(pages[seat], action["type"], _form_fields(state, action)) for seat, action in moves]
        )
        assert pressed[0], f"the first {phase} answer was not pressed"
        assert wait_for(lambda p=phase: Game.objects.get(pk=game.pk).state["phase"] != p, 20), (
            f"the {phase} window stayed open"
        )
        # a press not made: its form was gone, the window closed by an answer before it
        assert all(pressed) or phase == "race", (phase, pressed)
        game.refresh_from_db()
        for seat, page in pages.items():  # each page follows in place: the window is gone
            wait_revision(page, game.revision_for(seat))
            assert not page.locator(f'#live-root input[name="type"][value="{phase}"]').count()
        if phase in ("race", "slap"):
            done.add(phase)
            shoot(pages[moves[-1][0]], JOURNEY, f"03-{phase}-closed")
    assert done == {"race", "slap"}

    events = {e["kind"] for row in game.events.all() for e in row.events}
    assert {"race_opened", "race_won", "slap_opened", "slap_closed", "gifts_moved"} <= events
