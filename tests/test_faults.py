"""Faults injected from outside: a build killed at random points, the app killed while it saves,
a disk that refuses to write.  What must hold: the old pack or none, never a half pack that opens;
the previous file or the new one, never a truncated one; a message, the data still in memory, and
a way to save it elsewhere."""
import errno
import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from nanshan_core.errors import PackError
from nanshan_core.corpus.pack import Pack
from nanshan_core.userdata import UserData, load_json

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KILLS = 6
BUILD_KILLS = 4


def _build_cmd(cbeta_dir, out):
    return [sys.executable, "-m", "nanshan_core.cli", "build-corpus", "--cbeta", str(cbeta_dir),
            "--works", "T1461", "--out", str(out)]


def _pack_or_none(out) -> str:
    """'none' when nothing is at ``out``; 'pack' when a whole pack is, checked byte for byte."""
    if not out.exists():
        return "none"
    p = Pack(out, verify="full")             # raises on a half or damaged pack
    assert [w for w in p.works] == ["T1461"]
    return "pack"


@pytest.mark.slow
def test_a_build_killed_anywhere_leaves_the_old_pack_or_none(cbeta_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("NANSHAN_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "pack"
    t = time.perf_counter()
    subprocess.run(_build_cmd(cbeta_dir, out), check=True, capture_output=True, cwd=ROOT, timeout=600)
    whole = time.perf_counter() - t
    rng = random.Random(13)
    seen = []
    for k in range(BUILD_KILLS):
        proc = subprocess.Popen(_build_cmd(cbeta_dir, out), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                cwd=ROOT)
        time.sleep(rng.uniform(0.05, whole))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        seen.append(_pack_or_none(out))
    assert "pack" in seen
    # the next build clears what the killed ones left beside the pack, and succeeds
    subprocess.run(_build_cmd(cbeta_dir, out), check=True, capture_output=True, cwd=ROOT, timeout=600)
    assert _pack_or_none(out) == "pack"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".pack.")) == []


def test_a_half_written_pack_is_never_opened(small_pack, tmp_path, monkeypatch):
    """What a kill in the middle of writing would leave, if it were left at the pack's place."""
    import shutil
    monkeypatch.setenv("NANSHAN_CACHE_DIR", str(tmp_path / "cache"))
    half = tmp_path / "half"
    shutil.copytree(small_pack.path, half)
    biggest = max((p for p in half.rglob("*") if p.is_file() and p.name != "manifest.json"),
                  key=lambda p: p.stat().st_size)
    with open(biggest, "r+b") as f:
        f.truncate(biggest.stat().st_size // 2)
    with pytest.raises(PackError):
        Pack(half, verify="cached")


SAVER = r"""
import sys
from nanshan_core.userdata import UserData
ud = UserData(sys.argv[1], sys.argv[2])
k = 0
while True:
    k += 1
    ud.add_bookmark("T22n1428_p0576b27", "备注" * (k % 3000), "若比丘故自手斷人命")
    ud.add_history(f"问题 {k} " + "比丘" * (k % 500))
    ud.set("font_scale", 1.0 + (k % 7) / 10)
"""


@pytest.mark.slow
def test_killing_the_app_while_it_saves_leaves_a_whole_file(tmp_path):
    data, config = tmp_path / "data", tmp_path / "config"
    rng = random.Random(7)
    for _ in range(KILLS):
        proc = subprocess.Popen([sys.executable, "-c", SAVER, str(data), str(config)], cwd=ROOT)
        time.sleep(rng.uniform(0.3, 1.5))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        for path in (data / "bookmarks.json", data / "history.json", config / "settings.json"):
            assert load_json(path, None).message is None, f"{path.name} truncated by a kill"
        ud = UserData(data, config)
        assert not ud.messages
        assert ud.bookmarks and set(ud.bookmarks[0].note) <= {"备", "注"}
    leftovers = [p.name for p in data.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) <= KILLS                    # a kill may leave its temporary file, never the real one


def test_a_full_disk_keeps_the_bookmark_and_offers_another_place(qtbot, open_window, user_dirs, tmp_path,
                                                                  monkeypatch):
    import nanshan_core.userdata as ud_mod
    w = open_window()
    real = ud_mod.atomic_write_json

    def full(path, data):
        if str(path).startswith(str(user_dirs[0])) or str(path).startswith(str(user_dirs[1])):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)
    monkeypatch.setattr(ud_mod, "atomic_write_json", full)
    w.add_bookmark("T22n1428_p0576b27", "若比丘故自手斷人命")
    assert "无法保存书签" in w.messages.text() and "另存" in w.messages.text()
    assert w.bookmarks.isVisible() and w.bookmarks.row_of("T22n1428_p0576b27") >= 0   # still listed
    assert any(b.coord == "T22n1428_p0576b27" for b in w.userdata.bookmarks)
    elsewhere = tmp_path / "usb" / "书签.json"
    with qtbot.waitSignal(w.bookmarks.saved):
        assert w.bookmarks.save_elsewhere(str(elsewhere))
    saved = json.loads(elsewhere.read_text(encoding="utf-8"))
    assert saved["bookmarks"][0]["coord"] == "T22n1428_p0576b27"
    assert not w.bookmarks.save_elsewhere(str(user_dirs[0] / "x.json"))    # the full disk again: a message
    assert "未能另存" in w.messages.text()
