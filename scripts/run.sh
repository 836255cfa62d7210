#!/usr/bin/env bash
# The README's run command: installs, migrates, creates demo players, then serves the site
# (Daphne: HTTP + WebSockets) with a Celery worker and beat. Embedded defaults need no server:
# SQLite, the in-memory channel layer, kombu's filesystem broker. DATABASE_URL / REDIS_URL
# switch to PostgreSQL and Redis.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh
export DJANGO_SETTINGS_MODULE="${DJANGO_SETTINGS_MODULE:-config.settings.local}"
HOST="${HOST:-127.0.0.1}"
PORT="${PORT:-8000}"
# the address in emails (game links, unsubscribe): where this run serves, unless set
export SITE_URL="${SITE_URL:-http://$HOST:$PORT}"
# the run's files (SQLite, broker folders, emails, logs): FIBBERS_VAR_DIR, as the settings read it
VAR="${FIBBERS_VAR_DIR:-$PWD/var}"
mkdir -p "$VAR/celery-broker" "$VAR/celery-processed" "$VAR/celery-control"
if command -v msgfmt >/dev/null 2>&1 && [ -d locale ]; then
  .venv/bin/python manage.py compilemessages --ignore=.venv -v 0
fi
.venv/bin/python manage.py migrate --noinput -v 0
.venv/bin/python manage.py seed_demo
.venv/bin/python manage.py seed_demo_games
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM
.venv/bin/celery -A config worker --beat --pool=solo -Q deadlines,email --loglevel=WARNING \
  --schedule "$VAR/celerybeat-schedule" >"$VAR/celery.log" 2>&1 &
pids+=($!)
echo "Fibbers is running at http://$HOST:$PORT/  (Celery log: $VAR/celery.log; Ctrl-C stops everything)"
if [ -z "${EMAIL_BACKEND:-}" ] && [ "$DJANGO_SETTINGS_MODULE" = config.settings.local ]; then
  echo "Emails (sign-up links, game emails) are files, one per message: ${EMAIL_FILE_PATH:-$VAR/emails}/"
fi
.venv/bin/daphne -b "$HOST" -p "$PORT" config.asgi:application &
pids+=($!)
wait -n "${pids[@]}"
