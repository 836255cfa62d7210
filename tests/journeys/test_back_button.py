"""Journey: the back button on a phone, then the same button pressed again. A new-table form
sent again from the back button made a second table and invited everyone twice (phone review,
2026-12-07): the browser fetched the form again and put back the player's choices, but not its
hidden key, so the guard (games/create_once.py) saw a new form."""

from __future__ import annotations

import re

import pytest

from games.models import Game

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def test_the_new_table_form_sent_again_from_the_back_button_opens_its_table(
    make_user, signed_in_page, stack
):
    player = make_user("ivo")
    page = signed_in_page(player)
    page.set_viewport_size(PHONE)
    page.goto(f"{stack.base}/games/new/")
    form = page.locator('form:has(select[name="game"])')
    form.locator('select[name="game"]').select_option("mogel-motte")
    form.locator('input[name="seats"]').fill("3")
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    made = page.url

    page.go_back()
    form = page.locator('form:has(select[name="game"])')
    assert form.locator('select[name="game"]').input_value() == "mogel-motte"  # put back
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))

    assert page.url == made
    assert "This table was already created." in page.locator(".messages").inner_text()
    assert Game.objects.filter(created_by=player).count() == 1


def test_the_new_table_form_refused_many_times_still_makes_its_table(
    make_user, signed_in_page, stack
):
    """Each refusal drew the form again with the key as sent, and kept-key.js marked it once
    more ("-kept-kept-…"): the tenth refusal's form came back with "Ensure this value has at
    most 64 characters" about a field the player cannot see, and no table could be made from
    that page any more (review, 2026-12-07)."""
    player = make_user("ula")
    page = signed_in_page(player)
    page.goto(f"{stack.base}/games/new/")
    form = page.locator('form:has(select[name="game"])')
    form.locator('select[name="game"]').select_option("mogel-motte")
    for _refused in range(12):
        form.locator('input[name="seats"]').fill("1")  # too few: refused, the form drawn again
        form.locator('button[type="submit"]').click()
        page.wait_for_load_state()
        assert page.locator("#id_seats_error").count()
        assert not page.locator("#form-errors").count(), page.locator("#form-errors").inner_text()
    form.locator('input[name="seats"]').fill("3")
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    assert Game.objects.filter(created_by=player).count() == 1
