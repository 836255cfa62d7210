"""The Celery app, configured from Django settings (CELERY_* names)."""

import os

from celery import Celery

from config import task_logs, worker_logging

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")

app = Celery("fibbers")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# the beat's idle sweeps log at DEBUG, not INFO (config/task_logs.py)
task_logs.install(app)
# its lines through LOGGING's filters, as the web's (config/worker_logging.py)
worker_logging.install()
