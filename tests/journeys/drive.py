"""Driving the site's pages the way a player does, through stable hooks only: form field names
and values, button and link targets, ids and data-* attributes (never CSS classes or layout).

The live table (static/js/table.js) swaps page parts in place and posts forms in the
background, so every step waits for a state: a seat's revision on ``#live-root``, a form that
offers the move, no part swapped in the last moment (the page ignores clicks for 400 ms after
a swap).
"""

from __future__ import annotations

import email
import json
import re
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from email import policy
from pathlib import Path
from typing import Any, TypeVar
from unittest import mock
from urllib.parse import urlsplit

from django.db import connection
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from accounts.services import friendship_create
from games import services
from games.engines import registry
from games.models import Game

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "var" / "screenshots"
SIZES = ((390, 844), (1280, 800))
PASSWORD = "a-long-journey-password"
T = TypeVar("T")

# Records when a part of the table was last swapped in (a node carrying data-live was added),
# so a click is never aimed at the page's 400 ms guard after a swap.
SWAP_WATCH = """
window.__swappedAt = 0;
new MutationObserver((records) => {
  for (const record of records) {
    for (const node of record.addedNodes) {
      if (node.nodeType === 1 && (node.hasAttribute("data-live") || node.querySelector("[data-live]"))) {
        window.__swappedAt = Date.now();
        return;
      }
    }
  }
}).observe(document, { childList: true, subtree: true });
"""

# The table's move form that can post ``type`` with one of the wanted values per field: hidden
# fields must match exactly (a button's move), radios and selects must offer a wanted value.
# Returns {index, picks: {field: value}} or null.
FIND_FORM = """
([type, wanted]) => {
  const forms = [...document.querySelectorAll("#live-root form")];
  for (let index = 0; index < forms.length; index++) {
    const form = forms[index];
    const kind = form.querySelector('input[name="type"]');
    if (!kind || kind.value !== type || form.closest("details:not([open])")) continue;
    const hidden = [...form.querySelectorAll('input[type="hidden"][name^="f_"]')];
    if (!hidden.every((h) => h.name.slice(2) in wanted)) continue;
    const picks = {};
    let ok = true;
    for (const [name, values] of Object.entries(wanted)) {
      const fields = [...form.querySelectorAll(`[name="f_${name}"]`)];
      const offered = fields.flatMap((f) =>
        f.tagName === "SELECT" ? [...f.options].map((o) => o.value) : [f.value]);
      const value = values.find((v) => offered.includes(v));
      if (value === undefined) { ok = false; break; }
      if (!fields.some((f) => f.type === "hidden")) picks[name] = value;
    }
    if (ok) return { index, picks };
  }
  return null;
}
"""


class AnyOf(tuple):
    """A field that may take any of these values (cards of one kind are one choice on the page)."""


def friends_at_a_started_table(users: list[Any], engine: str, seed: int | None = None) -> Game:
    """The users befriend each other, the first creates a table of ``engine`` for all of them,
    the others join, the first starts it (on ``seed``, a deal the test rehearsed, if given)."""
    for i, a in enumerate(users):
        for b in users[i + 1 :]:
            friendship_create(a, b)
    game = services.game_create(
        users[0], engine=engine, seats=len(users), invite=[u.username for u in users[1:]]
    )
    for user in users[1:]:
        services.game_join(user, game.pk)
    if seed is None:
        services.game_start(users[0], game.pk)
    else:
        with mock.patch("games.services.tables.secrets.randbits", return_value=seed):
            services.game_start(users[0], game.pk)
    return Game.objects.get(pk=game.pk)


def waiting_seat_at_a_started_table(
    make_user: Callable[[str], Any], names: Iterable[str], engine: str
) -> tuple[Game, Any, int, dict[int, Any]]:
    """Friends called ``names`` at a started table of ``engine`` (see
    friends_at_a_started_table): the game, its engine, the seat it waits on, the users by seat."""
    users = [make_user(name) for name in names]
    game = in_thread(lambda: friends_at_a_started_table(users, engine))
    rules = registry.get(game.engine)
    (seat,) = rules.waiting_for(game.state).seats
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    return game, rules, seat, by_seat


