"""Journey: the pages around the table by keyboard. The account menu closes on Escape (focus
back on its button) and when focus leaves it, so its panel never covers the next control;
My games swapping its lists in place (an invitation arrives) keeps focus on the link it was
on, not the top of the page."""

from __future__ import annotations

import pytest

from accounts.services import friendship_create
from games import services
from tests.games.helpers import play_to_the_end
from tests.journeys.drive import friends_at_a_started_table, in_thread

pytestmark = [pytest.mark.browser]

OPEN = "() => document.querySelector('details.account-menu').open"
FOCUSED = "() => document.activeElement && (document.activeElement.getAttribute('href') || document.activeElement.tagName)"


def test_the_account_menu_closes_on_escape_and_when_focus_leaves(make_user, signed_in_page, stack):
    page = signed_in_page(make_user("uma"))
    page.goto(f"{stack.base}/games/")
    page.locator("details.account-menu summary").focus()
    page.keyboard.press("Enter")
    assert page.evaluate(OPEN)
    page.keyboard.press("Tab")  # into the panel: it stays open
    assert page.evaluate(OPEN)
    page.keyboard.press("Escape")
    assert not page.evaluate(OPEN)
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    page.keyboard.press("Enter")
    assert page.evaluate(OPEN)
    for _ in range(12):  # through the panel and out of it
        page.keyboard.press("Tab")
        if not page.evaluate(
            "() => document.querySelector('details.account-menu').contains(document.activeElement)"
        ):
            break
    assert not page.evaluate(OPEN), "focus left: the panel no longer covers what it went to"


def test_my_games_keeps_focus_on_its_link_when_an_invitation_arrives(
    make_user, signed_in_page, stack
):
    vic, wes = make_user("vic"), make_user("wes")
    in_thread(lambda: friendship_create(vic, wes))
    first = in_thread(
        lambda: services.game_create(vic, engine="imperador", seats=3, bots=1, invite=["wes"])
    )
    page = signed_in_page(wes)
    page.goto(f"{stack.base}/games/")
    link = page.locator(f"#my-games-lists a[href='/games/{first.pk}/']").first
    link.focus()
    stamp = page.get_attribute("#my-games-lists", "data-stamp")
    second = in_thread(
        lambda: services.game_create(vic, engine="imperador", seats=3, bots=1, invite=["wes"])
    )
    page.wait_for_function(
        "(s) => document.querySelector('#my-games-lists').dataset.stamp !== s",
        arg=stamp,
        timeout=15_000,
    )
    page.wait_for_selector(f"#my-games-lists a[href='/games/{second.pk}/']")
    assert page.evaluate(FOCUSED) == f"/games/{first.pk}/"


def test_the_reveal_keeps_focus_on_the_step_link_pressed(make_user, signed_in_page, stack):
    """Each step of the reveal is a page of its own: Enter on "Next" loaded the next step
    with focus back at the page's start, a dozen Tabs away from "Next" again."""
    users = [make_user(name) for name in ("xia", "yul", "zak")]
    game = in_thread(lambda: friends_at_a_started_table(users, "mogel-motte"))
    in_thread(lambda: play_to_the_end(game, seed=2))
    page = signed_in_page(users[0])
    page.goto(f"{stack.base}/games/{game.pk}/replay/?step=1")
    for step in (2, 3):
        page.locator('[data-step="next"]').focus()
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert f"step={step}" in page.url
        page.wait_for_load_state()
        assert page.evaluate("() => document.activeElement.dataset.step") == "next"
    page.locator('[data-step="prev"]').focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_load_state()
    assert page.evaluate("() => document.activeElement.dataset.step") == "prev"
