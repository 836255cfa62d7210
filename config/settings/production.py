"""Production: secrets and hosts from the environment, HTTPS everywhere, Redis required."""

import os
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.http.request import validate_host

from config.settings.base import *  # noqa: F403
from config.settings.base import ALLOWED_HOSTS, DATABASES, LOGGING, SITE_URL, VAR_DIR, env_bool

SMTP = "django.core.mail.backends.smtp.EmailBackend"
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", SMTP)
# Each of these has an embedded default that is wrong on a real site, and each default failed
# quietly (a deploy review): without DATABASE_URL every process opened its own SQLite file in
# var/ (web and worker on two machines: two sites), without the email settings every sign-up's
# verification went to localhost:25 from noreply@fibbers.localhost and was lost with a WARNING.
# All missing ones are named at once, before any process serves.
REQUIRED = ["SECRET_KEY", "DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "SITE_URL"]
REQUIRED += ["DEFAULT_FROM_EMAIL", *(["EMAIL_HOST"] if EMAIL_BACKEND == SMTP else [])]
_missing = [name for name in REQUIRED if not os.environ.get(name, "").strip()]
if _missing:
    raise ImproperlyConfigured(
        f"production needs {', '.join(_missing)} in the environment (README, 'Production')"
    )
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("production needs DATABASE_URL to be a postgres:// address")

DEBUG = False
BENCH_ENDPOINTS = False  # the bench's token-less write endpoint never exists in production
DEMO_DATA_ALLOWED = False  # the demo players' password is public (README)
LANGUAGE_COOKIE_SECURE = True  # as the session's and CSRF's cookies (a deploy review)
# a superuser reaches the admin only with TOTP set up (accounts.admin_login)
ADMIN_REQUIRE_MFA = True
# The embedded defaults name loopback addresses: emails' and pushes' links would point at
# http://127.0.0.1:8000/ and the proxy's Host would be refused (400) for every page.
if not SITE_URL.startswith("https://"):
    raise ImproperlyConfigured("SITE_URL must be the site's https:// address")
# the links in emails and pushes lead to SITE_URL: a host the site refuses answers them 400
if not validate_host(urlsplit(SITE_URL).hostname or "", ALLOWED_HOSTS):
    raise ImproperlyConfigured(f"SITE_URL's host is not in ALLOWED_HOSTS ({SITE_URL})")
# Behind the README's one proxy every request comes from 127.0.0.1: without this the request
# guard and allauth's login limits count all visitors as one address.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "1"))
# beat keeps its schedule here (CELERY_BEAT_SCHEDULE_FILENAME; git-ignored: a fresh clone
# has none); FIBBERS_VAR_DIR moves it, e.g. where the code's folder is not the service's to write
VAR_DIR.mkdir(parents=True, exist_ok=True)

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
# both bind every subdomain to HTTPS for a year: a site whose domain has others not (yet)
# on HTTPS turns them off (a deploy review)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
# base's (its filters: config/secret_paths.py), with the time, level and logger on each line
LOGGING = {
    **LOGGING,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {**LOGGING["handlers"]["console"], "formatter": "plain"}},
}
