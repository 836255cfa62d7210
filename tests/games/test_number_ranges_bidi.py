"""Number ranges ("3–4") and counts ("4 / 60") keep their order in Persian. In a right-to-left
paragraph an en dash or a slash between two numbers takes the paragraph's direction, so "3–4"
is drawn "4–3" unless it is isolated left to right: a ``dir="ltr"`` element, a ``<bdi>`` with
nothing but the numbers, or the LRI…PDI isolate of the history's sentences. A visual review
saw "4–3" in Imperador's rules (its own page, and beside the board of a learn-to-play table)
next to the board's and the history's "3–4"."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client

from games import services
from tests.games.helpers import play_until, seat_users

CHROMIUM = "/usr/bin/chromium"
RANGE = re.compile(r"(\d+)\s*[–/]\s*(\d+)")
LRI, PDI = "\u2066", "\u2069"
LETTER = re.compile(r"[^\W\d_]")
SKIPPED = {"head", "script", "style", "template"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}

pytestmark = pytest.mark.django_db


class _Ranges(HTMLParser):
    """Every number range in the page's text, with whether it is isolated left to right."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []  # (tag, its dir attribute)
        self.found: list[tuple[str, bool]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append((tag, dict(attrs).get("dir")))

    def handle_endtag(self, tag: str) -> None:
        while self.stack:
            if self.stack.pop()[0] == tag:
                break

    def _isolating(self) -> tuple[str, str | None] | None:
        """The innermost element that sets its own direction."""
        for tag, direction in reversed(self.stack):
            if direction or tag == "bdi":
                return tag, direction
        return None

    def handle_data(self, data: str) -> None:
        if any(tag in SKIPPED for tag, _dir in self.stack):
            return
        for match in RANGE.finditer(data):
            self.found.append((match.group(0), self._isolated(data, match)))

    def _isolated(self, data: str, match: re.Match[str]) -> bool:
        before, after = data[: match.start()], data[match.end() :]
        if before.rfind(LRI) > before.rfind(PDI) and PDI in after:
            return True
        isolating = self._isolating()
        if isolating is None or isolating[1] == "rtl":
            return False
        if isolating[1] == "ltr":
            return True
        # a <bdi> (or dir="auto") takes the direction of its first strong letter; a text of
        # numbers only is left to right
        return not LETTER.search(data)


def _ranges(html: str) -> list[tuple[str, bool]]:
    parser = _Ranges()
    parser.feed(html)
    return parser.found


def _page(user, path: str) -> str:
    type(user).objects.filter(pk=user.pk).update(language="fa")
    user.refresh_from_db()
    client = Client()
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fa"
    response = client.get(path)
    assert response.status_code == 200, path
    html = response.content.decode()
    assert 'dir="rtl"' in html[:300]
    return html


def _announced(started) -> tuple[object, dict[int, object]]:
    """An Imperador table whose emperor has just announced a band, played by the engine's
    bots: the board, the "Last moves" box and the History all say the band."""
    game = play_until(
        lambda: started("imperador"),
        lambda game: game if game.state["phase"] == "hands" else None,
        seed=1,
    )
    return game, seat_users(game)


def _persian_pages(started, trio) -> dict[str, str]:
    alice = trio[0]
    game, users = _announced(started)
    pages = {
        f"table, seat {seat}": _page(user, f"/games/{game.pk}/") for seat, user in users.items()
    }
    pages["rules"] = _page(alice, "/games/rules/imperador/")
    learning = services.game_learn(alice, "imperador")
    pages["learn-to-play table"] = _page(alice, f"/games/{learning.pk}/")
    return pages


def test_every_number_range_on_imperadors_persian_pages_is_isolated(started, trio):
    pages = _persian_pages(started, trio)
    for name, html in pages.items():
        found = _ranges(html)
        assert found, name
        assert [text for text, isolated in found if not isolated] == [], name
    # the moment has its band on the board, in "Last moves" and in the History
    assert len(_ranges(pages["table, seat 1"])) >= 3
    rules = _ranges(pages["rules"])
    assert [text for text, _isolated in rules].count("3–4") >= 3
    assert "1–2" in [text for text, _isolated in rules]


def test_the_check_sees_a_range_that_is_not_isolated():
    assert _ranges('<p>بازهٔ 3–4</p><p dir="ltr">5–6</p>') == [("3–4", False), ("5–6", True)]
    assert _ranges("<p>بازهٔ \u20667–8\u2069</p><bdi>1–2</bdi>") == [("7–8", True), ("1–2", True)]
    assert _ranges("<bdi>بازهٔ 3–4</bdi><div dir='ltr'><p dir='rtl'>1 / 60</p></div>") == [
        ("3–4", False),
        ("1 / 60", False),
    ]


def _inline_css(html: str) -> str:
    """The page as Chromium gets it from a server, without one: the site's style sheets inline
    (a rule may change unicode-bidi), pictures from their files."""

    def sheet(match: re.Match[str]) -> str:
        found = finders.find(match.group(1))
        return f"<style>{Path(found).read_text()}</style>" if found else ""

    html = re.sub(r'<link rel="stylesheet" href="/static/([^"?#]+)[^"]*"[^>]*>', sheet, html)
    return re.sub(r"<script\b[^>]*>.*?</script>", "", html, flags=re.S)


DRAWN_ORDER = """
() => {
  const found = [];
  const pattern = /(\\d+)([\\s\\u2066-\\u2069]*[–\\/][\\s\\u2066-\\u2069]*)(\\d+)/g;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.nodeValue.matchAll(pattern)) {
      const first = document.createRange(), second = document.createRange();
      first.setStart(node, m.index);
      first.setEnd(node, m.index + m[1].length);
      const start = m.index + m[1].length + m[2].length;
      second.setStart(node, start);
      second.setEnd(node, start + m[3].length);
      const a = first.getClientRects()[0], b = second.getClientRects()[0];
      if (!a || !b || a.width < 1 || Math.abs(a.top - b.top) > 2) continue;  // hidden, or wrapped
      found.push([m[0].replace(/[\\u2066-\\u2069]/g, ""), a.left < b.left]);
    }
  }
  return found;
}
"""


@pytest.mark.browser
def test_chromium_draws_each_range_left_to_right_in_persian(started, trio):
    from playwright.sync_api import sync_playwright

    pages = {name: _inline_css(html) for name, html in _persian_pages(started, trio).items()}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            for width, height in ((390, 844), (1280, 900)):
                tab = browser.new_page(viewport={"width": width, "height": height})
                for name, html in pages.items():
                    tab.set_content(html)
                    drawn = tab.evaluate(DRAWN_ORDER)
                    assert drawn, (width, name)
                    assert [text for text, in_order in drawn if not in_order] == [], (width, name)
                tab.close()
        finally:
            browser.close()
