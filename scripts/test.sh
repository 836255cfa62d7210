#!/usr/bin/env bash
# The README's test command: lint, the engine purity contract, then the whole suite against
# real PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379), started here if not running.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh dev
scripts/services.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/lint-imports
if command -v msgfmt >/dev/null 2>&1 && [ -d locale ]; then
  .venv/bin/python manage.py compilemessages --ignore=.venv -v 0
fi
exec .venv/bin/python -m pytest "$@"
