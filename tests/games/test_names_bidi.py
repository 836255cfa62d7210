"""A player's name keeps its place in a Persian sentence.

In a right-to-left paragraph a Latin name runs together, left to right, with what stands next
to it with only spaces or punctuation between: Imperador's «%(emperor)s، %(name)s را انتخاب
می‌کند» ("alice picks bob") was drawn "bob، alice" and read as "bob picks alice"; «دروغ لو
رفت: %(names)s %(foxes)s روباه می‌گیرد» put the number of foxes before the liar's name. (A list
was already in order: the Persian list comma carries a right-to-left mark.) The history's
sentences set each name apart (FSI…PDI, ``config.bidi``), and so does the admin's title of a
block. Chromium draws the pages, and each line's names and numbers must come right to left in
the order the sentence says them.
"""

from __future__ import annotations

import re
from itertools import pairwise

import pytest
from django.conf import settings
from django.test import Client

from accounts.models import Block
from accounts.services import user_block
from games.models import Event
from tests.games.helpers import play_until, seat_users
from tests.games.test_number_ranges_bidi import CHROMIUM, _inline_css

pytestmark = pytest.mark.django_db

# In each element matched, the names and the numbers of its text in the order they are written
# (a number isolated left to right, "3–4" between LRI and PDI or in a dir="ltr" element, is
# one with its range: skipped), each with where Chromium drew it.
DRAWN = """
([selector, names]) => {
  const pattern = new RegExp("\\\\b(" + names.join("|") + ")\\\\b|\\\\d+", "g");
  const lines = [];
  for (const element of document.querySelectorAll(selector)) {
    const found = [];
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest("[dir=ltr]")) continue;
      const text = node.nodeValue;
      for (const m of text.matchAll(pattern)) {
        const before = text.slice(0, m.index);
        if (!m[1] && before.lastIndexOf("\\u2066") > before.lastIndexOf("\\u2069")) continue;
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const box = range.getClientRects()[0];
        if (box && box.width >= 1) found.push([m[0], box.left, box.top]);
      }
    }
    lines.push([element.textContent.trim(), found]);
  }
  return lines;
}
"""


def _out_of_order(lines: list) -> list[str]:
    """The lines whose names and numbers are not drawn right to left in the order written (each
    visual line on its own: a long sentence may wrap)."""
    wrong = []
    for text, found in lines:
        for (_a, left_a, top_a), (_b, left_b, top_b) in pairwise(found):
            if abs(top_a - top_b) <= 2 and not left_a > left_b:
                wrong.append(text)
                break
    return wrong


def _drawn(pages: dict[str, str], selector: str, names: list[str]) -> dict[str, list]:
    from playwright.sync_api import sync_playwright

    drawn = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            tab = browser.new_page(viewport={"width": 1280, "height": 900})
            for name, html in pages.items():
                tab.set_content(_inline_css(html))
                drawn[name] = tab.evaluate(DRAWN, [selector, names])
        finally:
            browser.close()
    return drawn


def _persian(client: Client, path: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    response = client.get(path)
    assert response.status_code == 200, path
    html = response.content.decode()
    assert 'dir="rtl"' in html[:300]
    return html


def _picked(game) -> object | None:
    """The game just after an emperor picked a player (the newest row says so)."""
    row = Event.objects.filter(game=game).order_by("-seq").first()
    kinds = {event.get("kind") for event in (row.events if row else [])}
    return game if "player_picked" in kinds else None


@pytest.mark.browser
def test_an_imperador_history_in_persian_says_who_picked_whom(started, trio):
    game = play_until(lambda: started("imperador"), _picked, seed=2)
    pages = {}
    for seat, user in seat_users(game).items():
        client = Client()
        client.force_login(user)
        pages[f"seat {seat}"] = _persian(client, f"/games/{game.pk}/")
    drawn = _drawn(pages, "p.event", ["alice", "bob", "carol"])
    for page, lines in drawn.items():
        # the emperor's pick, drawn in "Last moves" and in the History (earlier lines folded)
        picks = [
            text
            for text, found in lines
            if "را انتخاب می‌کند" in text and len([t for t in found if not t[0].isdigit()]) == 2
        ]
        assert len(picks) >= 2, (page, lines)
        assert _out_of_order(lines) == [], page


@pytest.mark.browser
def test_a_blocks_admin_title_in_persian_says_who_blocked_whom(trio, as_admin):
    alice, bob, _carol = trio
    user_block(alice, bob)
    block = Block.objects.get(blocker=alice, blocked=bob)
    html = _persian(as_admin, f"/admin/accounts/block/{block.pk}/change/")
    assert re.search(r"alice.{0,20}bob", html)
    drawn = _drawn({"block": html}, "#content h2, .breadcrumbs", ["alice", "bob"])
    lines = [(text, found) for text, found in drawn["block"] if len(found) == 2]
    assert lines, drawn
    assert _out_of_order(lines) == []


def test_the_check_sees_names_drawn_the_wrong_way():
    lines = [("alice، bob", [["alice", 10, 0], ["bob", 60, 0]])]
    assert _out_of_order(lines) == ["alice، bob"]
    assert _out_of_order([("x", [["alice", 60, 0], ["2", 40, 0], ["bob", 300, 30]])]) == []
