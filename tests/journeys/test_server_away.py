"""Journey: a move pressed while the server restarts (the proxy answers 502). The page used
to leave for the proxy's bare "502 Bad Gateway", the move unsent and nothing said after a
reload (outage review). Now the page stays, says the server did not answer, and the same
button plays the move once the server is back. The proxy's failure is played by the browser
(Playwright's route): the one part outside the site."""

from __future__ import annotations

import pytest

from games.models import Event
from tests.games.worker import wait_for
from tests.journeys.drive import click_move, the_waiting_seats_page

pytestmark = [pytest.mark.browser]

BAD_GATEWAY = "<html><body><h1>502 Bad Gateway</h1></body></html>"


def test_a_move_pressed_while_the_server_is_away_keeps_the_page_and_says_so(
    make_user, signed_in_page, stack
):
    game, page, move, fields = the_waiting_seats_page(
        make_user, ("ola", "per", "quin"), "cockroach-poker-royal", signed_in_page, stack.base
    )
    table = page.url
    page.route(
        "**/act/",
        lambda route: route.fulfill(status=502, body=BAD_GATEWAY, content_type="text/html"),
    )

    click_move(page, move, **fields)

    page.wait_for_function(
        "() => document.querySelector('.messages').textContent.includes('did not answer')"
    )
    assert page.url == table and "Bad Gateway" not in page.content()
    assert not Event.objects.filter(game=game).exists()

    page.unroute("**/act/")
    click_move(page, move, **fields)
    assert wait_for(lambda: Event.objects.filter(game=game).count() == 1, 10)
    page.wait_for_function(
        "() => document.querySelector('.messages').textContent.includes('Move played.')"
    )
