"""Journey: a player closes their account from the profile, in a real browser, while their
other browser is at two tables (their own seat, and a friend's table they watch).

The close page asks for the tick, then for the password again (a wrong one is refused);
the home page says the account is closed. At once, the other browser's sockets close (its
next page is the sign-in page), the API token stops working, and the other players see the
bot in the seat. The account cannot sign in again, nor its username be taken again; its
email address can sign up anew."""

from __future__ import annotations

import re
import time
import urllib.error
import urllib.request

import pytest

from accounts.models import User
from accounts.services import api_token_create, friendship_create
from games import services
from games.models import Game, Seat
from tests.journeys.drive import PASSWORD as NEW_PASSWORD
from tests.journeys.drive import friends_at_a_started_table, in_thread

pytestmark = [pytest.mark.browser]

PASSWORD = "a-long-test-password"  # make_user's


def _api_status(base: str, raw: str) -> int:
    request = urllib.request.Request(
        f"{base}/api/games", headers={"Authorization": f"Bearer {raw}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_closing_an_account_in_the_browser(make_user, signed_in_page, new_page, stack):
    alice, bob, carol, dave, erin = (
        make_user(n) for n in ("alice", "bob", "carol", "dave", "erin")
    )
    playing = in_thread(lambda: friends_at_a_started_table([bob, alice, carol], "imperador"))
    watched = in_thread(lambda: friends_at_a_started_table([dave, erin], "cockroach-poker-royal"))
    in_thread(lambda: friendship_create(alice, dave))
    lobby = in_thread(
        lambda: services.game_create(alice, engine="imperador", seats=3, invite=["bob"])
    )
    _token, raw = in_thread(lambda: api_token_create(alice, "script"))
    assert _api_status(stack.base, raw) == 200

    elsewhere = signed_in_page(alice)  # her other browser, at both tables
    watching = elsewhere.context.new_page()
    closed: dict[str, float] = {}
    for page, name in ((elsewhere, "seat"), (watching, "watch")):
        page.on(
            "websocket",
            lambda ws, name=name: (
                ws.on("close", lambda _ws: closed.setdefault(name, time.monotonic()))
                if "/ws/games/" in ws.url
                else None
            ),
        )
    elsewhere.goto(f"{stack.base}/games/{playing.pk}/")
    watching.goto(f"{stack.base}/games/{watched.pk}/")
    for page in (elsewhere, watching):
        page.wait_for_selector("[data-live]")
    elsewhere.wait_for_timeout(1000)  # both sockets open
    assert not closed
    bobs = signed_in_page(bob)
    bobs.goto(f"{stack.base}/games/{playing.pk}/")

    page = signed_in_page(alice)
    page.goto(f"{stack.base}/profile/")
    page.click("text=Close my account")
    page.wait_for_url("**/profile/close/")
    page.check('input[name="confirm"]')
    page.click("button.danger")
    page.wait_for_url(re.compile(r"/accounts/reauthenticate/"))
    page.fill('input[name="password"]', "not-her-password")
    page.click('main form button[type="submit"]')
    assert "Incorrect password." in page.locator("main").inner_text()
    assert in_thread(lambda: User.objects.get(pk=alice.pk).is_active)
    page.fill('input[name="password"]', PASSWORD)
    started = time.monotonic()
    page.click('main form button[type="submit"]')
    page.wait_for_url(f"{stack.base}/")
    assert (
        "Your account is closed. Thank you for playing." in page.locator(".messages").inner_text()
    )

    # the other browser: both sockets closed at once, its next page asks to sign in
    elsewhere.wait_for_timeout(3000)
    assert set(closed) == {"seat", "watch"}, closed
    assert all(at - started < 3 for at in closed.values()), closed
    elsewhere.reload()
    assert "/accounts/login/" in elsewhere.url
    assert _api_status(stack.base, raw) == 401
    # the others: the bot has her seat and the game goes on; her table is cancelled
    seat = in_thread(lambda: Seat.objects.get(game=playing, user=alice))
    assert seat.is_bot and seat.bot_reason == "closed"
    assert in_thread(lambda: Game.objects.get(pk=playing.pk).status) == Game.Status.ACTIVE
    assert in_thread(lambda: Game.objects.get(pk=lobby.pk).status) == Game.Status.ABORTED
    bobs.reload()
    assert "alice (bot)" in bobs.locator("main").inner_text()

    # signing in again is refused as any wrong password is
    again = new_page()
    again.goto(f"{stack.base}/accounts/login/")
    again.fill('input[name="login"]', "alice")
    again.fill('input[name="password"]', PASSWORD)
    again.click('main form button[type="submit"]')
    assert "are not correct" in again.locator("main").inner_text()
    # her username stays hers (it names her on the records); her address is free again
    again.goto(f"{stack.base}/accounts/signup/")
    form = again.locator('form:has(input[name="username"])')
    form.locator('input[name="email"]').fill("alice@example.com")
    form.locator('input[name="username"]').fill("alice")
    form.locator('input[name="password1"]').fill(NEW_PASSWORD)
    form.locator('input[name="password2"]').fill(NEW_PASSWORD)
    form.locator('button[type="submit"]').click()
    assert "A user with that username already exists." in again.locator("main").inner_text()
    form = again.locator('form:has(input[name="username"])')
    form.locator('input[name="username"]').fill("alice2")
    form.locator('input[name="password1"]').fill(NEW_PASSWORD)
    form.locator('input[name="password2"]').fill(NEW_PASSWORD)
    form.locator('button[type="submit"]').click()
    again.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    assert in_thread(lambda: User.objects.get(email="alice@example.com").username) == "alice2"
