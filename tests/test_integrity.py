"""A tampered pack is refused before anything in it is opened (Whoosh's files are pickles)."""
import os
import shutil
import subprocess
import sys

import pytest

from nanshan_core.errors import PackError
from nanshan_core.corpus.pack import Pack

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def pack_copy(small_pack, tmp_path, monkeypatch):
    monkeypatch.setenv("NANSHAN_CACHE_DIR", str(tmp_path / "cache"))
    dst = tmp_path / "pack"
    shutil.copytree(small_pack.path, dst)
    return dst


def _flip(path, where=0.5):
    data = bytearray(path.read_bytes())
    k = int(len(data) * where)
    data[k] ^= 0x01
    path.write_bytes(bytes(data))


def _ask(pack, env):
    return subprocess.run([sys.executable, "-m", "nanshan_core.cli", "ask", "比丘能不能碰钱", "--json",
                           "--pack", str(pack)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def test_an_untouched_pack_opens_and_is_hashed_once(pack_copy):
    first = Pack(pack_copy, verify="cached")
    again = Pack(pack_copy, verify="cached")
    assert first.verify_ms >= 0 and again.verify_ms <= first.verify_ms + 50


@pytest.mark.parametrize("kind", ["sqlite", "whoosh-postings", "whoosh-toc", "manifest"])
def test_a_flipped_byte_is_refused_by_the_command_line(pack_copy, tmp_path, kind):
    Pack(pack_copy, verify="cached")                    # verified and cached while intact
    files = sorted((p for p in pack_copy.rglob("*") if p.is_file()), key=lambda p: -p.stat().st_size)
    target = {"sqlite": pack_copy / "corpus.sqlite",
              "whoosh-postings": next(p for p in files if p.suffix in (".pst", ".seg") or "MAIN" in p.name),
              "whoosh-toc": next(p for p in files if p.suffix == ".toc"),
              "manifest": pack_copy / "manifest.json"}[kind]
    _flip(target, 0.5 if kind != "manifest" else 0.9)
    with pytest.raises(PackError):
        Pack(pack_copy, verify="cached")
    env = {**os.environ, "NANSHAN_CACHE_DIR": str(tmp_path / "cache")}
    out = _ask(pack_copy, env)
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert "语料包" in out.stderr and out.stdout == ""


@pytest.mark.parametrize("command", [["bench", "--no-gui", "--repeat", "1"], ["search", "突吉羅"],
                                     ["line", "T24n1461_p0659a05"], ["topics", "--report"]])
def test_every_command_refuses_a_tampered_pack(pack_copy, tmp_path, command):
    Pack(pack_copy, verify="cached")
    _flip(next(p for p in pack_copy.rglob("*.toc")))
    env = {**os.environ, "NANSHAN_CACHE_DIR": str(tmp_path / "cache")}
    out = subprocess.run([sys.executable, "-m", "nanshan_core.cli", *command, "--pack", str(pack_copy)],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert out.returncode != 0 and "校验和不符" in out.stderr and "Traceback" not in out.stderr, out.stderr[-500:]


def test_the_gui_and_its_selftest_refuse_a_tampered_pack(pack_copy, tmp_path, qapp):
    from app.main import open_or_build
    from nanshan_core.userdata import UserData
    Pack(pack_copy, verify="cached")
    _flip(pack_copy / "corpus.sqlite", 0.3)
    session, reason = open_or_build(str(pack_copy), interactive=False,
                                    userdata=UserData(tmp_path / "d", tmp_path / "c"))
    assert session is None and "校验和不符" in reason and "corpus.sqlite" in reason
    env = {**os.environ, "NANSHAN_CACHE_DIR": str(tmp_path / "cache"), "QT_QPA_PLATFORM": "offscreen",
           "NANSHAN_DATA_DIR": str(tmp_path / "d"), "NANSHAN_CONFIG_DIR": str(tmp_path / "c")}
    out = subprocess.run([sys.executable, "-m", "app.main", "--selftest", "--pack", str(pack_copy)],
                         capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert out.returncode == 1 and "校验和不符" in out.stdout + out.stderr
