"""Journey: on a 390 px phone, what a thumb presses outside the table is a finger's size too,
and a choice keeps its box beside a long label (phone review, 2026-12-07). The header's links
were 38 px tall, the bell 40 px, the account button 29 px wide; in French and Czech a radio
beside a two-line label was squeezed to a 15 × 19 px oval, and a checkbox's one-line label
(the whole of what a tap may hit) was 29 px tall."""

from __future__ import annotations

import pytest

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
