"""Journey: on a 390 px phone, what a thumb presses outside the table is a finger's size too,
and a choice keeps its box beside a long label (phone review, 2026-12-07). The header's links
were 38 px tall, the bell 40 px, the account button 29 px wide; in French and Czech a radio
beside a two-line label was squeezed to a 15 × 19 px oval, and a checkbox's one-line label
(the whole of what a tap may hit) was 29 px tall."""

from __future__ import annotations

import pytest

from games.services import chat
from tests.games.helpers import play_to_the_end
from tests.journeys.drive import friends_at_a_started_table, in_thread

pytestmark = [pytest.mark.browser]

PHONE = {"width": 390, "height": 844}
FINGER = 44

# Each element's box, as [what, width, height].
BOXES = """(selectors) => selectors.flatMap((selector) =>
  [...document.querySelectorAll(selector)].filter((el) => el.offsetParent !== null).map((el) => {
    const box = el.getBoundingClientRect();
    return [selector + " " + el.textContent.trim().slice(0, 30), box.width, box.height];
  }))"""


def _too_small(page, selectors: list[str], wide: bool = False) -> list:
    boxes = page.evaluate(BOXES, selectors)
    assert boxes, selectors
    return [b for b in boxes if b[2] < FINGER - 0.5 or (wide and b[1] < FINGER - 0.5)]


def test_the_header_and_the_account_menu_are_a_fingers_size(
    make_user, new_page, signed_in_page, stack
):
    visitor = new_page()
    visitor.set_viewport_size(PHONE)
    visitor.goto(f"{stack.base}/accounts/login/")
    assert not _too_small(visitor, [".logo", ".main-nav a"])

    page = signed_in_page(make_user("una"))
    page.set_viewport_size(PHONE)
    page.goto(f"{stack.base}/games/")
    assert not _too_small(page, [".logo", ".main-nav a"])
    assert not _too_small(page, [".bell", ".account-menu > summary"], wide=True)
    page.locator(".account-menu > summary").click()
    assert not _too_small(page, [".account-menu .menu a", ".account-menu .menu button"])

    persian = signed_in_page(make_user("yas", language="fa"))  # "تغییر" was 37 px wide
    persian.set_viewport_size(PHONE)
    persian.goto(f"{stack.base}/games/")
    persian.locator(".account-menu > summary").click()
    assert not _too_small(persian, [".account-menu .menu button"], wide=True)


# Each radio and checkbox: [name, width, height] of its box and the height of its label.
CHOICES = """() => [...document.querySelectorAll('main input[type=radio], main input[type=checkbox]')]
  .filter((el) => el.offsetParent !== null).map((el) => {
    const box = el.getBoundingClientRect();
    const label = el.closest("label") || document.querySelector(`label[for="${el.id}"]`);
    return [el.name + "=" + el.value, box.width, box.height, label ? label.getBoundingClientRect().height : 0];
  })"""


def test_choices_keep_their_box_and_a_fingers_height_beside_french_labels(
    make_user, signed_in_page, stack
):
    page = signed_in_page(make_user("vera", language="fr"))
    page.set_viewport_size(PHONE)
    for path in ("/profile/", "/games/new/"):
        page.goto(f"{stack.base}{path}")
        choices = page.evaluate(CHOICES)
        assert len(choices) > 3, path
        squeezed = [c for c in choices if abs(c[1] - c[2]) > 0.5]
        assert not squeezed, (path, squeezed)
        short = [c for c in choices if c[3] < FINGER - 0.5]
        assert not short, (path, short)


# The boxes of the talk's controls on a phone: [left, top, right, bottom] each.
TALK = """() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    text: box(document.getElementById("chat-text")),
    send: box(document.querySelector(".chat-form button")),
    more: box(document.querySelector(".chat-more > summary")),
  };
}"""


def _apart(a: list[float], b: list[float], gap: float = 4) -> bool:
    """Whether two boxes stand at least ``gap`` px apart, side by side or one above the other."""
    return a[2] + gap <= b[0] or b[2] + gap <= a[0] or a[3] + gap <= b[1] or b[3] + gap <= a[1]


