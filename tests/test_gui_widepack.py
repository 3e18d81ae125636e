"""文件 → 语料包 and the 「其他」 pane, on real widgets and real packs.

The "wider" pack here is a small real one built in the test (六物圖, a default work, and
四分律比丘戒本 T1429, outside the default 21), found through NANSHAN_WIDE_PACK as the app
finds the whole-律部 pack in the user data directory.
"""
from __future__ import annotations

import json
import shutil

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

WIDE_WORKS = ["T1900", "T1429"]
WINE = "比丘可以喝酒吗？"          # only T1429 has 飲酒 among the small pack's works


@pytest.fixture(scope="module")
def small_wide(cbeta_dir, tmp_path_factory):
    from nanshan_core.corpus.build import build_pack
    out = tmp_path_factory.mktemp("wide") / "corpus_pack_all"
    build_pack(cbeta_dir, out, works=WIDE_WORKS)
    return out


@pytest.fixture
def wide_env(monkeypatch, small_wide, full_pack):
    """The wider location at the small pack; the default location at the full pack."""
    monkeypatch.setenv("NANSHAN_WIDE_PACK", str(small_wide))
    monkeypatch.setenv("NANSHAN_PACK", str(full_pack.path))
    return small_wide


def _menu_state(w) -> list[tuple[str, bool]]:
    w.pack_menu.refresh()
    return [(a.text(), a.isChecked()) for a in w.pack_menu.actions()]


def _file_menu(w):
    return next(a.menu() for a in w.menuBar().actions() if a.text() == "文件")


def _ask(qtbot, w, question: str):
    with qtbot.waitSignal(w.resultShown, timeout=60_000) as sig:
        assert w.ask(question)
    return sig.args[0]


def test_pack_menu_shows_both_choices_current_checked(open_window, wide_env, tmp_path, monkeypatch):
    w = open_window()
    assert w.pack_menu.menuAction() in _file_menu(w).actions()
    assert w.pack_menu.title() == "语料包"
    assert _menu_state(w) == [("默认（21 部）", True), ("全部律部（2 部）", False)]
    assert all(a.isCheckable() for a in w.pack_menu.actions()) and w.pack_menu.group.isExclusive()
    monkeypatch.setenv("NANSHAN_WIDE_PACK", str(tmp_path / "not_built"))
    assert _menu_state(w)[1] == ("全部律部（尚未生成，选此生成）", False)


def test_switch_to_wider_pack_keeps_question_and_is_remembered(open_window, wide_env, qtbot, gui_fonts, full_pack):
    from app.main import open_or_build
    from app.window import MainWindow
    from nanshan_core.userdata import UserData
    w = open_window()
    w.question_bar.set_text(WINE)
    assert w.pack_menu.choose("wide")
    qtbot.waitUntil(lambda: w.ready, timeout=60_000)
    assert w.session.pack.path.resolve() == wide_env.resolve()
    assert w.question_bar.text() == WINE                       # the question survives the switch
    assert _menu_state(w) == [("默认（21 部）", False), ("全部律部（2 部）", True)]
    groups = [w.library.model.item(r).text() for r in range(w.library.model.rowCount())]
    assert groups == ["元照（1）", "其他律部（1）"]
    assert w.search_tab.work_box.count() == 3                   # 全部经典 + the two works
    assert UserData().get("pack_choice") == "wide"
    result = _ask(qtbot, w, WINE)
    assert any(m.layer == "other" for m in result.materials)
    # NANSHAN_PACK (set here to the default pack) and --pack say otherwise than the remembered choice
    session, reason = open_or_build(None, interactive=False)
    assert reason is None and session.pack.path.resolve() == full_pack.path.resolve()
    # a new window, started as the app starts, opens the remembered pack
    monkeypatch_env = pytest.MonkeyPatch()
    monkeypatch_env.delenv("NANSHAN_PACK")
    try:
        explicit, _ = open_or_build(str(full_pack.path), interactive=False)
        session, reason = open_or_build(None, interactive=False)
    finally:
        monkeypatch_env.undo()
    assert explicit.pack.path.resolve() == full_pack.path.resolve()
    assert reason is None and session.pack.path.resolve() == wide_env.resolve()
    w2 = MainWindow(session, gui_fonts, autoload_model=False)
    qtbot.addWidget(w2)
    qtbot.waitUntil(lambda: w2.ready, timeout=60_000)
    assert [a.isChecked() for a in w2.pack_menu.actions()] == [False, True]
    # and back: the default pack, remembered as such
    assert w.pack_menu.choose("default")
    qtbot.waitUntil(lambda: w.ready, timeout=60_000)
    assert w.session.pack.path.resolve() == full_pack.path.resolve()
    assert [a.isChecked() for a in w.pack_menu.actions()] == [True, False]
    assert UserData().get("pack_choice") == "default"


