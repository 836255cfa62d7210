"""Journey: table talk and table news as a player hears and sees them.

A line sent with Enter shows at once in the sender's own list, the box empties and keeps its
focus; a player typing meanwhile receives the line without losing a letter. Another seat's
move is read out in words (the history's newest entry), not only the status line, which may
read the same as before ("Your turn" again)."""

from __future__ import annotations

import pytest

from games import services
from games.engines import registry
from games.models import Game
from tests.journeys.drive import in_thread, people_at_a_table, revision, wait_revision

pytestmark = [pytest.mark.browser]

LINES = "() => Array.from(document.querySelectorAll('.chat-lines li[data-id]')).map(li => li.querySelector('span').textContent)"


def test_a_line_sent_with_enter_shows_for_both_and_nobody_loses_focus(
    make_user, signed_in_page, stack
):
    _game, pages = people_at_a_table(
        make_user, ("ode", "pia"), "cockroach-poker-royal", signed_in_page, stack.base
    )
    ode, pia = pages[0], pages[1]
    pia.locator("#chat-text").fill("half a thou")  # pia is typing when ode's line comes
    pia.locator("#chat-text").focus()
    ode.locator("#chat-text").fill("Nice bluff!")
    ode.locator("#chat-text").press("Enter")
    ode.wait_for_function(f"() => ({LINES})().includes('Nice bluff!')", timeout=15_000)
    assert ode.evaluate(LINES) == ["Nice bluff!"], "once, and 'Nothing said yet' gone"
    assert ode.locator("#chat-text").input_value() == ""
    assert ode.evaluate("document.activeElement.id") == "chat-text"
    pia.wait_for_function(f"() => ({LINES})().includes('Nice bluff!')", timeout=15_000)
    assert pia.locator("#chat-text").input_value() == "half a thou"
    assert pia.evaluate("document.activeElement.id") == "chat-text"
    assert (
        pia.evaluate("document.querySelector('.chat-lines').parentElement.getAttribute('role')")
        == "log"
    )


def test_another_seats_move_is_read_out_in_words(make_user, signed_in_page, stack):
    game, pages = people_at_a_table(
        make_user, ("rae", "sol", "tam"), "cockroach-poker-royal", signed_in_page, stack.base
    )
    engine = registry.get(game.engine)
    (mover,) = engine.waiting_for(game.state).seats
    watcher = pages[(mover + 1) % 3]
    before = revision(watcher)
    action = engine.legal_actions(game.state, mover)[0]
    user = game.seats.get(index=mover).user
    in_thread(lambda: services.act(user, game.pk, game.version_for(mover), action))
    wait_revision(watcher, before + 1)
    newest = watcher.evaluate(
        "() => Array.from(document.querySelectorAll('[data-live=history] ol.history > li:first-child .event'))"
        ".map(p => p.textContent.replace(/\\s+/g, ' ').trim()).join(' ')"
    )
    assert newest, "the move is in the history"
    watcher.wait_for_function(
        "(words) => document.getElementById('table-announce').textContent.includes(words)",
        arg=newest,
        timeout=15_000,
    )
    assert Game.objects.get(pk=game.pk).version == game.version + 1
