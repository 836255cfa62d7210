"""Journey: what players write never widens a phone's page. One long word in the table talk
(300 letters, no space) used to make every seat's page 3,473 px wide on a 390 px phone, and
the moves' buttons hard to press."""

from __future__ import annotations

import pytest

from games.services import chat
from tests.journeys.drive import SHOTS, friends_at_a_started_table, in_thread

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}


def test_a_long_word_in_the_table_talk_keeps_the_page_phone_wide(make_user, signed_in_page, stack):
    shots = SHOTS / "layout"
    shots.mkdir(parents=True, exist_ok=True)
    users = [make_user(name) for name in ("lou", "max", "nia")]
    game = in_thread(lambda: friends_at_a_started_table(users, "cockroach-poker-royal"))
    in_thread(lambda: chat.post(users[0], game.pk, "A" * 300))
    page = signed_in_page(users[1])
    page.set_viewport_size(PHONE)
    page.goto(f"{stack.base}/games/{game.pk}/")
    page.wait_for_selector(".chat-lines li")
    assert "A" * 300 in page.locator(".chat-lines").inner_text().replace("\n", "")
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths
    # the box to write in is a finger's height (it was 21 px: it had no type for the CSS)
    box = page.locator("#chat-text").bounding_box()
    assert box is not None and box["height"] >= 40, box
    page.locator("#chat").screenshot(path=str(shots / "chat-phone.png"))


CONTRAST = """([fg, bg]) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
  return (a + 0.05) / (b + 0.05);
}"""


def test_targets_a_finger_can_hit_and_a_focus_ring_one_can_see(make_user, signed_in_page, stack):
    """On a phone: the table's small links are 44 px tall, a game in My games opens from
    anywhere on its card, the focus ring and a field's border stand 3:1 from what is around
    them (a review measured 16 px links, a 19 px tap area and a 1.6:1 ring)."""
    users = [make_user(name) for name in ("ora", "pat", "quy")]
    game = in_thread(lambda: friends_at_a_started_table(users, "mogel-motte"))
    page = signed_in_page(users[0])
    page.set_viewport_size(PHONE)
    page.goto(f"{stack.base}/games/{game.pk}/")
    for selector in (".small-links a", ".rules-link", "details.secondary > summary"):
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["height"] >= 44, (selector, box)

    page.locator("#chat-text").focus()
    page.keyboard.press("Shift+Tab")  # the keyboard's way in: the ring shows
    ring, field = page.evaluate(
        """() => {
          const el = document.activeElement, style = getComputedStyle(el);
          const input = getComputedStyle(document.getElementById("chat-text"));
          return [[style.outlineStyle, style.outlineColor, style.outlineWidth], input.borderTopColor];
        }"""
    )
    page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert ring[0] != "none" and float(ring[2].rstrip("px")) >= 2, ring
    assert page.evaluate(CONTRAST, [ring[1], page_bg]) >= 3, ring
    assert page.evaluate(CONTRAST, [field, "rgb(255, 255, 255)"]) >= 3, field

    page.goto(f"{stack.base}/games/")
    row = page.locator(f'li.game-row:has(a[href="/games/{game.pk}/"])').first
    box = row.bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] - 8, box["y"] + box["height"] - 8)  # its corner
    page.wait_for_url(f"**/games/{game.pk}/")


def test_the_replays_home_and_end_keys_stay_the_pages_own(make_user, signed_in_page, stack):
    """End used to jump to the replay's last step wherever the reader was, so a keyboard
    could not scroll down to the list of bluffs; now only while the steps have focus."""
    from tests.games.helpers import play_to_the_end

    users = [make_user(name) for name in ("ruth", "sol", "tam")]
    game = in_thread(lambda: friends_at_a_started_table(users, "imperador"))
    in_thread(lambda: play_to_the_end(game, seed=2))
    page = signed_in_page(users[0])
    page.goto(f"{stack.base}/games/{game.pk}/replay/?step=1")
    page.evaluate("() => { window.__sameDocument = true; }")  # gone if the page reloads
    page.keyboard.press("End")
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.__sameDocument === true"), "End left the page"
    assert "step=1" in page.url
    page.locator('[data-step="next"]').focus()
    with page.expect_navigation():
        page.keyboard.press("End")
    last = page.locator('[data-step="last"]')
    assert last.count() == 0  # at the end: no further step to jump to
