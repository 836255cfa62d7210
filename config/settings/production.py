"""Production: secrets and hosts from the environment, HTTPS everywhere, Redis required."""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import LOGGING, REDIS_URL, SITE_URL, VAR_DIR, env_bool

DEBUG = False
BENCH_ENDPOINTS = False  # the bench's token-less write endpoint never exists in production
DEMO_DATA_ALLOWED = False  # the demo players' password is public (README)
LANGUAGE_COOKIE_SECURE = True  # as the session's and CSRF's cookies (a deploy review)
# a superuser reaches the admin only with TOTP set up (accounts.admin_login)
ADMIN_REQUIRE_MFA = True
SECRET_KEY = os.environ["SECRET_KEY"]
if not REDIS_URL:
    raise RuntimeError("production needs REDIS_URL (cache, channel layer, Celery broker)")
# The embedded defaults name loopback addresses: emails' and pushes' links would point at
# http://127.0.0.1:8000/ and the proxy's Host would be refused (400) for every page.
if "ALLOWED_HOSTS" not in os.environ or "SITE_URL" not in os.environ:
    raise RuntimeError("production needs ALLOWED_HOSTS and SITE_URL (README, 'Production')")
if not SITE_URL.startswith("https://"):
    raise RuntimeError("SITE_URL must be the site's https:// address")
# Behind the README's one proxy every request comes from 127.0.0.1: without this the request
# guard and allauth's login limits count all visitors as one address.
ALLAUTH_TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "1"))
# the Procfile's beat keeps its schedule in var/ (git-ignored: a fresh clone has none)
VAR_DIR.mkdir(parents=True, exist_ok=True)
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")

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
