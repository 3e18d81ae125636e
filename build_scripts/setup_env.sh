#!/usr/bin/env bash
# Prepare a fresh machine for 南山问律: system libraries Qt needs, CJK fonts, a venv with
# the project installed.  Safe to run again: it only does what is missing.
# Usage: source build_scripts/setup_env.sh   (sets $PY to the venv's python)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${NANSHAN_VENV:-$ROOT/.venv}"

# Debian 12 packages: PySide6 offscreen/xcb needs these; fonts-noto-cjk renders Chinese;
# xvfb and imagemagick take screenshots of the real window (build_scripts/screenshots.py).
APT_PKGS=(libglib2.0-0 libgl1 libegl1 libx11-6 libx11-xcb1 libdbus-1-3 libfontconfig1 libfreetype6
          libxkbcommon0 libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0
          libxcb-render-util0 libxcb-shape0 libxcb-xkb1 libxcb-randr0 libxcb-xinerama0
          fonts-noto-cjk xvfb python3-venv build-essential)
missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${APT_PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
fi
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "安装系统依赖：${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
    $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q "${missing[@]}" >/dev/null; }
fi

PYTHON="${PYTHON:-python3}"
if [ ! -x "$VENV/bin/python" ]; then
  echo "创建虚拟环境 $VENV" >&2
  "$PYTHON" -m venv "$VENV"
fi
PY="$VENV/bin/python"
# Reinstall only when the dependency declaration changed.
stamp="$VENV/.nanshan-installed"
want="$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "安装 Python 依赖（pip install -e .[dev]）" >&2
  "$PY" -m pip install -q --disable-pip-version-check -e "$ROOT[dev]" 2>&1 | grep -v "^WARNING: Location" >&2 || true
  "$PY" -c "import PySide6, whoosh, opencc, lxml, platformdirs, pytestqt, hypothesis" \
    || { echo "依赖安装失败" >&2; exit 1; }
  echo "$want" > "$stamp"
fi
# The 繁體 interface: compile the committed .ts to the .qm the app loads (a build product).
"$PY" "$ROOT/build_scripts/translations.py" --release >/dev/null \
  || { echo "界面翻译编译失败（build_scripts/translations.py --release）" >&2; exit 1; }
export PY
