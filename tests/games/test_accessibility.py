"""axe-core (bundled with axe-playwright-python, no download) in Debian's Chromium finds no
serious or critical accessibility violation on each game's table (running and finished),
replay and rules pages, a player's page and My games, in a left-to-right and a right-to-left
language, at a phone's width. The pages are reached by URL only."""

from __future__ import annotations

import random

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from games import services
from games.engines import registry
from games.models import Game
from tests.games.helpers import next_human_move, play_to_the_end, seat_users

CHROMIUM = "/usr/bin/chromium"
OPTIONS = {"resultTypes": ["violations", "incomplete"]}
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.browser]


def _short_text_contrast(results: dict) -> list[str]:
    """axe leaves one-character text (a card's value "2") as "incomplete" rather than judging
    it; its contrast is still measured, and a value on a card is real text: judge it here."""
    found = []
    for check in results["incomplete"]:
        if check["id"] != "color-contrast":
            continue
        for node in check["nodes"]:
            for part in node["any"]:
                data = part.get("data") or {}
                ratio, expected = data.get("contrastRatio"), data.get("expectedContrastRatio")
                if data.get("messageKey") != "shortTextContent" or not (ratio and expected):
                    continue
                if ratio < float(expected.split(":")[0]):
                    found.append(
                        f"color-contrast (short text): {node['target']} {data['fgColor']} on "
                        f"{data['bgColor']} is {ratio}:1, needs {expected}"
                    )
    return found


def _serious(results: dict) -> list[str]:
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(str(node["target"]) for node in v["nodes"][:4])
        + " — "
        + (v["nodes"][0]["failureSummary"].replace("\n", " ") if v["nodes"] else "")
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ] + _short_text_contrast(results)


@pytest.mark.parametrize("engine", sorted(registry.ENGINES))
@pytest.mark.slow
def test_no_serious_violations_on_the_pages_of_a_game(engine, started, live_server, monkeypatch):
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    running = started(engine)
    rng = random.Random(3)
    for _ in range(6):  # a few moves in: the board has rows, piles and history
        seat, action = next_human_move(running, rng)
        services.act(seat_users(running)[seat], running.pk, running.version_for(seat), action)
        running.refresh_from_db()
    finished = play_to_the_end(started(engine), seed=4)
    assert finished.status == Game.Status.FINISHED
    waiting = registry.get(engine).waiting_for(running.state).seats
    viewer = seat_users(running)[min(waiting)]  # a player the game waits on: the moves show
    client = Client()
    client.force_login(viewer)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    pages = {
        "table": reverse("games:table", args=[running.pk]),
        "replay": reverse("games:replay", args=[finished.pk]),
        "rules": reverse("games:rules", args=[engine]),
        "finished table": reverse("games:table", args=[finished.pk]),
        "player page": reverse("games:player", args=[viewer.username]),  # records: wide
        "my games": reverse("games:my_games"),
    }
    axe = Axe()
    found: dict[str, list[str]] = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            for language in ("en", "fa"):
                context = browser.new_context(viewport={"width": 360, "height": 800})
                context.add_cookies(
                    [
                        {
                            "name": settings.SESSION_COOKIE_NAME,
                            "value": session,
                            "url": live_server.url,
                        },
                        {
                            "name": settings.LANGUAGE_COOKIE_NAME,
                            "value": language,
                            "url": live_server.url,
                        },
                    ]
                )
                page = context.new_page()
                for name, path in pages.items():
                    response = page.goto(live_server.url + path)
                    assert response.status == 200, (name, language)
                    assert page.get_attribute("html", "lang") == language
                    problems = _serious(axe.run(page, options=OPTIONS).response)
                    if problems:
                        found[f"{name} [{language}]"] = problems
                context.close()
        finally:
            browser.close()
    assert not found, "\n".join(f"{page}: {p}" for page, ps in found.items() for p in ps)
