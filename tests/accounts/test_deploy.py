"""Production settings pass Django's deployment checks, and the models match the migrations."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.live_server import closed_port, production_env, stop

ROOT = Path(__file__).resolve().parents[2]
MAIL = {"EMAIL_HOST": "smtp.fibbers.example", "DEFAULT_FROM_EMAIL": "noreply@fibbers.example"}
HOSTS = {"ALLOWED_HOSTS": "fibbers.example", "SITE_URL": "https://fibbers.example"}
UNSET = "<unset>"  # _production leaves the variable out of the environment


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
        **MAIL,
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
        **MAIL,
    )
    env.update(extra)
    env = {k: v for k, v in env.items() if v != UNSET}
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
    assert "production needs ALLOWED_HOSTS, SITE_URL in the environment" in result.stderr
    plain = _production("pass", ALLOWED_HOSTS="fibbers.example", SITE_URL="http://fibbers.example")
    assert "SITE_URL must be the site's https:// address" in plain.stderr


def test_production_names_every_variable_it_lacks_instead_of_an_embedded_default():
    """Each of these had a development default that production ran on without a word: its own
    SQLite file per process (no DATABASE_URL), every sign-up's verification email sent to
    localhost:25 from noreply@fibbers.localhost and lost (no EMAIL_HOST, DEFAULT_FROM_EMAIL)."""
    code = "from django.conf import settings;print(settings.DATABASES['default']['ENGINE'])"
    assert _production(code, **HOSTS).stdout.split() == ["django.db.backends.postgresql"]
    for name in ("SECRET_KEY", "DATABASE_URL", "REDIS_URL", "EMAIL_HOST", "DEFAULT_FROM_EMAIL"):
        result = _production(code, **HOSTS, **{name: UNSET})
        assert result.returncode != 0, name
        assert f"production needs {name} in the environment" in result.stderr, result.stderr
    empty = _production(code, **HOSTS, SECRET_KEY=" ")  # a variable set to nothing is missing
    assert "production needs SECRET_KEY in the environment" in empty.stderr
    every = _production(code, SECRET_KEY=UNSET, DATABASE_URL=UNSET, EMAIL_HOST=UNSET)
    assert (
        "production needs SECRET_KEY, DATABASE_URL, ALLOWED_HOSTS, SITE_URL, EMAIL_HOST"
        in every.stderr
    )


def test_production_runs_on_postgresql_and_mails_by_the_backend_it_is_given():
    code = "from django.conf import settings;print(settings.EMAIL_BACKEND)"
    sqlite = _production(code, DATABASE_URL="sqlite:////tmp/fibbers.sqlite3", **HOSTS)
    assert "production needs DATABASE_URL to be a postgres:// address" in sqlite.stderr
    # another backend (an API's, a file's) needs no SMTP host; the sender still
    backend = "django.core.mail.backends.filebased.EmailBackend"
    chosen = _production(code, EMAIL_BACKEND=backend, EMAIL_HOST=UNSET, **HOSTS)
    assert chosen.stdout.split() == [backend], chosen.stderr


def test_production_links_lead_to_a_host_it_serves():
    """SITE_URL's links (emails, pushes) to a host outside ALLOWED_HOSTS answered 400."""
    wrong = _production(
        "pass", ALLOWED_HOSTS="www.fibbers.example", SITE_URL="https://fibbers.example"
    )
    assert "SITE_URL's host is not in ALLOWED_HOSTS (https://fibbers.example)" in wrong.stderr
    port = _production(
        "pass", ALLOWED_HOSTS=".fibbers.example", SITE_URL="https://fibbers.example:8443"
    )
    assert port.returncode == 0, port.stderr


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


def _procfile() -> dict[str, str]:
    processes = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, sep, command = line.partition(": ")
        if sep and not line.startswith("#"):
            processes[name] = command
    return processes


def test_the_procfiles_beat_keeps_its_schedule_where_the_settings_say(tmp_path):
    """FIBBERS_VAR_DIR moves the run's files, and production makes that folder for beat; the
    Procfile's beat wrote its schedule into ./var/ all the same (``--schedule var/…``: relative
    to wherever the supervisor started it, a folder the settings never made)."""
    folder = tmp_path / "var"
    env = production_env(
        FIBBERS_VAR_DIR=str(folder),
        REDIS_URL=f"redis://127.0.0.1:{closed_port()}/0",  # beat opens its schedule first
        PATH=f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
    )
    with (tmp_path / "beat.log").open("wb") as log:
        beat = subprocess.Popen(
            ["sh", "-c", _procfile()["beat"]],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while not list(folder.glob("celerybeat-schedule*")) and time.monotonic() < deadline:
            if beat.poll() is not None:
                break
            time.sleep(0.2)
    finally:
        stop(beat)
    said = (tmp_path / "beat.log").read_text(errors="replace")
    assert list(folder.glob("celerybeat-schedule*")), said[-2000:]


def test_every_procfile_process_runs_production_settings_unless_told_otherwise():
    """Without DJANGO_SETTINGS_MODULE the code falls back to the local settings, DEBUG on:
    a deploy review's processes served Django's debug 404 page to visitors."""
    processes = _procfile()
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
