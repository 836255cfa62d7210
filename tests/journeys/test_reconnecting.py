"""Journey: the table's socket cannot reach the server for a while (Redis or the socket
server restarting). The page showed the last state with a running clock, as if nothing moved
(outage review); now it says it is reconnecting, and once back it hides that and catches up
with the move made meanwhile. The socket's way to the server is cut by the browser
(Playwright's WebSocket route): the one part outside the site."""

from __future__ import annotations

import pytest

from games import services
from tests.journeys.drive import (
    in_thread,
    revision,
    wait_revision,
    waiting_seat_at_a_started_table,
)

pytestmark = [pytest.mark.browser]

NOTE = "#connection-note"


def test_the_table_says_it_is_reconnecting_and_catches_up_after(make_user, signed_in_page, stack):
    game, engine, mover, seats = waiting_seat_at_a_started_table(
        make_user, ("uli", "vera", "wim"), "cockroach-poker-royal"
    )
    watcher = seats[next(i for i in seats if i != mover)]
    cut = {"on": False}
    open_routes = []

    def socket_route(ws):
        if cut["on"]:
            ws.close(code=1011)
        else:
            ws.connect_to_server()
            open_routes.append(ws)

    page = signed_in_page(watcher)
    page.route_web_socket("**/ws/games/**", socket_route)
    page.goto(f"{stack.base}/games/{game.pk}/")
    assert page.locator(NOTE).is_hidden()
    before = revision(page)

    cut["on"] = True
    for ws in open_routes:  # the open socket drops; each new one is refused
        ws.close(code=1011)
    # 4 s after the socket went: each refused retry restarted the count, 7-8.5 s (review)
    page.wait_for_selector(NOTE, state="visible", timeout=6_000)
    action = engine.legal_actions(game.state, mover)[0]
    in_thread(lambda: services.act(seats[mover], game.pk, game.version_for(mover), action))

    cut["on"] = False
    page.wait_for_selector(NOTE, state="hidden", timeout=30_000)
    wait_revision(page, before + 1)
