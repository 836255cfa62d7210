"""Development: the README's run command. Embedded defaults unless DATABASE_URL/REDIS_URL are set."""

import os

from config.settings.base import *  # noqa: F403
from config.settings.base import VAR_DIR, env_bool
from config.vapid import from_environment

DEBUG = env_bool("DEBUG", True)
# Demo accounts log in straight away; a new sign-up verifies its address by the link in its email.
# Every email (the site's and the Celery worker's: both run these settings) is a file of its own
# under var/emails/ (scripts/run.sh says where); EMAIL_BACKEND=...smtp.EmailBackend sends them.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "config.mail.FileEmailBackend")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(VAR_DIR / "emails"))

# Web push works out of the box: a VAPID key pair is made once in var/ unless the environment
# sets one.
VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = from_environment(VAR_DIR / "vapid-keys.json")
