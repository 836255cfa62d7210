"""Journey: Imperador played from the keyboard, heard through a screen reader's ears.

The emperor announces with Enter; the two others hear the show of hands open (an assertive
live region, not only the tab's title) and answer with Enter. After each move the page swaps
its parts in place: focus must stay in the table (on the control, or the part's heading),
never fall back to the document's start, and a turn coming round is read out politely.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engines import registry
from games.models import Game
from tests.games.worker import wait_for
from tests.journeys.drive import (
    FIND_FORM,
    people_at_a_table,
    revision,
    settle,
    wait_revision,
    wanted_fields,
)

ENGINE = "imperador"
FOCUS_IN_TABLE = """() => {
  const el = document.activeElement;
  return el && el !== document.body && document.getElementById("live-root").contains(el);
}"""
pytestmark = [pytest.mark.browser]


def enter_move(page: Any, type: str, **fields: Any) -> None:
    """Focuses the button of the form for this move (its radios chosen by keyboard: Space)
    and presses Enter; waits for the page to show the move."""
    wanted = wanted_fields(fields)
    page.wait_for_function(FIND_FORM, arg=[type, wanted], timeout=15_000)
    settle(page)
    found = page.evaluate(FIND_FORM, [type, wanted])
    form = page.locator("#live-root form").nth(found["index"])
    for name, value in found["picks"].items():
        form.locator(f"input[name='f_{name}'][value='{value}']").focus()
        page.keyboard.press("Space")
    before = revision(page)
    form.locator("button").last.focus()
    page.keyboard.press("Enter")
    wait_revision(page, before + 1)


def region(page: Any, which: str) -> str:
    return page.locator(f"#{which}").text_content() or ""


def test_a_turn_and_a_show_of_hands_by_keyboard(make_user, signed_in_page, stack):
    engine = registry.get(ENGINE)
    game, pages = people_at_a_table(
        make_user, ("kit", "lou", "max"), ENGINE, signed_in_page, stack.base
    )
    emperor = game.state["emperor"]
    others = sorted(s for s in pages if s != emperor)

    # the emperor's moves until the show of hands opens, each by Enter; focus stays put
    for _step in range(6):
        game.refresh_from_db()
        if game.state["phase"] == "hands":
            break
        wait_revision(pages[emperor], game.revision_for(emperor))
        action = engine.legal_actions(game.state, emperor)[0]
        fields = {k: v for k, v in action.items() if k != "type"}
        enter_move(pages[emperor], action["type"], **fields)
        assert pages[emperor].evaluate(FOCUS_IN_TABLE), "focus fell out of the table"
    assert game.state["phase"] == "hands"

    for seat in others:  # said at once, in words, to each asked player
        pages[seat].wait_for_function(
            "() => document.getElementById('table-alert').textContent.includes('Your answer is wanted')",
            timeout=15_000,
        )
    for seat, choice in zip(others, ("raise", "down"), strict=True):
        enter_move(pages[seat], "hand", choice=choice)
        assert pages[seat].evaluate(FOCUS_IN_TABLE), "focus fell out of the table"
    assert wait_for(lambda: Game.objects.get(pk=game.pk).state["phase"] != "hands", 20)
    # once the window is over its alert goes: a virtual cursor still read "Your answer is
    # wanted" in the hidden region after the game had ended (a new player's play-through)
    for seat in others:
        pages[seat].wait_for_function(
            "() => !document.getElementById('table-alert').textContent.includes('answer')",
            timeout=15_000,
        )

    # whoever plays next hears it politely once the page follows
    game.refresh_from_db()
    (turn,) = engine.waiting_for(game.state).seats
    pages[turn].wait_for_function(
        "() => document.getElementById('table-announce').textContent.includes('Your turn')",
        timeout=15_000,
    )
    assert "Your turn" not in region(pages[turn], "table-alert")
