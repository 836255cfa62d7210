"""Settings shared by every environment, read from environment variables.

Embedded defaults (no variable set): SQLite, the in-memory channel layer, a local-memory
cache and Celery over kombu's filesystem transport, so the site runs with no server.
With DATABASE_URL and REDIS_URL set, the same code runs on PostgreSQL and Redis.
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from celery.schedules import crontab
from django.utils.translation import gettext_lazy as _

from config.vapid import from_environment

BASE_DIR = Path(__file__).resolve().parents[2]
VAR_DIR = Path(os.environ.get("FIBBERS_VAR_DIR", BASE_DIR / "var"))


def env_bool(name: str, default: bool = False) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


SECRET_KEY = os.environ.get("SECRET_KEY", "insecure-dev-key-only-for-the-embedded-default")
# Rotation (README, "Production"): the old key, comma-separated from any others, until the
# sessions and links it signed have lapsed; without it a new SECRET_KEY signs everyone out.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS")
DEBUG = env_bool("DEBUG")
BENCH_ENDPOINTS = env_bool("BENCH_ENDPOINTS")  # bench/ only: a token-less write endpoint
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")
SITE_ID = 1
SITE_NAME = "Fibbers"

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    # naturaltime: "5 minutes ago" in each language's own grammar (Czech "před 5 minutami"; a
    # timesince inside our own "%(ago)s ago" could not decline it)
    "django.contrib.humanize",
    "channels",
    "allauth",
    "allauth.account",
    "allauth.mfa",  # TOTP for staff; required for superusers where ADMIN_REQUIRE_MFA is on
    "accounts",
    "games",
    "ninja",  # /api/docs from its own static files (the CDN page is blank offline)
]

MIDDLEWARE = [
    # GET /healthz for probes, answered before HTTPS, Host, session and rate limits (config/health.py)
    "config.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "config.content_policy.ContentPolicyMiddleware",
    # Pings and push tasks of a change wait until its answer is sent (config/after_response.py).
    "config.after_response.AfterResponseMiddleware",
    # The API's own error shape for what ninja and the URL resolver answer in plain text/HTML.
    "config.api_errors.ApiErrorShapeMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session is read: bad text (400) and floods (429) cost no database connection.
    "config.guard.RequestGuardMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "accounts.middleware.RetiredBackendMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "accounts.middleware.UserTimeZoneMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

# Per client (API token or session) and per IP address; see config/guard.py.
REQUEST_LIMITS = {
    "inflight": int(os.environ.get("LIMIT_INFLIGHT", "8")),
    "inflight_ip": int(os.environ.get("LIMIT_INFLIGHT_IP", "32")),
    "writes": int(os.environ.get("LIMIT_WRITES_PER_MINUTE", "300")),
    "ip": int(os.environ.get("LIMIT_IP_PER_MINUTE", "1200")),
    # sockets a token may open a minute (a bot reconnecting in a loop)
    "socket_opens": int(os.environ.get("LIMIT_SOCKET_OPENS_PER_MINUTE", "30")),
}

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Each game's own pages and pictures live in its presentation package (games/catalog/<game>/):
# a new game's folder is found here without editing this file.
GAME_PACKAGES = sorted(
    p for p in (BASE_DIR / "games" / "catalog").iterdir() if p.is_dir() and p.name[0] != "_"
)

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [
            BASE_DIR / "templates",
            *(p / "templates" for p in GAME_PACKAGES if (p / "templates").is_dir()),
        ],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "accounts.context_processors.site",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'fibbers.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool("DB_POOL", True):
    # Under ASGI each sync request runs in a fresh thread: CONN_MAX_AGE > 0 would leak one
    # connection per request. psycopg's pool with CONN_MAX_AGE = 0 is the safe shape.
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": int(os.environ.get("DB_POOL_MAX_SIZE", "20")),
        "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
    }
    # Django then gives the pool psycopg's check: a pooled connection the server closed (a
    # restart, a failover, pg_terminate_backend, an idle timeout) is found at checkout and
    # replaced, instead of failing the next request that draws it with a 503 — possibly
    # hours later on a quiet site. One empty query at checkout, outside Django's cursors.
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = env_bool("DB_POOL_CHECK", True)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # No request may hold a connection (or a game's row lock) for long: a stuck statement is
    # cancelled and answered 503 (config.guard) instead of starving everyone else.
    DATABASES["default"].setdefault("OPTIONS", {})["options"] = (
        f"-c statement_timeout={int(os.environ.get('DB_STATEMENT_TIMEOUT_MS', '15000'))}"
        f" -c lock_timeout={int(os.environ.get('DB_LOCK_TIMEOUT_MS', '5000'))}"
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )
# config/statements.py prepares the hot reads and writes once per session (SQL PREPARE). A
# transaction-mode pooler (PgBouncer) hands each transaction another session: turn it off there.
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- Redis: cache, channel layer, Celery broker ----------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.SharedClientRedisCache",
            "LOCATION": REDIS_URL,
            # A Redis that stops answering (a partition, a stalled host) costs a request at most
            # this per cache call, not redis-py's default wait: every page and API call reads
            # the cache several times (rate limits, the token, presence).
            "OPTIONS": {
                "socket_timeout": float(os.environ.get("CACHE_SOCKET_TIMEOUT", "1.0")),
                "socket_connect_timeout": float(os.environ.get("CACHE_SOCKET_TIMEOUT", "1.0")),
            },
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # An explicit socket_timeout keeps idle consumers from being dropped every ~5 s
            # (channels-redis 4.3 with redis-py 8, measured on this machine).
            "CONFIG": {
                "hosts": [{"address": REDIS_URL, "socket_timeout": 60, "socket_connect_timeout": 5}]
            },
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, int | str | bool] = {"visibility_timeout": 3600}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT = "config.broker_files:Transport"  # writes each message whole
    _broker_dir = VAR_DIR / "celery-broker"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir),
        "data_folder_out": str(_broker_dir),
        "processed_folder": str(VAR_DIR / "celery-processed"),
        "control_folder": str(VAR_DIR / "celery-control"),
        "store_processed": False,
    }

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Redis lost while a task runs (a restart): the task finishes (it needs only PostgreSQL and the
# mail server), its acknowledgement is lost, and Redis hands the message out again after the
# visibility_timeout, when the task finds nothing left to do: every task re-checks (a wait's
# seq, an email's lease, a digest's rows). True, Celery 6's default, kills the running task
# instead: an email the mail server had taken would be recorded as unsent and sent again (a
# digest is sent inside its transaction). Celery warns on every loss either way, 7 lines: the
# worker drops that warning (config/worker_logging.py), the choice being made here.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# A worker started while Redis is down waits for it instead of exiting (as before, but stated:
# Celery 6 no longer reads broker_connection_retry at start-up).
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Deadlines live in the database; the beat sweeper is what enforces them.
# Deadlines and emails on separate queues: a slow mail server never delays a deadline. Every
# worker command (scripts/run.sh, the test worker) consumes both.
CELERY_TASK_DEFAULT_QUEUE = "deadlines"
CELERY_TASK_ROUTES = {
    # housekeeping, not mail: it must not wait behind a slow mail server
    "accounts.tasks.prune_notifications": {"queue": "deadlines"},
    "accounts.tasks.*": {"queue": "email"},
    "games.tasks.*": {"queue": "deadlines"},
}
_SWEEP_SECONDS = float(os.environ.get("SWEEP_SECONDS", "10"))
_EMAIL_SWEEP_SECONDS = float(os.environ.get("EMAIL_SWEEP_SECONDS", "10"))
# Beat entries expire: a sweep that could not run in time is dropped, the next one comes.
CELERY_BEAT_SCHEDULE = {
    "sweep-expired-deadlines": {
        "task": "games.tasks.sweep_expired_deadlines",
        "schedule": timedelta(seconds=_SWEEP_SECONDS),
        "options": {"expires": max(5.0, _SWEEP_SECONDS * 3)},
    },
    "check-live-pace": {
        "task": "games.tasks.check_live_pace",
        "schedule": timedelta(seconds=30),
        "options": {"expires": 60},
    },
    # a notice's email leaves with the first sweep after NOTIFICATION_EMAIL_DELAY
    "send-due-emails": {
        "task": "accounts.tasks.send_due_emails",
        "schedule": timedelta(seconds=_EMAIL_SWEEP_SECONDS),
        "options": {"expires": max(5.0, _EMAIL_SWEEP_SECONDS * 3)},
    },
    "send-reminders": {
        "task": "games.tasks.send_reminders",
        "schedule": timedelta(minutes=1),
        "options": {"expires": 120},
    },
    # every minute: a lobby says the day it is cancelled, in each reader's zone; an hourly
    # sweep cancelled a table made at 23:20 at 00:15, the next day
    "expire-unstarted-tables": {
        "task": "games.tasks.expire_unstarted_tables",
        "schedule": timedelta(minutes=1),
        "options": {"expires": 120},
    },
    "prune-notifications": {
        "task": "accounts.tasks.prune_notifications",
        "schedule": crontab(minute=30, hour=3),
        "options": {"expires": 3600, "queue": "deadlines"},
    },
    # hourly: each player's digest goes out at about 07:00 in their own time zone
    "send-daily-digests": {
        "task": "accounts.tasks.send_daily_digests",
        "schedule": crontab(minute=0),
        "options": {"expires": 1800},
    },
}
# Notifications kept: read ones this many days, unread ones at most NOTIFICATION_MAX_DAYS.
NOTIFICATION_RETENTION_DAYS = int(os.environ.get("NOTIFICATION_RETENTION_DAYS", "90"))
NOTIFICATION_MAX_DAYS = int(os.environ.get("NOTIFICATION_MAX_DAYS", "365"))
# A turn's email waits this long (then up to EMAIL_SWEEP_SECONDS for the sweep): read in the
# meantime, or its wait over, it is not sent.
NOTIFICATION_EMAIL_DELAY = float(os.environ.get("NOTIFICATION_EMAIL_DELAY", "60"))

# --- Web push (VAPID) -------------------------------------------------------------------
# Without a private key push is off (the profile page says so). `make run` makes a pair once
# in var/ (config/settings/local.py); production sets them (README, "Production").
VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = from_environment(None)
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@fibbers.localhost")
# A push waits this long, so a notice read in the meantime (the table open) is not pushed.
PUSH_DELAY = float(os.environ.get("PUSH_DELAY", "5"))
# A push still pending this many seconds after its delay lost its task (the broker was down):
# the email sweep queues it again (accounts.notifications.requeue_lost_pushes).
PUSH_LOST_AFTER = float(os.environ.get("PUSH_LOST_AFTER", "60"))
PUSH_TIMEOUT = 5  # seconds per push service request (at most PUSH_MAX_DEVICES each)
PUSH_MAX_DEVICES = 5  # subscriptions per player: a new one replaces the least used
# Push endpoints must be https on a public address (no SSRF into our network). Tests set this
# to reach their own push endpoint on 127.0.0.1 (http on a loopback address only).
PUSH_ALLOW_LOOPBACK = env_bool("PUSH_ALLOW_LOOPBACK")
# The push services browsers use (a host or a parent domain); "*" would allow any public host.
PUSH_SERVICE_HOSTS = tuple(
    host.strip().lower()
    for host in os.environ.get(
        "PUSH_SERVICE_HOSTS",
        "fcm.googleapis.com,android.googleapis.com,push.services.mozilla.com,"
        "push.apple.com,notify.windows.com",
    ).split(",")
    if host.strip()
)

# --- Accounts (django-allauth) ----------------------------------------------------------
# One backend: a failed login costs one password hash whatever was typed (accounts.auth_backends)
AUTHENTICATION_BACKENDS = ["accounts.auth_backends.AuthenticationBackend"]
ACCOUNT_LOGIN_METHODS = {"email", "username"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = os.environ.get("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Fibbers] "
# Proxies in front that append X-Forwarded-For: none here (make run, tests: the socket's peer is
# the client); production's default is the README's one proxy (config/settings/production.py).
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "0"))
ACCOUNT_RATE_LIMITS = {
    "login_failed": "10/m/ip,5/5m/key",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
    "confirm_email": "1/3m/key",
    # allauth 65 names the add/change-address limit "manage_email" ("change_email" was never read)
    "manage_email": "1/m/user",
}
ACCOUNT_ADAPTER = "accounts.adapters.AccountAdapter"
ACCOUNT_SIGNUP_FORM_CLASS = "accounts.forms.SignupExtras"  # the device's time zone
ACCOUNT_FORMS = {"signup": "accounts.signup.SignupForm"}  # one account per name, per address
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "Fibbers"
ADMIN_REQUIRE_MFA = env_bool("ADMIN_REQUIRE_MFA")
# A player logs in to play: land on My games (a `next` the login interrupted still wins).
LOGIN_REDIRECT_URL = "games:my_games"
LOGIN_URL = "account_login"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- Email ------------------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_TIMEOUT = 20  # seconds: a hanging SMTP server must not hold a worker
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Fibbers <noreply@fibbers.localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# --- Languages --------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("fa", _("Persian")),
    ("cs", _("Czech")),
    ("pt", _("Portuguese")),
    ("fr", _("French")),
]
# manage.py seed_demo / seed_demo_games: players with the README's public password (off in production)
DEMO_DATA_ALLOWED = env_bool("DEMO_DATA_ALLOWED", True)
# locale/: our strings; locale_overrides/: our wording of packages' strings (allauth, Django)
LOCALE_PATHS = [BASE_DIR / "locale", BASE_DIR / "locale_overrides"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [
    BASE_DIR / "static",
    *(p / "static" for p in GAME_PACKAGES if (p / "static").is_dir()),
]

LOGGING: dict[str, Any] = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        # a reset's, a confirmation's or an unsubscribe link's key never reaches a line (a
        # 404's path, a CSRF refusal's): config/secret_paths.py
        "secret_paths": {"()": "config.secret_paths.MaskSecretPaths"},
        # a Host not in ALLOWED_HOSTS (a scanner's): one WARNING line, not an ERROR's
        # traceback (config/refused_host.py)
        "refused_host": {"()": "config.refused_host.RefusedHost"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["secret_paths"]}},
    "loggers": {"django.security.DisallowedHost": {"filters": ["refused_host"]}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
}
