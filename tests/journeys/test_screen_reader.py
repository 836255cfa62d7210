"""Journey: the table as a screen reader hears it, through the browser's accessibility tree
(Playwright's aria snapshot: the names Chromium gives assistive technology, not the markup).

A player who tabs from button to button hears each button's name alone, not the heading above
it: two buttons that do different things must not share a name. In Mogel Motte the card that
may be played was offered twice under the same name, once to play it and once to slip it up
the sleeve (a cheat, which may cost a penalty); a screen reader could not tell the two apart.

A run of cards (a hand, a row, a pile) was read as one line of words and numbers, "1 ×2 5
ant 4 cockroach 2": which number went with which card could not be heard.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from typing import Any

import pytest

from games import services
from games.engines import registry
from tests.journeys.drive import friends_at_a_started_table, in_thread, open_seats, wait_revision

pytestmark = [pytest.mark.browser]

ENGINE = "mogel-motte"


def _first_play(engine: Any, state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    (seat,) = engine.waiting_for(state).seats
    return seat, next(a for a in engine.legal_actions(state, seat) if a["type"] == "play")


def _second_player_may_cheat_a_playable_card(engine: Any, seed: int) -> bool:
    """Whether, on a table dealt from ``seed``, the second player (the first is the guard, who
    may not cheat) may play a card that the same page also offers to slip up the sleeve,
    once the guard played their first playable card."""
    state = engine.setup(3, {}, seed)
    if not any(a["type"] == "play" for a in engine.legal_actions(state, state["active"])):
        return False
    state, _events = engine.apply(copy.deepcopy(state), *_first_play(engine, state))
    (seat,) = engine.waiting_for(state).seats
    legal = engine.legal_actions(state, seat)
    played = {a["card"] for a in legal if a["type"] == "play"}
    cheated = {a["card"] for a in legal if a["type"] == "cheat"}
    return bool(played & cheated)


def _button_names(snapshot: str) -> list[str]:
    """The buttons' names in an aria snapshot (a line holding a colon is quoted as YAML)."""
    return re.findall(r"""^\s*- '?button "(.*)"'?$""", snapshot, re.M)


def test_each_move_button_says_what_it_does(
    make_user: Any, signed_in_page: Any, stack: Any
) -> None:
    engine = registry.get(ENGINE)
    seed = next(s for s in range(1, 500) if _second_player_may_cheat_a_playable_card(engine, s))
    users = [make_user(name) for name in ("pia", "quin", "rex")]
    game = in_thread(lambda: friends_at_a_started_table(users, ENGINE, seed))
    guard, play = _first_play(engine, game.state)
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    in_thread(lambda: services.act(by_seat[guard], game.pk, game.version_for(guard), play))
    game.refresh_from_db()
    (seat,) = engine.waiting_for(game.state).seats
    page = open_seats(game, [by_seat[seat]], signed_in_page, stack.base)[seat]
    wait_revision(page, game.revision_for(seat))
    # the folded moves (a cheat) open, as a player opens them to choose
    page.evaluate(
        "() => document.querySelectorAll('#live-root details').forEach(d => d.open = true)"
    )
    names = _button_names(page.locator("section.moves").aria_snapshot())
    assert len(names) > 3, names
    shared = [name for name, count in Counter(names).items() if count > 1]
    assert not shared, names
    # the move a button makes is in its name: "Play" and "Cheat" each begin their own
    assert any(name.startswith("Play") for name in names), names
    assert any(name.startswith("Cheat") for name in names), names


def test_a_hand_is_heard_card_by_card(make_user: Any, signed_in_page: Any, stack: Any) -> None:
    users = [make_user(name) for name in ("sam", "tia", "uli")]
    game = in_thread(lambda: friends_at_a_started_table(users, ENGINE))
    (seat,) = registry.get(ENGINE).waiting_for(game.state).seats
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    other = next(s for s in by_seat if s != seat)  # not on turn: the hand is shown as cards
    page = open_seats(game, [by_seat[other]], signed_in_page, stack.base)[other]
    hand = page.locator(".my-hand .cards")
    chips = hand.locator(":scope > .card").count()
    assert chips > 3
    (said,) = re.findall(r"^- text: (.*)$", hand.aria_snapshot(), re.M)
    heard = [card.strip() for card in said.split(",")]
    assert len(heard) == chips and all(heard), said
