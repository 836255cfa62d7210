"""The embedded default (`make run`) writes every email as a file of its own under var/emails/,
with the verification link readable, and the Celery worker runs the same settings."""

from __future__ import annotations

import email
import importlib
import re
from email import policy
from pathlib import Path

import pytest
from django.core import mail
from django.test import override_settings
from django.urls import reverse

from config.mail import FileEmailBackend

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def local_settings(monkeypatch):
    """config.settings.local as `make run` reads it: no email variable set."""
    monkeypatch.delenv("EMAIL_BACKEND", raising=False)
    monkeypatch.delenv("EMAIL_FILE_PATH", raising=False)
    return importlib.reload(importlib.import_module("config.settings.local"))


def test_the_embedded_default_writes_emails_as_files_under_var(local_settings):
    assert local_settings.EMAIL_BACKEND == "config.mail.FileEmailBackend"
    assert Path(local_settings.EMAIL_FILE_PATH) == local_settings.VAR_DIR / "emails"
    run = (ROOT / "scripts" / "run.sh").read_text()
    # the worker sends the game emails: it must run the same settings as the web process
    assert 'export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings.local}"' in run
    assert "/emails}/" in run  # the run command prints where they go


@pytest.mark.django_db
def test_a_sign_up_writes_one_file_with_a_working_verification_link(
    local_settings, tmp_path, client
):
    folder = tmp_path / "emails"
    with override_settings(EMAIL_BACKEND=local_settings.EMAIL_BACKEND, EMAIL_FILE_PATH=folder):
        response = client.post(
            reverse("account_signup"),
            {
                "username": "dora",
                "email": "dora@example.com",
                "password1": "a-long-test-password",
                "password2": "a-long-test-password",
            },
        )
    assert response.status_code == 302
    assert mail.outbox == []  # it went to the file backend, not to the test's mailbox
    files = sorted(folder.glob("*.eml"))
    assert len(files) == 1 and "dora@example.com" in files[0].name
    text = files[0].read_text()  # readable as it is: no encoding hides the link
    links = re.findall(r"http://\S+/accounts/confirm-email/\S+/", text)
    assert len(links) == 1
    message = email.message_from_string(text, policy=policy.default)
    assert message["To"] == "dora@example.com"
    path = links[0].split("://", 1)[1].split("/", 1)[1]
    page = client.get(f"/{path}")
    assert page.status_code == 200 and b"dora@example.com" in page.content
    assert client.post(f"/{path}").status_code == 302  # confirmed


def test_each_message_is_a_file_of_its_own(tmp_path):
    backend = FileEmailBackend(file_path=tmp_path)
    messages = [
        mail.EmailMessage("Your turn", f"Play: http://x/games/{n}/", to=[f"p{n}@example.com"])
        for n in range(3)
    ]
    assert backend.send_messages(messages) == 3
    files = sorted(tmp_path.iterdir())
    assert len(files) == 3 and all(f.suffix == ".eml" for f in files)  # no partial file left
    bodies = sorted(f.read_text() for f in files)
    assert [f"http://x/games/{n}/" in body for n, body in enumerate(bodies)] == [True] * 3
