"""First run without a corpus pack: the dialog that builds one from a CBETA folder.

A missing or wrong CBETA folder must be said clearly inside the dialog; a
build must be cancellable and leave nothing behind.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from app.firstrun import FirstRunDialog, pack_target
from app.main import open_or_build
from nanshan_core.paths import bundled_pack_dir, user_pack_dir

REASON = "找不到语料包：/nowhere。请先运行 `nanshan build-corpus` 生成。"


def dialog(qtbot, out: Path, cbeta) -> FirstRunDialog:
    d = FirstRunDialog(REASON, out=out, cbeta=cbeta)
    qtbot.addWidget(d)
    d.show()
    qtbot.waitExposed(d)
    return d


def click(button) -> None:
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def test_missing_pack_is_reported_without_a_window(tmp_path, monkeypatch):
    monkeypatch.setenv("NANSHAN_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("NANSHAN_CONFIG_DIR", str(tmp_path / "config"))
    session, reason = open_or_build(str(tmp_path / "no-pack"), interactive=False)
    assert session is None and "找不到语料包" in reason


def test_missing_cbeta_folder_gets_a_clear_message(qtbot, tmp_path):
    d = dialog(qtbot, tmp_path / "pack", tmp_path / "no-such-cbeta")
    assert str(tmp_path / "no-such-cbeta") in d.cbeta_label.text()
    assert "还没有语料包" in d.findChildren(type(d.cbeta_label))[0].text()
    click(d.build_button)
    assert "CBETA 目录不存在" in d.status.text() and str(tmp_path / "no-such-cbeta") in d.status.text()
    assert not d.building and d.isVisible() and d.build_button.isEnabled()
    assert not (tmp_path / "pack").exists()


def test_folder_that_is_not_cbeta_gets_a_clear_message(qtbot, tmp_path):
    empty = tmp_path / "downloads"
    empty.mkdir()
    d = dialog(qtbot, tmp_path / "pack", empty)
    click(d.build_button)
    assert "不像 CBETA" in d.status.text() and "T" in d.status.text()
    # a tree with the right shape but not the files: the builder's own message is shown
    (empty / "T" / "T22").mkdir(parents=True)
    d.set_cbeta(empty)
    click(d.build_button)
    qtbot.waitUntil(lambda: not d.building and bool(d.status.text()), timeout=30_000)
    assert d.status.text().startswith("CBETA 目录有问题：")
    assert not (tmp_path / "pack").exists()
    assert not list(tmp_path.glob(".pack.building-*"))


def test_no_cbeta_found_asks_for_a_folder(qtbot, tmp_path):
    d = dialog(qtbot, tmp_path / "pack", None)
    d.set_cbeta(None)
    assert "未找到" in d.cbeta_label.text()
    click(d.build_button)
    assert "选择文件夹" in d.status.text()


def test_build_can_be_cancelled_and_leaves_nothing(qtbot, tmp_path, cbeta_dir):
    d = dialog(qtbot, tmp_path / "pack", cbeta_dir)
    click(d.build_button)
    assert d.building and d.progress.isVisible() and not d.build_button.isEnabled()
    qtbot.waitUntil(lambda: d.detail.text() != "", timeout=30_000)     # progress has arrived
    click(d.cancel_button)
    qtbot.waitUntil(lambda: not d.building, timeout=60_000)
    assert "已取消" in d.status.text()
    assert d.isVisible() and d.build_button.isEnabled()
    assert not (tmp_path / "pack").exists()
    assert not list(tmp_path.glob(".pack.building-*"))


def test_pack_goes_to_the_checkout_from_source_else_to_user_data(tmp_path, monkeypatch):
    monkeypatch.setenv("NANSHAN_DATA_DIR", str(tmp_path / "data"))
    assert os.access(bundled_pack_dir().parent, os.W_OK)
    assert pack_target() == bundled_pack_dir()
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert pack_target() == user_pack_dir() == tmp_path / "data" / "corpus_pack"
