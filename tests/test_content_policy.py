"""Every answer carries the Content-Security-Policy (config/content_policy.py): scripts from
our files only, sockets to the page's own host. The browser journeys check that the site
runs under it (tests/journeys/test_content_policy.py)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/accounts/login/", "/api/games", "/no-such-page/"])
def test_every_answer_carries_the_policy(client, path):
    policy = client.get(path, HTTP_HOST="testserver")["Content-Security-Policy"]

    assert "script-src 'self';" in policy and "'unsafe-inline'" not in policy.split("style-src")[0]
    assert "connect-src 'self' wss://testserver ws://testserver" in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
