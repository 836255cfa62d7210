"""Production settings pass Django's deployment checks, and the models match the migrations."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


def test_check_deploy_with_production_settings_reports_no_issue():
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DEBUG", "DJANGO_SETTINGS_MODULE", "SECURE_SSL_REDIRECT"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY=secrets.token_urlsafe(50),
        REDIS_URL="redis://127.0.0.1:6379/0",
        ALLOWED_HOSTS="fibbers.example",
    )

    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.django_db
def test_models_and_migrations_agree():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit_:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"missing migrations (exit {exit_.code}):\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()
