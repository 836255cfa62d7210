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
        SITE_URL="https://fibbers.example",
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


def _production(code: str, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"ALLOWED_HOSTS", "SITE_URL"}}
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY=secrets.token_urlsafe(50),
        REDIS_URL="redis://127.0.0.1:6379/0",
        **extra,
    )
    return subprocess.run(
        [sys.executable, "-c", "import django;django.setup();" + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_the_loopback_defaults_for_hosts_and_links():
    result = _production("pass")  # neither ALLOWED_HOSTS nor SITE_URL: emails would say 127.0.0.1
    assert result.returncode != 0
    assert "production needs ALLOWED_HOSTS and SITE_URL" in result.stderr
    plain = _production("pass", ALLOWED_HOSTS="fibbers.example", SITE_URL="http://fibbers.example")
    assert "SITE_URL must be the site's https:// address" in plain.stderr


def test_production_trusts_one_proxy_for_the_client_address():
    code = "from django.conf import settings;print(settings.ALLAUTH_TRUSTED_PROXY_COUNT)"
    hosts = {"ALLOWED_HOSTS": "fibbers.example", "SITE_URL": "https://fibbers.example"}
    assert _production(code, **hosts).stdout.split() == ["1"]
    assert _production(code, TRUSTED_PROXY_COUNT="2", **hosts).stdout.split() == ["2"]


@pytest.mark.django_db
def test_models_and_migrations_agree():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exit_:  # makemigrations --check exits 1 when a migration is missing
        pytest.fail(f"missing migrations (exit {exit_.code}):\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()


def test_every_procfile_process_runs_production_settings_unless_told_otherwise():
    """Without DJANGO_SETTINGS_MODULE the code falls back to the local settings, DEBUG on:
    a deploy review's processes served Django's debug 404 page to visitors."""
    processes = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, sep, command = line.partition(": ")
        if sep and not line.startswith("#"):
            processes[name] = command
    assert set(processes) == {"web", "websocket", "worker", "beat"}
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    for name, command in processes.items():
        assignment, _program = command.split(" ", 1)
        shown = subprocess.run(
            ["sh", "-c", f"{assignment} printenv DJANGO_SETTINGS_MODULE"],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        assert shown.stdout.strip() == "config.settings.production", name
        chosen = subprocess.run(
            ["sh", "-c", f"{assignment} printenv DJANGO_SETTINGS_MODULE"],
            env={**env, "DJANGO_SETTINGS_MODULE": "site.settings"},
            capture_output=True,
            text=True,
            check=True,
        )
        assert chosen.stdout.strip() == "site.settings", name


def test_production_makes_no_demo_data_and_keeps_the_language_cookie_secure():
    code = (
        "from django.conf import settings;"
        "print(settings.DEMO_DATA_ALLOWED, settings.LANGUAGE_COOKIE_SECURE)"
    )
    hosts = {"ALLOWED_HOSTS": "fibbers.example", "SITE_URL": "https://fibbers.example"}
    assert _production(code, **hosts).stdout.split() == ["False", "True"]
    refused = _production(
        "from django.core.management import call_command; call_command('seed_demo')", **hosts
    )
    assert refused.returncode != 0 and "public password" in refused.stderr
