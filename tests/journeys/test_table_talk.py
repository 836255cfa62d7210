"""Journey: table talk and table news as a player hears and sees them.

A line sent with Enter shows at once in the sender's own list, the box empties and keeps its
focus; a player typing meanwhile receives the line without losing a letter. Another seat's
move is read out in words (the history's newest entry), not only the status line, which may
read the same as before ("Your turn" again)."""

from __future__ import annotations

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

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


def test_a_player_whose_time_runs_out_hears_it_once(make_user, signed_in_page, stack):
    """A clock is silent to a screen reader: ten seconds before the deadline of the player's
    own move, the page says so (assertively, once); a player not on turn hears nothing."""
    from accounts.services import friendship_create
    from tests.journeys.drive import open_seats

    users = [make_user(name) for name in ("uli", "val")]

    def table() -> Game:
        friendship_create(*users)
        game = services.game_create(
            users[0],
            engine="cockroach-poker-royal",
            seats=2,
            pace="custom",
            move_seconds=16,
            window_seconds=5,
            invite=["val"],
        )
        services.game_join(users[1], game.pk)
        services.game_start(users[0], game.pk)
        return Game.objects.get(pk=game.pk)

    game = in_thread(table)
    pages = open_seats(game, users, signed_in_page, stack.base)
    (mover,) = registry.get(game.engine).waiting_for(game.state).seats
    hurry = "() => document.getElementById('table-alert').textContent.includes('Ten seconds left')"
    pages[mover].wait_for_function(hurry, timeout=15_000)
    assert not pages[1 - mover].evaluate(hurry)


def test_a_banner_of_an_earlier_moment_goes_when_the_table_moves_on(
    make_user, signed_in_page, stack
):
    """'Nudge sent.' (or 'Move played.', 'You took a seat.') told of one moment and stood on
    the page until the end of the game; when another seat moves, it goes."""
    from datetime import timedelta

    from django.db.models import F

    game, pages = people_at_a_table(
        make_user, ("wes", "xia", "yul"), "cockroach-poker-royal", signed_in_page, stack.base
    )
    engine = registry.get(game.engine)
    (mover,) = engine.waiting_for(game.state).seats
    watcher = pages[(mover + 1) % 3]
    # a third of the mover's time goes by: the watcher may nudge (the clock moved, not the game)
    game.refresh_from_db()
    third = (game.deadline_at - game.wait_opened_at) / 3 + timedelta(seconds=1)
    in_thread(
        lambda: Game.objects.filter(pk=game.pk).update(
            wait_opened_at=F("wait_opened_at") - third, deadline_at=F("deadline_at") - third
        )
    )
    watcher.reload()
    watcher.locator("form.nudge button").click()
    watcher.wait_for_function(
        "() => document.querySelector('.messages').textContent.includes('Nudge sent.')",
        timeout=15_000,
    )
    before = revision(watcher)
    action = engine.legal_actions(game.state, mover)[0]
    user = game.seats.get(index=mover).user
    in_thread(lambda: services.act(user, game.pk, game.version_for(mover), action))
    wait_revision(watcher, before + 1)
    watcher.wait_for_function(
        "() => document.querySelector('.messages').textContent.trim() === ''", timeout=15_000
    )


def test_a_muted_players_lines_leave_the_page_at_once(make_user, signed_in_page, stack):
    """A "Mute Bob" from a line's menu said "You no longer see Bob's table talk." and left his
    lines on the page until a reload (admin review)."""
    _game, pages = people_at_a_table(
        make_user, ("zed", "amy"), "cockroach-poker-royal", signed_in_page, stack.base
    )
    zed, amy = pages[0], pages[1]
    amy.locator("#chat-text").fill("You will lose")
    amy.locator("#chat-text").press("Enter")
    zed.wait_for_function(f"() => ({LINES})().includes('You will lose')", timeout=15_000)
    zed.locator(".chat-lines li[data-id] details summary").first.click()
    zed.locator(".chat-lines li[data-id] button", has_text="Mute").first.click()
    zed.wait_for_function(
        "() => document.querySelector('.messages').textContent.includes('no longer see')",
        timeout=15_000,
    )
    zed.wait_for_function(f"() => !({LINES})().includes('You will lose')", timeout=5_000)


def test_the_talk_appears_for_a_player_who_takes_a_seat_in_place(make_user, signed_in_page, stack):
    """The talk panel was drawn only when the page loaded: a player who took a seat on the
    table page never saw it until a reload (live review)."""
    from accounts.services import friendship_create

    host, guest = make_user("bea"), make_user("cyd")

    def lobby() -> Game:
        friendship_create(host, guest)
        return services.game_create(host, engine="imperador", seats=3, invite=["cyd"])

    game = in_thread(lobby)
    page = signed_in_page(guest)
    page.goto(f"{stack.base}/games/{game.pk}/")
    assert page.locator("#chat-slot").is_hidden()
    page.get_by_role("button", name="Take a seat").click()
    page.wait_for_function(
        "() => { const s = document.getElementById('chat-slot');"
        " return s && !s.hidden && !!s.querySelector('#chat-text'); }",
        timeout=15_000,
    )
    page.locator("#chat-text").fill("Hello host")
    page.locator("#chat-text").press("Enter")
    page.wait_for_function(f"() => ({LINES})().includes('Hello host')", timeout=15_000)


