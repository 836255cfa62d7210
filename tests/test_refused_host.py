"""A request for a Host not in ALLOWED_HOSTS answers 400 and logs one WARNING line: no ERROR,
no traceback (each was an ERROR with a traceback, some twice)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.console_log import console_output
from tests.live_server import ROOT, production_env

REFUSED = "Invalid HTTP_HOST header: 'scanner.example'."


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/accounts/login/", "/api/games", "/games/1/"])
def test_a_refused_host_is_one_warning_line(client, settings, path):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    with console_output() as written:
        response = client.get(path, HTTP_HOST="scanner.example", HTTP_X_FORWARDED_FOR="203.0.113.7")

    assert response.status_code == 400
    [line] = written.getvalue().splitlines()
    assert line.startswith(REFUSED), line
    assert line.endswith("(from 203.0.113.7)"), line
    # the page's policy is kept, with no socket named for a host the site refused
    assert "connect-src 'self'" in response["Content-Security-Policy"]
    assert "wss://" not in response["Content-Security-Policy"]


def test_production_logs_a_refused_host_as_one_warning_line():
    """Production's own format, and its HTTPS redirect, which asks for the host first."""
    env = production_env()
    code = (
        "import django; django.setup();"
        "from django.test import Client;"
        "print(Client().get('/', HTTP_HOST='scanner.example').status_code)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )

    assert result.stdout.split() == ["400"], result.stderr
    # (a clone without collectstatic also has whitenoise's warning about it on stderr)
    [line] = [line for line in result.stderr.splitlines() if "django.security" in line]
    assert f"WARNING django.security.DisallowedHost {REFUSED}" in line, result.stderr
    assert "Traceback" not in result.stderr and " ERROR " not in result.stderr
