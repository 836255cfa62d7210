"""A password reset's, an email confirmation's and an unsubscribe link's key never reach a log
line: not gunicorn's access log (path, Referer), not Django's lines about a request."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.models import EmailAddress, EmailConfirmationHMAC
from allauth.account.utils import user_pk_to_url_str
from django.test import Client
from django.urls import reverse

from accounts.notifications import unsubscribe_token
from config.secret_paths import mask
from tests.console_log import console_output
from tests.live_server import ROOT, free_port, production_env, server_env, stop

pytestmark = pytest.mark.django_db


def keyed_links(user) -> dict[str, tuple[str, str]]:
    """Each real link a key opens, as the emails write it: {name: (path, key)}."""
    address = EmailAddress.objects.get(user=user, email=user.email)
    reset_key = default_token_generator.make_token(user)
    confirm_key = EmailConfirmationHMAC(address).key
    token = unsubscribe_token(user)
    uid = user_pk_to_url_str(user)
    return {
        "reset": (
            reverse("account_reset_password_from_key", kwargs={"uidb36": uid, "key": reset_key}),
            reset_key,
        ),
        "confirm": (reverse("account_confirm_email", args=[confirm_key]), confirm_key),
        "unsubscribe": (reverse("unsubscribe", args=[token]), token),
    }


def test_the_key_of_every_keyed_link_is_masked(alice):
    for name, (path, key) in keyed_links(alice).items():
        line = f'127.0.0.1 - - "GET {path}?next=/games/ HTTP/1.1" 200 5 "https://x{path}" "ua"'
        masked = mask(line)
        assert key not in masked, name
        assert masked.count("***/?next=/games/ HTTP/1.1") == 1, (name, masked)
        assert masked.count(path.rsplit(key, 1)[0] + "***/") == 2, (name, masked)


def test_links_without_a_key_are_left_as_they_are(alice):
    uid = user_pk_to_url_str(alice)
    set_password = reverse(
        "account_reset_password_from_key", kwargs={"uidb36": uid, "key": "set-password"}
    )
    for path in (
        set_password,  # allauth's form after it moved the key into the session
        reverse("account_email_verification_sent"),
        reverse("account_confirm_email", args=["x"]).replace("x/", ""),
        reverse("account_reset_password"),
        reverse("account_login"),
        "/games/12/",
    ):
        assert mask(f"GET {path} HTTP/1.1") == f"GET {path} HTTP/1.1"


def test_djangos_lines_about_a_request_carry_no_key(alice):
    links = keyed_links(alice)
    path, key = links["confirm"]
    strict = Client(enforce_csrf_checks=True)

    with console_output() as written:
        assert strict.post(path).status_code == 403  # no CSRF cookie: a WARNING with the path
        broken = links["unsubscribe"][0].replace(links["unsubscribe"][1], "x" + key)
        assert strict.get(broken).status_code == 400  # a WARNING with the path

    lines = written.getvalue()
    assert "Forbidden (CSRF cookie not set.): /accounts/confirm-email/***/" in lines
    assert "Bad Request: /unsubscribe/***/" in lines
    assert key not in lines


def test_production_logging_masks_keys_too():
    env = production_env()
    code = (
        "import django, logging; django.setup();"
        "logging.getLogger('django.request').warning('Not Found: %s', '/unsubscribe/Mg:secret/')"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert "WARNING django.request Not Found: /unsubscribe/***/" in result.stderr, result.stderr
    assert "secret" not in result.stderr


def procfile_web() -> str:
    [command] = [
        line.partition(": ")[2]
        for line in (ROOT / "Procfile").read_text().splitlines()
        if line.startswith("web: ")
    ]
    return command


def test_the_procfiles_gunicorn_writes_no_key_in_its_access_log(alice, tmp_path: Path):
    links = keyed_links(alice)
    path, key = links["confirm"]
    reset_path, reset_key = links["reset"]
    port = free_port()
    env = server_env(
        PORT=str(port),
        WEB_WORKERS="1",
        WEB_THREADS="1",
        PYTHONUNBUFFERED="1",  # each line in the file as it is written
        TRUSTED_PROXY_COUNT="1",  # production's: the README's proxy in front
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    )
    log_path = tmp_path / "web.log"
    with log_path.open("wb") as log:
        web = subprocess.Popen(
            # exec: the shell becomes gunicorn, whose exit stop() then waits for
            ["sh", "-c", "exec env " + procfile_web()],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}{path}",
            headers={
                "Referer": f"http://127.0.0.1:{port}{reset_path}",
                "X-Forwarded-For": "203.0.113.9",  # as the proxy adds it (TRUSTED_PROXY_COUNT 1)
            },
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(request, timeout=30).close()
                break
            except urllib.error.HTTPError:
                break  # any answer: its access-log line is what is checked
            except (TimeoutError, urllib.error.URLError, ConnectionError):  # not up yet
                assert web.poll() is None and time.monotonic() < deadline, log_path.read_text()
                time.sleep(0.2)
        # the worker writes the line after the answer has gone
        while time.monotonic() < deadline and "confirm-email" not in log_path.read_text():
            time.sleep(0.05)
    finally:
        stop(web, grace=20)

    written = log_path.read_text()
    lines = [line for line in written.splitlines() if '"GET /accounts/confirm-email/' in line]
    assert len(lines) == 1, written
    [line] = lines
    assert re.search(r'"GET /accounts/confirm-email/\*\*\*/ HTTP/1.1" \d{3} ', line), line
    assert line.startswith("203.0.113.9 "), "the client's address, not the proxy's"
    assert f"/accounts/password/reset/key/{user_pk_to_url_str(alice)}-***/" in line, line
    assert key not in written and reset_key not in written
