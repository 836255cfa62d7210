"""The push control and the service worker in a real Chromium (Debian's, via Playwright) against
Daphne: the worker registers at the site's root, shows what a push carries and opens its table;
a browser without push support gets a sentence, not a broken page."""

from __future__ import annotations

import json
import time

import pytest
from django.conf import settings
from django.test import Client

from tests.games.test_browser import CHROMIUM
from tests.live_server import daphne, server_env

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def test_the_service_worker_shows_a_push_and_a_browser_without_push_still_gets_the_page(
    alice, tmp_path, monkeypatch
):
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    session = session_of(alice)
    with daphne(server_env(), tmp_path / "daphne.log") as base, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            context = browser.new_context()
            context.grant_permissions(["notifications"], origin=base)
            context.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            cdp = context.new_cdp_session(page)
            registrations: list[str] = []
            cdp.on(
                "ServiceWorker.workerRegistrationUpdated",
                lambda event: registrations.extend(
                    r["registrationId"] for r in event["registrations"] if not r["isDeleted"]
                ),
            )
            cdp.send("ServiceWorker.enable")
            page.goto(f"{base}/profile/")
            scope = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)")
            assert scope == f"{base}/"
            status = page.locator("[data-push-status]")
            page.wait_for_function(
                "() => document.querySelector('[data-push-status]').textContent.length > 0"
            )
            # no push service reachable from here: not subscribed, and offered to subscribe
            assert status.inner_text() == "This device does not receive push notifications."
            assert page.locator("[data-push-on]").is_visible()

            page.wait_for_function("() => navigator.serviceWorker.controller !== null")
            # a Persian notice opening with a Latin name: shown right to left, said in Persian
            pushed = {
                "title": "Fibbers",
                "body": "bob شما را به ایمپرادور شمارهٔ 7 دعوت می‌کند.",
                "url": f"{base}/games/7/",
                "tag": "game-7",
                "lang": "fa",
                "dir": "rtl",
            }
            shown: list = []
            # Headless Chromium now and then shows nothing for a push delivered through CDP (one
            # CI run, and 2 of 4 runs here under load, with a 10 s wait): delivered again, up to
            # three times, each watched for 5 s. The content must still be exactly the push's.
            for _delivery in range(3):
                cdp.send(
                    "ServiceWorker.deliverPushMessage",
                    {
                        "origin": base,
                        "registrationId": registrations[-1],
                        "data": json.dumps(pushed),
                    },
                )
                deadline = time.monotonic() + 5
                while not shown and time.monotonic() < deadline:
                    shown = page.evaluate(
                        """() => navigator.serviceWorker.ready.then(r => r.getNotifications()).then(
                        ns => ns.map(n => ({title: n.title, body: n.body, tag: n.tag,
                                            url: n.data.url, lang: n.lang, dir: n.dir})))"""
                    )
                    if not shown:
                        page.wait_for_timeout(100)
                if shown:
                    break
            assert shown == [pushed]
            assert errors == []

            bare = browser.new_context()
            bare.add_cookies(
                [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": base}]
            )
            bare.add_init_script("delete window.PushManager;")
            old = bare.new_page()
            old_errors: list[str] = []
            old.on("pageerror", lambda error: old_errors.append(str(error)))
            old.goto(f"{base}/profile/")
            assert (
                old.locator("[data-push-status]").inner_text()
                == "This browser cannot receive push notifications."
            )
            assert not old.locator("[data-push-on]").is_visible()
            assert old.locator("button", has_text="Save push choices").is_visible()
            assert old_errors == []
        finally:
            browser.close()
