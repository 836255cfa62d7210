"""A fresh PostgreSQL database for a bench that plays through the services on local settings."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def setup_django(database_url: str) -> None:
    """Drops and recreates the database, points Django at it (no Redis: push and deadline
    tasks are dropped, nothing waits on them; emails stay queued in their rows) and migrates
    it."""
    os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.local"
    sys.path.insert(0, str(ROOT))
    import psycopg

    base, name = database_url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
        conn.execute(f'drop database if exists "{name}"')
        conn.execute(f'create database "{name}"')
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
