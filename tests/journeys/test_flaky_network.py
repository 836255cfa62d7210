"""Journeys: a phone on a flaky network. A move pressed while the phone is offline, or whose
answer never comes back (the connection dropped on the way), used to make the browser post the
form itself: the page left the table for the browser's own "No internet" page, the move lost
and the table gone until the player found their way back (live-phase review). Now the page
stays and says what happened; the same button plays the move once the phone is back. And a
page whose socket was away long enough for its retries to space out to 16 s reconnects and
catches up as soon as the phone is back online, not at its next retry. The network is cut by
the browser (Playwright's offline mode and routes): the one part outside the site."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.sessions.models import Session

from games import services
from games.models import Event
from tests.games.worker import wait_for
from tests.journeys.drive import (
    click_move,
    in_thread,
    revision,
    the_waiting_seats_page,
    wait_revision,
    waiting_seat_at_a_started_table,
)

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
MESSAGES = "() => document.querySelector('.messages').textContent.includes(%r)"


def test_a_move_pressed_offline_is_not_sent_and_the_page_says_so(make_user, signed_in_page, stack):
    game, page, move, fields = the_waiting_seats_page(
        make_user, ("ada", "bo", "cy"), "mogel-motte", signed_in_page, stack.base
    )
    page.set_viewport_size(PHONE)
    table = page.url
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")

    click_move(page, move, **fields)

    page.wait_for_function(MESSAGES % "You are offline: nothing was sent.")
    assert page.url == table
    assert not Event.objects.filter(game=game).exists()

    page.context.set_offline(False)
    page.wait_for_function("() => navigator.onLine")
    click_move(page, move, **fields)
    assert wait_for(lambda: Event.objects.filter(game=game).count() == 1, 10)
    page.wait_for_function(MESSAGES % "Move played.")


def test_a_move_whose_answer_never_comes_keeps_the_page_and_says_so(
    make_user, signed_in_page, stack
):
    game, page, move, fields = the_waiting_seats_page(
        make_user, ("dee", "eli", "fay"), "mogel-motte", signed_in_page, stack.base
    )
    page.set_viewport_size(PHONE)
    table = page.url
    page.route("**/act/", lambda route: route.abort("connectionreset"))

    click_move(page, move, **fields)

    page.wait_for_function(MESSAGES % "did not answer")
    assert page.url == table
    assert not Event.objects.filter(game=game).exists()

    page.unroute("**/act/")
    click_move(page, move, **fields)
    assert wait_for(lambda: Event.objects.filter(game=game).count() == 1, 10)
    page.wait_for_function(MESSAGES % "Move played.")


def test_a_page_back_online_catches_up_at_once(make_user, signed_in_page, stack):
    game, engine, mover, seats = waiting_seat_at_a_started_table(
        make_user, ("gil", "hal", "ivo"), "mogel-motte"
    )
    watcher = seats[next(i for i in seats if i != mover)]
    cut = {"on": False, "refused": 0}
    open_routes = []

    def socket_route(ws):
        if cut["on"]:
            cut["refused"] += 1
            ws.close(code=1011)
        else:
            ws.connect_to_server()
            open_routes.append(ws)

    page = signed_in_page(watcher)
    page.set_viewport_size(PHONE)
    page.route_web_socket("**/ws/games/**", socket_route)
    page.goto(f"{stack.base}/games/{game.pk}/")
    before = revision(page)

    # the phone loses its network: the socket drops, every retry fails (after 1, 2, 4, 8 s
    # and a half more at most), the next one is 16-24 s away
    cut["on"] = True
    page.context.set_offline(True)
    for ws in open_routes:
        ws.close(code=1011)
    page.wait_for_selector("#connection-note", state="visible", timeout=10_000)
    for _ in range(120):  # Playwright's loop must run for the route to be called
        if cut["refused"] >= 4:
            break
        page.wait_for_timeout(250)
    assert cut["refused"] >= 4
    action = engine.legal_actions(game.state, mover)[0]
    in_thread(lambda: services.act(seats[mover], game.pk, game.version_for(mover), action))

    cut["on"] = False
    page.context.set_offline(False)
    wait_revision(page, before + 1, timeout=6_000)
    page.wait_for_selector("#connection-note", state="hidden", timeout=6_000)


def test_a_page_signed_out_while_away_stops_reconnecting(make_user, signed_in_page, stack):
    """Signed out while the phone was away (the sign-out's own ping missed): the server refused
    the socket before accepting it, which a browser sees as a bare failure (1006), so the
    page tried again every 30 s for as long as it stayed open. Now it hears the refusal's
    code and stops."""
    game, _engine, mover, seats = waiting_seat_at_a_started_table(
        make_user, ("jo", "kit", "lu"), "mogel-motte"
    )
    attempts = []

    def socket_route(ws):
        attempts.append(ws)
        ws.connect_to_server()

    page = signed_in_page(seats[mover])
    page.set_viewport_size(PHONE)
    page.route_web_socket("**/ws/games/**", socket_route)
    page.goto(f"{stack.base}/games/{game.pk}/")
    page.wait_for_function("() => true")  # the page's script ran; its socket is routed
    for _ in range(60):
        if attempts:
            break
        page.wait_for_timeout(250)
    assert len(attempts) == 1

    in_thread(lambda: Session.objects.all().delete())  # the session ended while away
    attempts[0].close(code=1011)  # the network dropped the socket

    for _ in range(60):  # the reconnect (after 1-1.5 s), refused
        if len(attempts) >= 2:
            break
        page.wait_for_timeout(250)
    assert len(attempts) == 2
    page.wait_for_timeout(6_000)  # a bare failure was retried after 2-3 s more
    assert len(attempts) == 2


def test_a_page_whose_socket_died_silently_opens_a_new_one_and_catches_up(
    make_user, signed_in_page, stack
):
    """A phone back on the network after a drop, or moved from Wi-Fi to mobile data, may keep
    a dead socket that neither closes nor carries anything: the page heard no move again until
    a reload. Now a hello or a beat the server has not answered within 12 s makes it let the
    socket go and open a new one, whose hello brings it up to date."""
    game, engine, mover, seats = waiting_seat_at_a_started_table(
        make_user, ("mo", "ned", "ora"), "mogel-motte"
    )
    watcher = seats[next(i for i in seats if i != mover)]
    alive: list[dict[str, Any]] = []

    def socket_route(ws):
        server = ws.connect_to_server()
        this = {"on": True, "heard": 0}
        alive.append(this)

        def down(message):
            if this["on"]:
                this["heard"] += 1
                ws.send(message)

        ws.on_message(lambda message: server.send(message) if this["on"] else None)
        server.on_message(down)

    page = signed_in_page(watcher)
    page.set_viewport_size(PHONE)
    page.route_web_socket("**/ws/games/**", socket_route)
    page.goto(f"{stack.base}/games/{game.pk}/")
    before = revision(page)
    for _ in range(60):  # Playwright's loop must run for the route to be called
        if alive and alive[0]["heard"] >= 2:  # the state and the answer to the page's hello
            break
        page.wait_for_timeout(250)
    assert len(alive) == 1 and alive[0]["heard"] >= 2

    alive[0]["on"] = False  # the connection dies without a word either way
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")
    with page.expect_response(lambda r: r.url.endswith("/live/")):  # back: the page catches up
        page.context.set_offline(False)
    action = engine.legal_actions(game.state, mover)[0]
    in_thread(lambda: services.act(seats[mover], game.pk, game.version_for(mover), action))

    wait_revision(page, before + 1, timeout=30_000)
    assert len(alive) == 2


def test_a_refresh_that_finds_nothing_new_is_a_304_and_the_next_move_still_shows(
    make_user, signed_in_page, stack
):
    """Back online, the page refreshes its parts: with nothing new for this seat it names the
    parts it shows (If-None-Match) and is answered 304, no body, where it fetched them all
    again (12-27 KB on a phone). The page stays as it was, and a move made next still shows."""
    game, engine, mover, seats = waiting_seat_at_a_started_table(
        make_user, ("pia", "quin", "rolf"), "cockroach-poker-royal"
    )
    watcher = seats[next(i for i in seats if i != mover)]
    page = signed_in_page(watcher)
    page.set_viewport_size(PHONE)
    page.goto(f"{stack.base}/games/{game.pk}/")
    before, tag = revision(page), page.locator("#live-root").get_attribute("data-tag")

    def status() -> str:  # without the running clock
        return page.locator("#status").inner_text().split(" · ")[0]

    said = status()

    def back_online() -> Any:
        page.context.set_offline(True)
        page.wait_for_function("() => !navigator.onLine")
        with page.expect_response(lambda r: r.url.endswith("/live/")) as answer:
            page.context.set_offline(False)
        return answer.value

    unchanged = back_online()
    assert unchanged.status == 304
    assert unchanged.request.headers.get("if-none-match") == tag
    assert unchanged.headers.get("content-length") in (None, "0")  # no body
    assert revision(page) == before and status() == said
    assert page.locator("#live-root").get_attribute("data-tag") == tag

    action = engine.legal_actions(game.state, mover)[0]
    in_thread(lambda: services.act(seats[mover], game.pk, game.version_for(mover), action))
    wait_revision(page, before + 1)
    moved_on = page.locator("#live-root").get_attribute("data-tag")
    assert moved_on != tag
    assert status() != said
    again = back_online()
    assert again.status == 304 and again.request.headers.get("if-none-match") == moved_on
