"""The frozen bundle end to end: PyInstaller build with the prebuilt pack, then its own --selftest.

Marked slow (about half a minute here and ~500 MB written to a temporary
directory); .ci/run runs the whole suite, this included, once per CI run.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def bundle(full_pack, tmp_path_factory):
    dist = tmp_path_factory.mktemp("dist")
    out = subprocess.run([sys.executable, str(ROOT / "build_scripts" / "freeze.py"), "--dist", str(dist),
                          "--pack", str(full_pack.path)], capture_output=True, text=True, timeout=1200)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "selftest ok:" in out.stdout
    yield dist / "nanshan-wenlu"
    shutil.rmtree(dist, ignore_errors=True)


def _run(bundle, *args, home):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NANSHAN_", "PYTHON"))}
    env.update({"QT_QPA_PLATFORM": "offscreen", "HOME": str(home), "XDG_DATA_HOME": str(home / "d"),
                "XDG_CONFIG_HOME": str(home / "c")})
    return subprocess.run([str(bundle / "nanshan-gui"), *args], env=env, capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
def test_bundle_contents(bundle, full_pack):
    internal = bundle / "_internal"
    assert (bundle / "nanshan-gui").exists() and os.access(bundle / "nanshan-gui", os.X_OK)
    assert (internal / "corpus_pack" / "manifest.json").read_bytes() == (full_pack.path / "manifest.json").read_bytes()
    fonts = sorted(p.name for p in (internal / "resources" / "fonts").iterdir())
    assert any(f.endswith(".ttc") for f in fonts) and "LICENSE-NotoCJK.txt" in fonts
    assert (internal / "resources" / "glossary.json").exists()
    assert (internal / "resources" / "i18n" / "nanshan_zh_TW.qm").stat().st_size > 1000     # the 繁體 interface
    assert "CBETA" in (bundle / "README.txt").read_text(encoding="utf-8")


@pytest.mark.slow
def test_frozen_selftest_passes_offscreen(bundle, tmp_path):
    out = _run(bundle, "--selftest", home=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip().splitlines()[-1].startswith("selftest ok:")
    assert out.stdout.strip().endswith("· no network")


@pytest.mark.slow
def test_frozen_app_refuses_a_tampered_pack(bundle, small_pack, tmp_path):
    bad = tmp_path / "bad_pack"
    shutil.copytree(small_pack.path, bad)
    db = bad / "corpus.sqlite"
    data = bytearray(db.read_bytes())
    data[4096:4100] = b"XXXX"
    db.write_bytes(bytes(data))
    out = _run(bundle, "--selftest", "--pack", str(bad), home=tmp_path)
    assert out.returncode == 1
    assert "校验和不符" in out.stdout + out.stderr and "Traceback" not in out.stdout + out.stderr
