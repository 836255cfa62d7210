#!/usr/bin/env bash
# The README's test command: lint, the engine purity contract, the type check, then the whole suite against
# real PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379), started here if not running.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh dev
scripts/services.sh
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/lint-imports
# the type hints of config/, games/ and accounts/ (files: pyproject.toml's [tool.mypy])
.venv/bin/mypy
if command -v msgfmt >/dev/null 2>&1 && [ -d locale ]; then
  .venv/bin/python manage.py compilemessages --ignore=.venv -v 0
fi
# Two pytest-xdist workers for this 2-core machine kind: most of the suite's time is waiting
# (deadlines, windows, an idle socket's minute, live servers starting), so two overlap well.
# Each worker has its own test database and Redis database (config/settings/test.py).
# TEST_WORKERS=N sets another number; "-n 0" among the arguments runs in one process.
exec .venv/bin/python -m pytest -n "${TEST_WORKERS:-2}" --dist worksteal "$@"
