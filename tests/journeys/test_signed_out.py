"""Journey: signed out while choosing a move (the session ended in another tab). Pressing the
move's button opens the sign-in page, which says why: the move waits at the table. With the
page's script the fetch used to read that message on its way, and the sign-in page came up
saying nothing."""

from __future__ import annotations

import pytest
from django.contrib.sessions.models import Session

from tests.journeys.drive import click_move, in_thread, the_waiting_seats_page

pytestmark = [pytest.mark.browser]


def test_a_move_pressed_after_the_session_ended_opens_a_sign_in_page_that_says_why(
    make_user, signed_in_page, stack
):
    _game, page, move, fields = the_waiting_seats_page(
        make_user, ("oda", "pim", "quy"), "cockroach-poker-royal", signed_in_page, stack.base
    )
    in_thread(lambda: Session.objects.all().delete())  # signed out elsewhere
    click_move(page, move, **fields)
    page.wait_for_url("**/accounts/login/**")
    assert "Log in again to send your move" in page.locator(".messages").inner_text()
