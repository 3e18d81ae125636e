#!/usr/bin/env bash
# Set up everything needed, build the corpus pack on first run (with progress), launch the app.
# Usage: bash build_scripts/run.sh [nanshan-gui options]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/build_scripts/setup_env.sh"
"$PY" -m nanshan_core.cli build-corpus --if-stale
exec "$PY" -m app.main "$@"
