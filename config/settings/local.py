"""Development: the README's run command. Embedded defaults unless DATABASE_URL/REDIS_URL are set."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env_bool
from config.vapid import from_environment

DEBUG = env_bool("DEBUG", True)
# Demo accounts log in straight away; set ACCOUNT_EMAIL_VERIFICATION=mandatory to try the flow.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# Web push works out of the box: a VAPID key pair is made once in var/ unless the environment
# sets one.
VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY = from_environment(VAR_DIR / "vapid-keys.json")  # noqa: F405
