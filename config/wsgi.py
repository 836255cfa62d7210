"""WSGI entry point: plain HTTP (a split deployment may serve pages here, sockets by ASGI)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_wsgi_application()