def test_other_pane_appears_collapses_and_opens(open_window, wide_env, qtbot):
    w = open_window()
    assert w.pack_menu.choose("wide")
    qtbot.waitUntil(lambda: w.ready, timeout=60_000)
    pane = w.panes["other"]
    result = _ask(qtbot, w, WINE)
    others = [m for m in result.materials if m.layer == "other"]
    assert others
    assert pane.isVisible() and not pane.collapsed               # shown open: it holds the best passage
    assert pane.toggle.text() == f"▸ 其他（{len(others)}）"
    cards = pane.card_text()
    assert "四分律比丘戒本" in cards and "〔其他律部〕" in cards and "飲酒" in cards
    assert "【其他】" in w.answer_view.toPlainText()
    assert "四分律比丘戒本" not in w.panes["vinaya"].card_text()  # the three panes keep their meaning
    qtbot.mouseClick(pane.toggle, Qt.MouseButton.LeftButton)
    assert pane.collapsed and not pane.view.isVisible()
    qtbot.waitUntil(lambda: pane.width() <= pane.STRIP)
    assert "其\n他" in pane.toggle.text()
    # a link to one of its materials opens it again
    assert w.show_material(others[0].n)
    assert not pane.collapsed and pane.view.isVisible()
    qtbot.waitUntil(lambda: pane.width() > 100)
    # a question the three layers answer better: no 其他
    result = _ask(qtbot, w, "漉水囊怎么用？")
    assert not [m for m in result.materials if m.layer == "other"]
    assert not pane.isVisible()


def test_other_pane_absent_on_default_pack(open_window, qtbot):
    w = open_window()
    result = _ask(qtbot, w, WINE)
    assert not [m for m in result.materials if m.layer == "other"]
    assert not w.panes["other"].isVisible()
    assert all(w.panes[k].isVisible() for k in ("vinaya", "daoxuan", "yuanzhao"))


@pytest.mark.parametrize("damage", ["missing", "corrupt"])
def test_broken_remembered_pack_falls_back_to_default(damage, small_wide, full_pack, tmp_path, monkeypatch,
                                                      user_dirs, qtbot, gui_fonts):
    """A remembered wider pack that is gone or damaged: the default opens, the window says why,
    and the choice is set back to the default."""
    from app.main import open_or_build
    from app.window import MainWindow
    from nanshan_core.userdata import UserData
    broken = tmp_path / "wide"
    if damage == "corrupt":
        shutil.copytree(small_wide, broken)
        manifest = json.loads((broken / "manifest.json").read_text(encoding="utf-8"))
        db = broken / "corpus.sqlite"
        data = bytearray(db.read_bytes())
        data[len(data) // 2] ^= 0xFF                  # one byte flipped, same size
        db.write_bytes(bytes(data))
        assert manifest["files"]["corpus.sqlite"]["bytes"] == len(data)
    monkeypatch.setenv("NANSHAN_WIDE_PACK", str(broken))
    monkeypatch.delenv("NANSHAN_PACK", raising=False)
    UserData().set("pack_choice", "wide")
    userdata = UserData()
    session, reason = open_or_build(None, interactive=False, userdata=userdata)
    assert reason is None and session is not None
    assert not session.engine.retriever.other_works         # the default pack
    w = MainWindow(session, gui_fonts, autoload_model=False)
    qtbot.addWidget(w)
    w.show()
    qtbot.waitUntil(lambda: w.ready, timeout=60_000)
    assert "「全部律部」语料包无法打开" in w.messages.text() and "已改用默认语料包" in w.messages.text()
    assert w.messages.isVisible()
    assert UserData().get("pack_choice") == "default"


def test_choosing_unbuilt_wider_pack_asks_first(open_window, monkeypatch, tmp_path, full_pack, qtbot):
    """Not built yet: the app asks before building (never silently); 「不生成」 keeps the default
    pack, checked, and creates nothing."""
    monkeypatch.setenv("NANSHAN_WIDE_PACK", str(tmp_path / "corpus_pack_all"))
    monkeypatch.setenv("NANSHAN_PACK", str(full_pack.path))
    w = open_window()
    seen = []

    def answer_no():
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(50, answer_no)
            return
        seen.append(box.text())
        box.button(QMessageBox.StandardButton.No).click()
    QTimer.singleShot(50, answer_no)
    assert not w.pack_menu.choose("wide")
    assert seen and "尚未生成" in seen[0] and "不会覆盖" in seen[0]
    assert not (tmp_path / "corpus_pack_all").exists()
    assert _menu_state(w)[0][1] is True and w.session.pack.path == full_pack.path


def test_building_wider_pack_shows_progress_and_cancels_cleanly(open_window, monkeypatch, tmp_path, full_pack,
                                                                 qtbot):
    """「生成」 starts the whole-律部 build from the CBETA tree with a progress bar; 取消 stops it,
    leaves nothing at the wider location, and the window stays on the default pack."""
    from app.firstrun import FirstRunDialog
    target = tmp_path / "corpus_pack_all"
    monkeypatch.setenv("NANSHAN_WIDE_PACK", str(target))
    monkeypatch.setenv("NANSHAN_PACK", str(full_pack.path))
    w = open_window()
    seen: dict = {}

    def drive():
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QMessageBox):
            dialog.button(QMessageBox.StandardButton.Yes).click()
        elif isinstance(dialog, FirstRunDialog):
            if "started" not in seen:
                seen["started"] = str(dialog.out)
                dialog.build_button.click()
            elif dialog.building and dialog.progress.isVisible() and dialog.detail.text() and "progress" not in seen:
                seen["progress"] = dialog.detail.text()
                dialog.cancel()
            elif not dialog.building and "progress" in seen:
                seen["status"] = dialog.status.text()
                dialog.cancel()              # not building: closes the dialog
                return
        QTimer.singleShot(20, drive)
    QTimer.singleShot(20, drive)
    QTimer.singleShot(180_000, lambda: QApplication.activeModalWidget() and QApplication.activeModalWidget().close())
    assert not w.pack_menu.choose("wide")
    assert seen["started"] == str(target) and seen["progress"]
    assert "已取消" in seen["status"]
    assert not target.exists()
    assert w.session.pack.path == full_pack.path and _menu_state(w)[0][1] is True
