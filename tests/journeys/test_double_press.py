"""Journey: two move buttons pressed within a few milliseconds (a thumb that slid, a double
tap on two targets). One move is played, and the page says so: both were posted before, and
the second's "Too late" replaced the first's "Move played." (robustness review, 2026-12-01)."""

from __future__ import annotations

import pytest

from games import services
from games.engines import registry
from games.models import Event, Game
from tests.games.worker import wait_for
from tests.journeys.drive import in_thread, people_at_a_table, settle, wait_revision

ENGINE = "cockroach-poker-royal"
pytestmark = [pytest.mark.browser]

# Both buttons of two different move forms, pressed in the same tick.
PRESS_TWO = """() => {
  const buttons = [...document.querySelectorAll('#live-root form')]
    .filter((f) => ['call', 'peek'].includes((f.querySelector('input[name="type"]') || {}).value))
    .map((f) => f.querySelector('button'));
  buttons[0].click();
  buttons[buttons.length - 1].click();
  return buttons.length;
}"""


def test_two_move_buttons_pressed_at_once_play_one_move_and_say_so(
    make_user, signed_in_page, stack
):
    engine = registry.get(ENGINE)
    game, pages = people_at_a_table(
        make_user, ("ana", "ben", "cat"), ENGINE, signed_in_page, stack.base
    )
    offerer = engine.waiting_for(game.state).seats[0]
    users = {s.index: s.user for s in game.seats.select_related("user")}
    offer = engine.legal_actions(game.state, offerer)[0]
    in_thread(lambda: services.act(users[offerer], game.pk, game.version_for(offerer), offer))
    game.refresh_from_db()
    receiver = engine.waiting_for(game.state).seats[0]
    page = pages[receiver]
    wait_revision(page, game.revision_for(receiver))
    settle(page)
    before = Event.objects.filter(game=game).count()

    assert page.evaluate(PRESS_TWO) >= 2

    assert wait_for(lambda: Event.objects.filter(game=game).count() > before, 10)
    page.wait_for_function(
        "() => document.querySelector('.messages').textContent.trim() !== ''", timeout=10_000
    )
    page.wait_for_timeout(1500)  # the second answer, had it been posted, is in by now
    moves = Event.objects.filter(game=game, actor=users[receiver], reason=Event.Reason.MOVE)
    assert moves.count() == 1
    said = page.locator(".messages").text_content() or ""
    assert "Move played." in said and "Too late" not in said, said
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