def test_a_player_who_leaves_reads_the_spectators_talk_not_the_players(
    make_user, signed_in_page, stack
):
    """At a table whose spectators talk among themselves, lines are numbered per channel: a
    player who left (a spectator now) kept the players' lines on the page, and a spectators'
    line of the same number was taken for one shown already."""
    from accounts.services import friendship_create
    from games.services import chat
    from games.services.departure import game_quit

    dee, eli, fay, gus = (make_user(name) for name in ("dee", "eli", "fay", "gus"))

    def table() -> Game:
        for a, b in ((dee, eli), (dee, fay), (eli, fay), (dee, gus)):
            friendship_create(a, b)
        game = services.game_create(
            dee, engine="imperador", seats=3, invite=["eli", "fay"], spectator_chat="own"
        )
        services.game_join(eli, game.pk)
        services.game_join(fay, game.pk)
        services.game_start(dee, game.pk)
        chat.post(dee, game.pk, "to the players")  # number 1 of the players' talk
        chat.post(gus, game.pk, "to the spectators")  # number 1 of the spectators'
        return game

    game = in_thread(table)
    page = signed_in_page(eli)
    page.goto(f"{stack.base}/games/{game.pk}/")
    assert page.evaluate(LINES) == ["to the players"]
    in_thread(lambda: game_quit(eli, game.pk))
    page.wait_for_function(f"() => ({LINES})().includes('to the spectators')", timeout=15_000)
    assert page.evaluate(LINES) == ["to the spectators"]
    in_thread(lambda: chat.post(gus, game.pk, "welcome, Eli"))
    page.wait_for_function(f"() => ({LINES})().includes('welcome, Eli')", timeout=15_000)
    assert page.evaluate(LINES) == ["to the spectators", "welcome, Eli"]


# Everything the page's polite region held, in order (a MutationObserver's record).
RECORD_SAID = """() => {
  window.__said = [];
  const region = document.getElementById('table-announce');
  new MutationObserver(() => { if (region.textContent) window.__said.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""
NEWEST_ENTRIES = """(n) => Array.from(document.querySelectorAll('[data-live=history] ol.history > li'))
  .slice(0, n).map(li => Array.from(li.querySelectorAll('.event'))
  .map(p => p.textContent.replace(/\\s+/g, ' ').trim()).join(' '))"""


def test_two_moves_in_one_refresh_are_both_read_out_oldest_first(make_user, signed_in_page, stack):
    """A bot's answer lands a moment after the move it answers: a page that refreshes once for
    both read out only the newest, so a screen reader never heard the move answered."""
    game, pages = people_at_a_table(
        make_user, ("uma", "vic", "wes"), "cockroach-poker-royal", signed_in_page, stack.base
    )
    engine = registry.get(game.engine)
    (mover,) = engine.waiting_for(game.state).seats
    offer = engine.legal_actions(game.state, mover)[0]
    watcher = pages[({0, 1, 2} - {mover, offer["to"]}).pop()]
    watcher.evaluate(RECORD_SAID)
    before = revision(watcher)
    held: list = []
    live = f"**/games/{game.pk}/live/**"
    watcher.route(live, lambda route: held.append(route))  # refreshes wait for both moves
    users = {s.index: s.user for s in game.seats.select_related("user")}
    in_thread(lambda: services.act(users[mover], game.pk, game.version_for(mover), offer))
    game.refresh_from_db()
    (answerer,) = engine.waiting_for(game.state).seats
    answer = next(a for a in engine.legal_actions(game.state, answerer) if a["type"] == "call")
    in_thread(lambda: services.act(users[answerer], game.pk, game.version_for(answerer), answer))
    for _ in range(300):  # the moves' pings reach the page, whose refresh the route holds
        if held:
            break
        watcher.wait_for_timeout(50)
    assert held, "the moves' pings asked the page to refresh"
    for route in held:
        route.continue_()
    watcher.unroute(live)
    wait_revision(watcher, before + 1)
    answered, offered = watcher.evaluate(NEWEST_ENTRIES, 2)
    assert offered and answered
    try:
        watcher.wait_for_function(
            "([first, then]) => { const said = window.__said.join(' ');"
            " return said.includes(first) && said.indexOf(first) < said.lastIndexOf(then); }",
            arg=[offered, answered],
            timeout=15_000,
        )
    except PlaywrightTimeout:
        said = watcher.evaluate("window.__said")
        pytest.fail(f"read out {said!r}, not {offered!r} then {answered!r}")
