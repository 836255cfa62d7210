#!/usr/bin/env bash
# Creates .venv and installs the project's packages; reinstalls only when pyproject.toml changes.
# Usage: scripts/venv.sh [extra]   (extra = "dev" for the test tools)
set -euo pipefail
cd "$(dirname "$0")/.."
extra="${1:-}"
python="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
spec="."
[ -n "$extra" ] && spec=".[$extra]"
stamp=".venv/.installed-${extra:-base}"
hash=$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$hash" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
  echo "$hash" > "$stamp"
fi
