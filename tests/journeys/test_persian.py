"""Journey: a player switches the site to Persian with the language menu and plays at a table:
the page is right-to-left (``<html lang="fa" dir="rtl">``), speaks Persian, and its live
parts work the same (a move made in the page shows in place)."""

from __future__ import annotations

import re

import pytest

from games import services
from games.engines import registry
from games.models import Game
from tests.journeys.drive import AnyOf, in_thread, move, shoot, wait_revision

JOURNEY = "persian"
PERSIAN = re.compile(r"[\u0600-\u06FF]")

pytestmark = [pytest.mark.browser]


def test_a_persian_table_page_is_right_to_left_and_plays_in_place(make_user, signed_in_page, stack):
    sara = make_user("sara")

    def set_up() -> Game:
        game = services.game_create(
            sara,
            engine="cockroach-poker-royal",
            seats=3,
            bots=2,
            options={registry.get("cockroach-poker-royal").start_option: 0},
        )
        services.game_start(sara, game.pk)
        return Game.objects.get(pk=game.pk)

    game = in_thread(set_up)
    page = signed_in_page(sara)
    page.goto(f"{stack.base}/games/")
    assert page.locator("html").get_attribute("dir") == "ltr"
    page.locator("details:has(select[name='language']) > summary").click()
    with page.expect_navigation():
        page.locator("select[name='language']").select_option("fa")
    assert page.locator("html").get_attribute("lang") == "fa"

    page.goto(f"{stack.base}/games/{game.pk}/")
    html = page.locator("html")
    assert (html.get_attribute("lang"), html.get_attribute("dir")) == ("fa", "rtl")
    assert PERSIAN.search(page.locator("#status").inner_text())
    shoot(page, JOURNEY, "01-table-rtl")
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page reloads

    engine = registry.get(game.engine, game.rules_version)
    (seat,) = engine.waiting_for(game.state).seats
    assert seat == 0  # sara starts; the bots answer in the same change
    wait_revision(page, game.revision_for(seat))
    hand = game.state["hands"][0]
    kinds = game.state["kinds"]
    card = next(c for c in hand if kinds[c] not in ("joker", "blank"))
    move(
        page,
        "offer",
        card=AnyOf(c for c in hand if kinds[c] == kinds[card]),
        to=1,
        claim=kinds[card].removeprefix("royal_"),
    )
    game.refresh_from_db()
    wait_revision(page, game.revision_for(0))
    assert page.evaluate("() => window.__sameDocument === true"), "the move reloaded the page"
    assert page.locator("html").get_attribute("dir") == "rtl"
    assert PERSIAN.search(page.locator('[data-live="history"]').inner_text())
    shoot(page, JOURNEY, "02-after-a-move")


def test_the_keyboards_arrows_choose_a_language_and_the_button_switches(
    make_user, signed_in_page, stack
):
    """An arrow key in the language menu used to reload the page in the next language at
    once (WCAG 3.2.2): French lay three reloads away. Now the arrows only choose."""
    page = signed_in_page(make_user("tove"))
    page.goto(f"{stack.base}/games/")
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page reloads
    page.locator("details:has(select[name='language']) > summary").click()
    page.locator("select[name='language']").focus()
    for _ in range(4):  # en → … → the last of five
        page.keyboard.press("ArrowDown")
    page.wait_for_timeout(700)
    assert page.evaluate("() => window.__sameDocument === true"), "an arrow key reloaded"
    assert page.locator("html").get_attribute("lang") == "en"
    chosen = page.locator("select[name='language']").input_value()
    assert chosen != "en"
    page.keyboard.press("Tab")  # to the button
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.locator("html").get_attribute("lang") == chosen