def test_the_table_talks_controls_are_a_fingers_size_and_apart(make_user, signed_in_page, stack):
    """The send button touched the box above it, and each line's menu (⋯: mute, report) was
    24 px tall; its two buttons touched each other once open."""
    users = [make_user(name) for name in ("abe", "bea", "cid")]
    game = in_thread(lambda: friends_at_a_started_table(users, "mogel-motte"))
    in_thread(lambda: chat.post(users[0], game.pk, "Good luck, everyone!"))
    page = signed_in_page(users[1])
    page.set_viewport_size(PHONE)
    page.goto(f"{stack.base}/games/{game.pk}/")
    page.wait_for_selector(".chat-more > summary")
    boxes = page.evaluate(TALK)
    assert _apart(boxes["text"], boxes["send"]), boxes
    more = boxes["more"]
    assert more[2] - more[0] >= FINGER - 0.5 and more[3] - more[1] >= FINGER - 0.5, more
    page.locator(".chat-more > summary").click()
    report, mute = page.locator(".chat-more button").all()
    a, b = (button.bounding_box() for button in (report, mute))
    assert a is not None and b is not None
    assert _apart(
        [a["x"], a["y"], a["x"] + a["width"], a["y"] + a["height"]],
        [b["x"], b["y"], b["x"] + b["width"], b["y"] + b["height"]],
    ), (a, b)


# A link outside running text (prose keeps its links at the line's height, read as words):
# a list's link to a player, a table or a notice is a row of its own that a thumb aims at,
# and so is a paragraph that is one link (.small-links).
LINKS_OUTSIDE_PROSE = """() => [...document.querySelectorAll('main a[href]')]
  .filter((el) => el.offsetParent !== null && (!el.closest('p') || el.closest('.small-links')))
  .map((el) => { const box = el.getBoundingClientRect();
    return [el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 30), box.width, box.height]; })"""


def test_links_of_their_own_are_a_fingers_size(make_user, signed_in_page, stack):
    """The links to a friend's page (the friends page), to a table (a player's page: playing
    now, last games), a notice's link, the profile's account links, and a link standing
    alone below the history, the reveal or a report were one line of text, 15 to 29 px tall
    (phone review)."""
    users = [make_user(name) for name in ("ida", "jon", "kai")]
    running = in_thread(lambda: friends_at_a_started_table(users, "imperador"))
    finished = in_thread(lambda: friends_at_a_started_table(users, "mogel-motte"))
    in_thread(lambda: play_to_the_end(finished))
    page = signed_in_page(users[0])
    page.set_viewport_size(PHONE)
    short: dict[str, list] = {}
    for path, links in (
        ("/friends/", 2),
        ("/games/players/ida/", 2),
        ("/notifications/", 1),
        ("/profile/", 3),
        (f"/games/{running.pk}/report/", 1),
    ):
        page.goto(f"{stack.base}{path}")
        boxes = page.evaluate(LINKS_OUTSIDE_PROSE)
        assert len(boxes) >= links, (path, boxes)
        short[path] = [b for b in boxes if b[2] < FINGER - 0.5]
    # a paragraph that is one link: the history's way to the reveal, the reveal's way back, a
    # table's own notices (under its folded earlier ones)
    for path, selector in (
        (f"/games/{finished.pk}/", f"#live-root a[href='/games/{finished.pk}/replay/']"),
        (f"/games/{finished.pk}/replay/", f"main p > a[href='/games/{finished.pk}/']"),
        ("/notifications/", f"a[href='/notifications/table/{finished.pk}/']"),
    ):
        page.goto(f"{stack.base}{path}")
        page.evaluate("() => document.querySelectorAll('main details').forEach(d => d.open = true)")
        boxes = page.evaluate(BOXES, [selector])
        assert boxes, (path, selector)
        short[selector] = [b for b in boxes if b[2] < FINGER - 0.5]
    assert not any(short.values()), short
