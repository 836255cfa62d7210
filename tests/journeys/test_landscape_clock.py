"""Journey: a phone turned sideways (844 × 390) during a show of hands. The answer's buttons
sat below the fold, and scrolling to them hid the countdown (play-through review): the
status line with the clock now stays pinned at the top while a quick clock runs."""

from __future__ import annotations

import pytest

from tests.games.helpers import to_the_show_of_hands
from tests.journeys.drive import friends_at_a_started_table, in_thread

pytestmark = [pytest.mark.browser]

IN_SIGHT = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def test_the_countdown_stays_in_sight_beside_the_answer(make_user, signed_in_page, stack):
    users = [make_user(name) for name in ("rae", "sam", "ted")]
    game = in_thread(lambda: friends_at_a_started_table(users, "imperador"))
    waiting = in_thread(lambda: to_the_show_of_hands(game))
    asked = next(s.user for s in game.seats.select_related("user") if s.index == waiting.seats[0])
    page = signed_in_page(asked)
    page.set_viewport_size({"width": 844, "height": 390})
    page.goto(f"{stack.base}/games/{game.pk}/")
    answer = page.locator("#live-root form button", has_text="Raise").first

    answer.scroll_into_view_if_needed()

    assert page.evaluate(IN_SIGHT, "#status time.countdown"), "the clock beside the answer"
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert page.evaluate(IN_SIGHT, "#status time.countdown"), "and further down too"
    # the line alone is pinned, not its part (a nudge or a Live proposal stays in the page)
    assert (
        page.evaluate("() => getComputedStyle(document.getElementById('status')).position")
        == "sticky"
    )
