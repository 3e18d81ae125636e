"""文件 → 语料包: the default 21-work pack or the whole 律部, kept side by side.

Which pack the window works on is the reader's choice, remembered in settings
(``pack_choice``) and used at the next start unless --pack or NANSHAN_PACK says
otherwise.  The wider pack is built on request from the CBETA tree, with the
first-run dialog's progress bar and Cancel, into the user data directory beside
the default pack (paths.wide_pack_dir), never over it.

Switching re-opens the Session and rebuilds what depends on it in the same
window rather than restarting the window: the question typed stays where it is,
a loaded model stays loaded (a restart would load it again, seconds to minutes),
and the window does not flicker.  The library, the concordance and the answer
area start over on the new pack; reader tabs close, since their lines belong to
the old one.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QMessageBox

from nanshan_core.corpus.works import default_works
from nanshan_core.errors import PackError
from nanshan_core.paths import default_pack_dir, find_cbeta, wide_pack_dir

CHOICE_KEY = "pack_choice"
DEFAULT, WIDE = "default", "wide"


def pack_dirs() -> dict[str, Path]:
    return {DEFAULT: default_pack_dir(), WIDE: wide_pack_dir()}


def work_count(path: Path) -> int | None:
    """Works listed in a pack's manifest; None when there is no readable manifest (not built)."""
    try:
        manifest = json.loads((Path(path) / "manifest.json").read_text(encoding="utf-8"))
        return len(manifest["works"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def current_choice(pack) -> str:
    """Which choice the open pack is: by its place, else by what it holds (a pack opened with
    --pack that has works outside the three layers is a wider pack)."""
    here = Path(pack.path).resolve()
    for key, path in pack_dirs().items():
        if path.resolve() == here:
            return key
    return WIDE if any(w.get("layer") == "other" for w in pack.works.values()) else DEFAULT


def open_remembered(userdata):
    """(session, None) on the remembered wider pack; (None, note) when it cannot be opened — the
    caller opens the default and the window shows the note; (None, None) when the default was
    chosen.  Not consulted when NANSHAN_PACK is set (--pack is handled by the caller)."""
    from .session import open_session
    if os.environ.get("NANSHAN_PACK") or userdata.get(CHOICE_KEY) != WIDE:
        return None, None
    path = wide_pack_dir()
    try:
        return open_session(path, userdata), None
    except PackError as exc:
        userdata.set(CHOICE_KEY, DEFAULT)
        note = QCoreApplication.translate(
            "PackChoice", "上次选用的「全部律部」语料包无法打开（{0}），已改用默认语料包。"
            "可在 文件 → 语料包 中重新选择或重新生成。").format(exc)
        return None, note


def switch_session(window, session) -> None:
    """The window on another pack: what depends on the pack starts over, the question stays."""
    for reader in window.readers():
        window.tabs.removeTab(window.tabs.indexOf(reader))
        reader.deleteLater()
    window.session = session
    session.forms                 # decided in the GUI thread, where fonts may be asked
    window.search_tab.set_session(session)
    window.library.load(session.pack)
    window.result = None
    window.chips.reset()
    for pane in window.panes.values():
        pane.clear()
    window._show_current()
    window.status_label.clear()
    for act in (window.act_export_html, window.act_export_pdf):
        act.setEnabled(False)
    window.messages.clear("pack")
    window.ready, window.pack_error, window.warm_ms = False, None, None
    window.question_bar.ask_button.setEnabled(True)
    window.readyChanged.emit(False)
    window._warm_up()


class PackMenu(QMenu):
    """「默认（21 部）」 / 「全部律部（N 部）」, one checked: the pack the window works on."""

    def __init__(self, window):
        super().__init__(window)
        self.setTitle(self.tr("语料包"))
        self.setObjectName("packMenu")
        self.window_ = window
        self.switch_ms: float | None = None       # the last switch, until the window was usable
        self.group = QActionGroup(self)
        self.group.setExclusive(True)
        self.actions_ = {}
        for key in (DEFAULT, WIDE):
            act = QAction(self)
            act.setCheckable(True)
            act.triggered.connect(lambda _=False, k=key: self.choose(k))
            self.group.addAction(act)
            self.addAction(act)
            self.actions_[key] = act
        self.aboutToShow.connect(self.refresh)
        self.refresh()

    def label(self, key: str) -> str:
        if key == DEFAULT:
            n = work_count(pack_dirs()[DEFAULT]) or len(default_works())
            return self.tr("默认（{0} 部）").format(n)
        n = work_count(pack_dirs()[WIDE])
        if n is not None:
            return self.tr("全部律部（{0} 部）").format(n)
        return self.tr("全部律部（尚未生成，选此生成）")

    def changeEvent(self, event):
        if event.type() == QEvent.Type.LanguageChange:   # its labels are built from templates: build them again
            self.setTitle(self.tr("语料包"))
            self.refresh()
        super().changeEvent(event)

    def refresh(self) -> None:
        current = current_choice(self.window_.session.pack)
        for key, act in self.actions_.items():
            act.setText(self.label(key))
            act.setChecked(key == current)

    def choose(self, key: str) -> bool:
        """Switch to a pack, building the wider one first if asked to; True when switched."""
        w = self.window_
        if key == current_choice(w.session.pack):
            self.refresh()
            return True
        if w._asking or w.generating:
            w.messages.error(self.tr("正在作答：答完后再切换语料包。"), tag="pack")
            self.refresh()
            return False
        path = pack_dirs()[key]
        if key == WIDE and work_count(path) is None and not self.build_wide(path):
            self.refresh()
            return False
        return self.switch_to(key, path)

    def switch_to(self, key: str, path: Path) -> bool:
        from .session import open_session
        w = self.window_
        t = time.perf_counter()
        try:
            session = open_session(path, w.userdata)
        except PackError as exc:
            w.messages.error(self.tr("无法打开语料包 {0}：{1}").format(path, exc), tag="pack")
            self.refresh()
            return False
        switch_session(w, session)
        w._save(w.userdata.set, CHOICE_KEY, key)
        w.readyChanged.connect(self._ready_after_switch(t))
        self.refresh()
        w.notify(self.tr("已换用语料包：{0}").format(self.label(key)))
        return True

    def _ready_after_switch(self, t0: float):
        """Record how long the reader waited until questions could be asked again."""
        def done(ok: bool) -> None:
            if ok:
                self.switch_ms = (time.perf_counter() - t0) * 1000
            self.window_.readyChanged.disconnect(done)
        return done

    def build_wide(self, path: Path) -> bool:
        """Ask, then build the whole 律部 into ``path`` with progress and Cancel."""
        from nanshan_core.corpus.works import all_works
        from .firstrun import FirstRunDialog
        cbeta = find_cbeta()
        n = len(all_works(cbeta)) if cbeta else 0
        text = self.tr("「全部律部」语料包尚未生成。现在从 CBETA 目录生成吗？\n\n"
                  "共约 {0} 部，约需 5–6 分钟、1.5 GB 内存；生成到 {1}，与默认语料包并存，不会覆盖它。"
                  "生成中可以取消。").format(n or "?", path)
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("生成全部律部语料包"), text,
                          QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, self.window_)
        box.setObjectName("buildWideBox")
        box.button(QMessageBox.StandardButton.Yes).setText(self.tr("生成"))
        box.button(QMessageBox.StandardButton.No).setText(self.tr("不生成"))
        if box.exec() != QMessageBox.StandardButton.Yes:
            return False
        intro = self.tr("<p><b>生成「全部律部」语料包</b>：CBETA 律部的全部著作，默认 21 部之外的归入「其他律部」"
                   "「其他注疏」，只在书库、原文检索和答案的「其他」栏中出现。</p>")
        dialog = FirstRunDialog("", out=path, cbeta=cbeta, parent=self.window_, works="all", intro=intro)
        dialog.setObjectName("buildWideDialog")
        return dialog.exec() == dialog.DialogCode.Accepted
