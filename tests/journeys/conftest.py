"""The browser journeys' stack: Daphne (HTTP + WebSockets) and a real Celery worker with beat on
the test database and Redis, writing every email as a file into a folder the test reads; and a
headless Debian Chromium driven by Playwright (never a downloaded browser)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from tests.games.worker import Worker, flush_broker
from tests.journeys.drive import SWAP_WATCH
from tests.live_server import server_env, start_daphne, stop

CHROMIUM = "/usr/bin/chromium"


@dataclass
class Stack:
    base: str
    emails: Path


@dataclass
class Servers:
    """Daphne and the Celery worker, shared by the journeys of a package run (starting the two
    for each journey cost more than most journeys themselves)."""

    base: str
    emails: Path
    worker: Worker
    daphne_log: Path

    def log_sizes(self) -> dict[Path, int]:
        return {log: log.stat().st_size for log in (self.daphne_log, self.worker.log_path)}

    def logged_since(self, sizes: dict[Path, int]) -> str:
        """What the two servers logged after ``sizes`` (from ``log_sizes``)."""
        text = ""
        for log, size in sizes.items():
            with log.open("rb") as file:
                file.seek(size)
                text += file.read().decode(errors="replace")
        return text


@pytest.fixture(scope="package")
def servers(django_db_setup, tmp_path_factory) -> Iterator[Servers]:
    """One Daphne (HTTP + WebSockets) and one Celery worker with beat for the journeys, on the
    test database and Redis, writing every email as a file into ``emails``. Package-scoped, not
    session-scoped: outside tests/journeys a test's own worker must be the only one on its
    queues. Between journeys nothing of one is left for the next: the database is emptied
    (transactional_db), Redis flushed and the emails folder emptied (``stack``)."""
    folder = tmp_path_factory.mktemp("journeys")
    emails = folder / "emails"
    # Without DJANGO_ALLOW_ASYNC_UNSAFE (server_env never passes it on): a sync ORM call from
    # an async context fails here as in production (see ``stack`` for the test process's own)
    env = {"EMAIL_FILE_PATH": str(emails), "LOG_LEVEL": "WARNING"}
    flush_broker()
    worker = Worker(folder, sweep_seconds=1.0, extra_env=env)
    worker.spawn()  # from this thread (see Worker.spawn); both come up at once
    proc = None
    try:
        proc, base = start_daphne(server_env(**env), folder / "daphne.log")
        worker.wait_ready()
        yield Servers(base, emails, worker, folder / "daphne.log")
    finally:
        stop(proc, grace=1)  # its sockets keep it up on SIGTERM; nothing left to serve
        worker.kill()  # nothing to finish gracefully: the journeys are over


@pytest.fixture
def stack(transactional_db, servers, monkeypatch) -> Iterator[Stack]:
    # For this (the test's) process only: Playwright's sync API runs an event loop in this
    # thread, and the ORM reads between browser steps are plain blocking calls. Daphne and the
    # worker are started without it (tests/live_server.py, TEST_PROCESS_ONLY).
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    flush_broker()  # as a journey's own new worker found it (the cache's clear does it too)
    shutil.rmtree(servers.emails, ignore_errors=True)
    process = servers.worker.process
    assert process is not None and process.poll() is None, "the worker died"
    sizes = servers.log_sizes()
    yield Stack(servers.base, servers.emails)
    assert process.poll() is None, "the worker died"
    # A journey may pass round a failed socket or task (a page reloads, a poll catches up):
    # the servers' own logs say whether production would have raised
    logged = servers.logged_since(sizes)
    assert "SynchronousOnlyOperation" not in logged, logged[-3000:]


@pytest.fixture
def browser(stack) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True)
        try:
            yield chromium
        finally:
            # The ORM calls made while Playwright's loop runs have a connection of their own
            # (another context): close it here, or the test database cannot be dropped.
            connections.close_all()
            chromium.close()


@pytest.fixture
def new_page(browser, stack):
    """A page in a browser context of its own (its own cookies: one player), 1280 × 800.
    Every journey also checks the Content-Security-Policy: nothing it met was refused
    (config/content_policy.py; the browser reports a refusal on the console)."""
    refused: list[str] = []

    def note(message: Any) -> None:
        if "Content Security Policy" in message.text:
            refused.append(f"{message.page.url if message.page else '?'}: {message.text}")

    def make(cookies: list[dict[str, Any]] | None = None, timezone_id: str | None = None) -> Any:
        zone = {"timezone_id": timezone_id} if timezone_id else {}
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, locale="en-GB", **zone
        )
        context.set_default_timeout(15_000)
        context.add_init_script(SWAP_WATCH)
        context.on("console", note)
        if cookies:
            context.add_cookies(cookies)
        return context.new_page()

    yield make
    assert not refused, refused


@pytest.fixture
def signed_in_page(new_page, stack):
    """A page signed in as ``user`` (a session made by the test client, set as a cookie)."""
    from django.conf import settings
    from django.test import Client

    def make(user: Any) -> Any:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        return new_page(
            [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": stack.base}]
        )

    return make
