"""Development: the README's run command. Embedded defaults unless DATABASE_URL/REDIS_URL are set."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env_bool

DEBUG = env_bool("DEBUG", True)
# Demo accounts log in straight away; set ACCOUNT_EMAIL_VERIFICATION=mandatory to try the flow.
EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
