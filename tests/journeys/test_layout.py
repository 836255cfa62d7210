"""Journey: what players write never widens a phone's page. One long word in the table talk
(300 letters, no space) used to make every seat's page 3,473 px wide on a 390 px phone, and
the moves' buttons hard to press."""

from __future__ import annotations

import pytest

from games.services import chat
from tests.journeys.drive import SHOTS, friends_at_a_started_table, in_thread

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def test_a_long_word_in_the_table_talk_keeps_the_page_phone_wide(make_user, signed_in_page, stack):
    shots = SHOTS / "layout"
    shots.mkdir(parents=True, exist_ok=True)
    users = [make_user(name) for name in ("lou", "max", "nia")]
    game = in_thread(lambda: friends_at_a_started_table(users, "cockroach-poker-royal"))
    in_thread(lambda: chat.post(users[0], game.pk, "A" * 300))
    page = signed_in_page(users[1])
    page.set_viewport_size(PHONE)
    page.goto(f"{stack.base}/games/{game.pk}/")
    page.wait_for_selector(".chat-lines li")
    assert "A" * 300 in page.locator(".chat-lines").inner_text().replace("\n", "")
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths
    # the box to write in is a finger's height (it was 21 px: it had no type for the CSS)
    box = page.locator("#chat-text").bounding_box()
    assert box is not None and box["height"] >= 40, box
    page.locator("#chat").screenshot(path=str(shots / "chat-phone.png"))
