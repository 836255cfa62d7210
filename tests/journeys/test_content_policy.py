"""Journey: the Content-Security-Policy (scripts from our files only) refuses nothing the
site itself does. Every journey checks that much (tests/journeys/conftest.py); this one walks
the pages no other journey opens: the language menu, profile, friends, notifications, the API
docs (Swagger UI) and the admin, a game's hidden cards revealed through its step."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from accounts.moderators import make_moderator
from games import services
from tests.journeys.drive import (
    in_thread,
    revision,
    wait_revision,
    waiting_seat_at_a_started_table,
)

pytestmark = [pytest.mark.browser]


def test_the_sites_pages_run_under_the_policy(make_user, signed_in_page, new_page, stack):
    game, engine, mover, users = waiting_seat_at_a_started_table(
        make_user, ("ria", "sol", "tam"), "cockroach-poker-royal"
    )
    page = signed_in_page(users[0])
    for path in ("/games/", f"/games/{game.pk}/", "/profile/", "/friends/", "/notifications/"):
        response = page.goto(f"{stack.base}{path}")
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
    # the socket is allowed: a move elsewhere reaches this page without a reload
    page = signed_in_page(users[next(i for i in users if i != mover)])
    page.goto(f"{stack.base}/games/{game.pk}/")
    before = revision(page)
    action = engine.legal_actions(game.state, mover)[0]
    in_thread(lambda: services.act(users[mover], game.pk, game.version_for(mover), action))
    wait_revision(page, before + 1)

    page.goto(f"{stack.base}/api/docs")
    page.wait_for_selector(".swagger-ui .info", timeout=15_000)

    anonymous = new_page()
    anonymous.goto(f"{stack.base}/")
    with anonymous.expect_navigation():
        anonymous.select_option("#language-select", "cs")  # switches at once, by its script
    assert anonymous.evaluate("document.documentElement.lang") == "cs"

    moderator = make_user("mia")
    in_thread(lambda: make_moderator(moderator))
    in_thread(lambda: moderator.user_permissions.add(Permission.objects.get(codename="view_event")))
    admin = signed_in_page(moderator)
    assert admin.goto(f"{stack.base}/admin/").status == 200
    admin.goto(f"{stack.base}/admin/games/game/{game.pk}/change/")
    admin.click("text=Reveal the seed, the full state and the event log")
    with admin.expect_navigation():
        admin.click("input[type=submit][value='Reveal the hidden cards']")
    assert admin.url.endswith("?reveal=1")
    admin.click("text=Show the full state")  # the revealed state, folded open
