#!/usr/bin/env bash
# Create .venv and install ludoteca with its pinned dependencies (idempotent: it does the
# install again only when pyproject.toml changed since the last time).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "ludoteca needs Python 3.11 or newer (found $("$PYTHON" --version 2>&1))" >&2
  exit 1
fi
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
stamp=.venv/.ludoteca-installed
want=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e '.[dev]'
  echo "$want" > "$stamp"
fi
# Compile the solvers' kernels now, not at a player's first hint (Numba caches the machine
# code beside the sources; about a minute). Again whenever a solver's source file changed,
# which is what makes Numba compile again too (it compares their times and sizes).
warmed=.venv/.ludoteca-warmed
sources=$(find src/ludoteca/solvers -name '*.py' -printf '%p %T@ %s\n' | sort | sha256sum | cut -d' ' -f1)
if [ ! -f "$warmed" ] || [ "$(cat "$warmed")" != "$sources" ]; then
  .venv/bin/python -m ludoteca.solvers.warm
  echo "$sources" > "$warmed"
fi
