#!/usr/bin/env bash
# Run the whole test suite on a fresh machine: set up, build the default pack if stale, pytest.
# Usage: bash build_scripts/test.sh [pytest options]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
source "$ROOT/build_scripts/setup_env.sh"
# The model path is tested with a real GGUF: install llama-cpp-python (built once, cached outside the repo).
PY="$PY" bash "$ROOT/build_scripts/install_llm.sh"
"$PY" -m nanshan_core.cli build-corpus --if-stale
export QT_QPA_PLATFORM=offscreen LANG=C.UTF-8 LC_ALL=C.UTF-8
set +e
"$PY" -m pytest "$@"
status=$?
set -e
if [ "$status" -eq 5 ]; then
  echo "pytest 没有收集到任何测试：视为失败" >&2
  exit 1
fi
exit "$status"
