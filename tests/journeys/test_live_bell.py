"""Journey: the bell counts what arrives while a page is open (phone review, 2026-12-07). A
player at one table was invited to another: My games showed the invitation in place, but the
bell on every page kept its old count until a reload, so a phone left open on a table never
said that something new waited elsewhere."""

from __future__ import annotations

import pytest

from accounts.services import friendship_create
from games import services
from tests.journeys.drive import friends_at_a_started_table, in_thread

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def test_the_bell_counts_an_invitation_that_arrives_while_a_table_is_open(
    make_user, signed_in_page, stack
):
    wim, xia, yan = (make_user(name) for name in ("wim", "xia", "yan"))
    game = in_thread(lambda: friends_at_a_started_table([wim, xia, yan], "imperador"))
    page = signed_in_page(xia)
    page.set_viewport_size(PHONE)
    page.goto(f"{stack.base}/games/{game.pk}/")  # the table's own notices are read here
    bell = page.locator(".bell")
    assert not bell.locator(".badge").count()
    assert bell.get_attribute("aria-label") == "Notifications"

    carmen = make_user("carmen")
    in_thread(lambda: friendship_create(carmen, xia))
    in_thread(lambda: services.game_create(carmen, engine="mogel-motte", seats=3, invite=["xia"]))

    page.wait_for_function(
        "() => (document.querySelector('.bell .badge') || {}).textContent === '1'",
        timeout=10_000,
    )
    assert bell.get_attribute("aria-label") == "Notifications: 1"
