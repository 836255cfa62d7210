"""Journey: leaving a table from its page says so (social review, 2026-12-01). The table's
script fetched the form, followed its redirect to My games (spending the page's one-time
message there) and then loaded My games again: "You left the table" never showed."""

from __future__ import annotations

import pytest

from accounts.services import friendship_create
from games import services
from tests.journeys.drive import in_thread

pytestmark = [pytest.mark.browser]


def test_leaving_and_declining_from_the_table_page_say_what_was_done_once(
    make_user, signed_in_page, stack
):
    alice, bob, carol = (make_user(name) for name in ("alice", "bob", "carol"))

    def set_up() -> int:
        friendship_create(alice, bob)
        friendship_create(alice, carol)
        game = services.game_create(alice, engine="imperador", seats=4, invite=["bob", "carol"])
        services.game_join(bob, game.pk)
        return game.pk

    game_id = in_thread(set_up)
    for user, button, said in (
        (bob, "Leave the table", "You left the table; your seat is free again."),
        (carol, "Decline the invitation", "Invitation declined."),
    ):
        page = signed_in_page(user)
        page.goto(f"{stack.base}/games/{game_id}/")
        form = page.locator("form", has=page.get_by_role("button", name=button))
        # a double click: the second press comes while the first is on its way (posted
        # twice, the second answer said "You are not playing at this table")
        form.evaluate("f => { f.requestSubmit(); setTimeout(() => f.requestSubmit(), 80); }")
        page.wait_for_timeout(1500)
        page.wait_for_load_state()
        assert page.url.endswith("/games/"), page.url
        assert page.locator(".messages").inner_text().strip() == said
