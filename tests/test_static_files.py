"""Static files as production serves them (collectstatic, then whitenoise): hashed names kept
for a year and never revalidated, and every text file sent compressed, brotli where the phone
takes it. A phone on a mobile network then pays for the site's CSS, scripts and card pictures
once, in their smallest form."""

from __future__ import annotations

import ast
import gzip
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.templatetags.static import static
from django.test import Client, override_settings

YEAR = 365 * 24 * 3600
TEXT = ("css/site.css", "css/cards.css", "js/table.js", "js/live.js", "favicon.svg")
CARD = "catalog/mogel-motte/cards/ant.svg"
PRODUCTION = Path(settings.BASE_DIR) / "config" / "settings" / "production.py"


def _production_storages() -> dict[str, dict[str, str]]:
    """config/settings/production.py's STORAGES, read from its source: importing it would need
    its environment and would read the base settings already made for the tests."""
    for node in ast.parse(PRODUCTION.read_text()).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "STORAGES":
            return ast.literal_eval(node.value)
    raise AssertionError("production sets no STORAGES")


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``collectstatic`` with production's storage into a folder of its own, served by
    whitenoise as production serves it (from that folder, not from the finders). The site's
    own files only: the admin's and the API docs' (most of the bytes, and brotli at its best
    takes its time over them) are no phone's first page."""
    root = tmp_path_factory.mktemp("staticfiles")
    with override_settings(
        STATIC_ROOT=root,
        STORAGES=_production_storages(),
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        WHITENOISE_USE_FINDERS=False,
    ):
        call_command("collectstatic", interactive=False, verbosity=0)
        yield root


def _get(path: str, encoding: str = "") -> tuple[int, dict[str, str], bytes]:
    client = Client()  # a new handler: whitenoise reads the collected folder
    response = client.get(path, **({"HTTP_ACCEPT_ENCODING": encoding} if encoding else {}))
    body = b"".join(response.streaming_content) if response.streaming else response.content
    return response.status_code, dict(response.headers), body


def test_hashed_static_files_are_kept_a_year_without_asking_again(collected, db):
    for name in (*TEXT, CARD):
        url = static(name)
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), url
        status, headers, _body = _get(url)
        assert status == 200, url
        cache = headers["Cache-Control"]
        assert "immutable" in cache and "public" in cache, (url, cache)
        assert int(re.search(r"max-age=(\d+)", cache)[1]) >= YEAR, (url, cache)  # type: ignore[index]


def test_static_text_is_sent_compressed_brotli_first(collected, db):
    for name in (*TEXT, CARD):
        url = static(name)
        plain = (Path(collected) / name).read_bytes()
        _status, headers, body = _get(url, "gzip")
        assert headers.get("Content-Encoding") == "gzip", url
        assert gzip.decompress(body) == plain
        assert headers["Vary"] == "Accept-Encoding"
        # what Chromium, Firefox and Safari send: brotli is the smaller of the two
        _status, headers, body = _get(url, "gzip, deflate, br, zstd")
        assert headers.get("Content-Encoding") == "br", url
        assert len(body) < len(gzip.compress(plain)), url


def test_pages_link_only_hashed_static_files(collected, db):
    _status, _headers, body = _get("/accounts/login/")
    linked = re.findall(r'(?:href|src)="(/static/[^"]+)"', body.decode())
    assert linked, "the page links no static file"
    for url in linked:
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), url