def the_waiting_seats_page(
    make_user: Callable[[str], Any],
    names: Iterable[str],
    engine: str,
    signed_in_page: Any,
    base: str,
) -> tuple[Game, Any, str, dict[str, Any]]:
    """The page of the seat a started table waits on (see waiting_seat_at_a_started_table),
    open at the table, and a legal move of theirs as ``click_move`` takes it: its type and
    its fields."""
    game, rules, seat, users = waiting_seat_at_a_started_table(make_user, names, engine)
    page = signed_in_page(users[seat])
    page.goto(f"{base}/games/{game.pk}/")
    action = rules.legal_actions(game.state, seat)[0]
    return game, page, action["type"], {k: v for k, v in action.items() if k != "type"}


def in_thread(call: Callable[[], T]) -> T:
    """Runs ``call`` (a service, an ORM write) outside Playwright's event loop: after-commit
    pings use async_to_sync, which refuses to run inside a running loop."""

    def run() -> T:
        try:
            return call()
        finally:
            connection.close()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result(60)


def shoot(page: Any, journey: str, name: str) -> None:
    """The page at a phone's and a laptop's size, under var/screenshots/<journey>/."""
    folder = SHOTS / journey
    folder.mkdir(parents=True, exist_ok=True)
    size = page.viewport_size
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=str(folder / f"{name}-{width}x{height}.png"))
    page.set_viewport_size(size)


def wait_for_email(folder: Path, to: str, timeout: float = 20) -> email.message.EmailMessage:
    """The first email file to ``to`` (the live server writes one file per message)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in sorted(folder.glob("*.eml")) if folder.is_dir() else []:
            message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
            if message["To"] == to:
                return message
        time.sleep(0.1)
    raise AssertionError(f"no email to {to} in {folder}")


def link_in(message: email.message.EmailMessage, path: str) -> str:
    body = message.get_body(("plain",)).get_content()
    found = re.search(rf"https?://\S+{re.escape(path)}\S*", body)
    assert found, body
    return found.group(0)


def revision(page: Any) -> int:
    return int(page.locator("#live-root").get_attribute("data-revision"))


def wait_revision(page: Any, at_least: int, timeout: float = 15_000) -> None:
    page.wait_for_function(
        "r => +document.getElementById('live-root').dataset.revision >= r",
        arg=at_least,
        timeout=timeout,
    )


# How long a pick or a click waits for its element before the form is looked for again
SWAPPED_UNDER_THE_CLICK_MS = 3_000


def settle(page: Any) -> None:
    """No part swapped in for a moment: the page takes clicks again."""
    page.wait_for_function("() => Date.now() - (window.__swappedAt || 0) > 450", polling=100)


def wanted_fields(fields: dict[str, Any]) -> dict[str, list[str]]:
    return {
        name: [json.dumps(v) for v in (value if isinstance(value, AnyOf) else [value])]
        for name, value in fields.items()
    }


def _messages(page: Any) -> str:
    return " | ".join(page.locator(".messages, [role=status], [role=alert]").all_inner_texts())


def _chosen(page: Any, type: str, fields: dict[str, Any]) -> Any:
    """The page's form of the move with its fields chosen, its button not pressed yet."""
    wanted = wanted_fields(fields)
    for _attempt in range(5):
        page.wait_for_function(FIND_FORM, arg=[type, wanted], timeout=15_000)
        settle(page)
        found = page.evaluate(FIND_FORM, [type, wanted])  # still there after the last swap?
        if not found:
            continue
        # the form by its place among the live part's forms: a refresh swapped in between
        # (another page's answer moved this one) may put another form there, whose button
        # is not the move's; then the form is looked for again
        form = page.locator("#live-root form").nth(found["index"])
        try:
            for name, value in found["picks"].items():
                select = form.locator(f'select[name="f_{name}"]')
                if select.count():
                    select.select_option(value, timeout=SWAPPED_UNDER_THE_CLICK_MS)
                    continue
                radio = form.locator(f"input[name='f_{name}'][value='{value}']")
                label = form.locator("label", has=radio)
                if label.count():
                    label.first.click(timeout=SWAPPED_UNDER_THE_CLICK_MS)
                else:
                    radio.check(force=True, timeout=SWAPPED_UNDER_THE_CLICK_MS)
        except PlaywrightTimeout:
            continue
        if page.evaluate(FIND_FORM, [type, wanted]) != found:
            continue  # swapped while the fields were chosen
        return form
    raise AssertionError(f"no form for {type} {fields}: {_messages(page)}")


