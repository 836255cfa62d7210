"""The test suite: real PostgreSQL and Redis (CI starts them), fast hashing, captured email."""

import os

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/fibbers")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/13")
os.environ.setdefault("DB_POOL", "false")


# Under pytest-xdist each worker gets its own Redis database (the next ones after the run's):
# the channel layer's groups are named by game id and the Celery broker's queue is shared, so
# two workers on one database would hear each other's tables and run each other's tasks against
# the wrong PostgreSQL database (pytest-django gives each worker its own). The marker keeps a
# subprocess (a live server, a Celery worker), which inherits both variables and this worker's
# REDIS_URL, from moving it a second time.
_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if _worker and os.environ.get("FIBBERS_REDIS_WORKER") != _worker:
    _head, _, _number = os.environ["REDIS_URL"].rpartition("/")
    _database = int(_number or 0) + int(_worker.removeprefix("gw"))
    if _database > 15:
        raise RuntimeError(f"{_worker}: no Redis database {_database} at {_head} (0-15)")
    os.environ["REDIS_URL"] = f"{_head}/{_database}"
    os.environ["FIBBERS_REDIS_WORKER"] = _worker

from config.settings.base import *  # noqa: E402, F403
from config.vapid import from_environment  # noqa: E402

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
# A live server for the browser journeys (tests/live_server.py) writes each email as a file
# into the folder the test reads: it runs in another process, out of reach of mail.outbox.
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", "")
if EMAIL_FILE_PATH:
    EMAIL_BACKEND = "config.mail.FileEmailBackend"
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Functional tests drive whole games through one client far faster than a person: the
# per-minute windows are lifted here and tested on their own (tests/games/test_guard.py sets them
# low); the in-flight caps stay as in production (tests/games/test_flood.py).
REQUEST_LIMITS = {**REQUEST_LIMITS, "writes": 100_000, "ip": 100_000}  # noqa: F405
# The browser test's Daphne serves the static files from their sources (no collectstatic).
WHITENOISE_USE_FINDERS = True

# Web push against the tests' own push endpoint on 127.0.0.1; one key pair for the test process
# and its Celery worker (made once in var/).
PUSH_ALLOW_LOOPBACK = True
# No DNS here: the tests stand a public address (1.1.1.1) in for a push service; the list of
# real services is tested on its own (tests/accounts/test_push_subscriptions.py).
PUSH_SERVICE_HOSTS = ("*",)
PUSH_DELAY = 0.0
VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = from_environment(VAR_DIR / "vapid-test-keys.json")  # noqa: F405
VAPID_SUBJECT = "mailto:push-test@fibbers.localhost"
