"""SECRET_KEY rotation (README, "Production"): the old key goes into SECRET_KEY_FALLBACKS, and
what it signed stays valid until it is dropped from there: a signed-in player's session, an
email's unsubscribe link. Production settings in a process of their own, as a deploy sets them
(the keys from the environment), on this test's database."""

from __future__ import annotations

import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, override_settings

from accounts.notifications import unsubscribe_token
from tests.live_server import database_url, production_env

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)  # the other process sees the session

# what the site itself does with a session cookie and an unsubscribe link's token
READ = """
import sys, django
django.setup()
from importlib import import_module
from django.conf import settings
from django.contrib.auth import get_user
from django.http import HttpRequest
from accounts.notifications import user_for_unsubscribe
request = HttpRequest()
request.session = import_module(settings.SESSION_ENGINE).SessionStore(sys.argv[1])
user = user_for_unsubscribe(sys.argv[2])
print(get_user(request).pk, user and user.pk)
"""


def _read(session_key: str, token: str, **keys: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", READ, session_key, token],
        cwd=ROOT,
        env=production_env(DATABASE_URL=database_url(), **keys),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_what_the_old_key_signed_stays_valid_while_it_is_a_fallback(alice):
    old, new = secrets.token_urlsafe(50), secrets.token_urlsafe(50)
    with override_settings(SECRET_KEY=old):
        client = Client()
        client.force_login(alice)
        token = unsubscribe_token(alice)
    session_key = client.cookies["sessionid"].value
    alice_pk = str(alice.pk)

    # before the rotation, on the old key alone
    assert _read(session_key, token, SECRET_KEY=old) == f"{alice_pk} {alice_pk}"
    # the new key with the old one as a fallback (and a spare around it): nobody is signed out
    spare = secrets.token_urlsafe(50)
    fallbacks = f"{spare}, {old}"
    assert _read(session_key, token, SECRET_KEY=new, SECRET_KEY_FALLBACKS=fallbacks) == (
        f"{alice_pk} {alice_pk}"
    )
    # the old key dropped: both are void, as a leaked key's signatures must be
    assert _read(session_key, token, SECRET_KEY=new, SECRET_KEY_FALLBACKS=spare) == "None None"