def click_move(page: Any, type: str, **fields: Any) -> int:
    """Chooses the move in the page's form and presses its button, without waiting for the
    answer; returns the seat's revision before it."""
    for _attempt in range(5):
        form = _chosen(page, type, fields)
        before = revision(page)
        try:
            form.locator("button").last.click(timeout=SWAPPED_UNDER_THE_CLICK_MS)
        except PlaywrightTimeout:
            continue
        return before
    raise AssertionError(f"no form for {type} {fields}: {_messages(page)}")


def click_moves_at_once(moves: list[tuple[Any, str, dict[str, Any]]]) -> list[bool]:
    """Each page's move chosen first, then every button pressed one after the other, without
    waiting for answers: the clicks go out together, as people answering a window at once.
    Whether each press was made: a window the first answer closes (a race) may have swapped
    a later page's form away before its press, as it would under a slower finger."""
    forms = [_chosen(page, type, fields) for page, type, fields in moves]
    pressed = []
    for form in forms:
        try:
            form.locator("button").last.click(
                timeout=SWAPPED_UNDER_THE_CLICK_MS, no_wait_after=True
            )
            pressed.append(True)
        except PlaywrightTimeout:
            pressed.append(False)
    return pressed


def move(page: Any, type: str, **fields: Any) -> None:
    """Makes a move through the page and waits until the page shows its result."""
    for _attempt in range(3):
        before = click_move(page, type, **fields)
        try:
            wait_revision(page, before + 1, timeout=6_000)
            return
        except Exception:  # a click swallowed by the guard after a late swap: once more
            if revision(page) > before:
                return
    raise AssertionError(f"{type} {fields} was not taken: {_messages(page)}")


def press(page: Any, form_selector: str) -> None:
    """Presses the button of the table page's form (a lobby command) and waits until the form
    is gone: the page swapped in what the command changed."""
    for _attempt in range(3):
        settle(page)
        page.locator(f'{form_selector} button[type="submit"]').click()
        try:
            page.wait_for_selector(form_selector, state="detached", timeout=6_000)
            return
        except Exception:  # a click swallowed by the guard after a late swap: once more
            if not page.locator(form_selector).count():
                return
    raise AssertionError(f"{form_selector} stayed: {_messages(page)}")


def sign_up(page: Any, base: str, username: str, emails: Path) -> None:
    """Sign-up, the verification email read from its file, the link confirmed: signed in."""
    address = f"{username}@example.com"
    page.goto(f"{base}/accounts/signup/")
    form = page.locator('form:has(input[name="username"])')
    form.locator('input[name="email"]').fill(address)
    form.locator('input[name="username"]').fill(username)
    form.locator('input[name="password1"]').fill(PASSWORD)
    form.locator('input[name="password2"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/accounts/confirm-email/"))
    link = link_in(wait_for_email(emails, address), "/accounts/confirm-email/")
    # the link names the site's address (SITE_URL); this server listens on a port of its own
    page.goto(base + urlsplit(link).path)
    page.locator('main form[method="post"] button[type="submit"]').first.click()
    page.wait_for_selector('body[data-user="1"]')


def pages_by_seat(pages: dict[str, Any], seats: Iterable[tuple[int, str]]) -> dict[int, Any]:
    return {index: pages[username] for index, username in seats}


def open_seats(game: Game, users: list[Any], signed_in_page: Any, base: str) -> dict[int, Any]:
    """Each user's page, signed in and open on the table, by their seat."""
    seat_of = {s.user_id: s.index for s in game.seats.all()}
    pages = {seat_of[u.pk]: signed_in_page(u) for u in users}
    for page in pages.values():
        page.goto(f"{base}/games/{game.pk}/")
    return pages


def people_at_a_table(
    make_user: Any,
    names: Iterable[str],
    engine: str,
    signed_in_page: Any,
    base: str,
    seed: int | None = None,
) -> tuple[Game, dict[int, Any]]:
    """New players, friends at a started table of ``engine``, each page open on it."""
    users = [make_user(name) for name in names]
    game = in_thread(lambda: friends_at_a_started_table(users, engine, seed))
    return game, open_seats(game, users, signed_in_page, base)
