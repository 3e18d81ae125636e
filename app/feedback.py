"""有帮助 / 不相关 / 出处有误 on quotes and cards: recorded at a click, a note if wished.

A click on one of the small links under a quote or a card records the mark at
once (nothing to confirm: a reader marking twenty cards must not meet twenty
dialogs) with the question, the terms and the pack of the answer on screen.
A small non-modal window then says what was recorded and offers a line for a
note; closing it keeps the mark without one.  文件 → 导出反馈… writes every
mark as JSONL for a teacher to pass on.  Nothing leaves the machine otherwise.
"""
from __future__ import annotations

import time
from functools import partial
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, Qt, Signal
from PySide6.QtGui import QCursor, QGuiApplication
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QFileDialog, QLabel, QLineEdit, QVBoxLayout)

from nanshan_core.feedback import (KINDS, MAX_NOTE, TARGETS, FeedbackError, FeedbackStore, card_record,
                                   quote_record)
from nanshan_core.i18n import localize

translate = QCoreApplication.translate


def kind_label(kind: str) -> str:
    """有帮助 / 不相关 / 出处有误 in the interface language: the store's own labels, localized, so the
    links and the popup cannot drift from what the store and the CLI call a mark."""
    return localize(KINDS.get(kind, kind))


def describe(record) -> str:
    """What was marked, as the reader saw it: 「不相关」· 材料5 T22n1428_p0601a01."""
    if record.target == "quote" and record.quote:
        q = record.quote if len(record.quote) <= 16 else record.quote[:16] + "…"
        where = translate("feedback", "引文「{quote}」").format(quote=q)
    elif record.material is not None:
        where = translate("feedback", "材料{n}").format(n=record.material)
    else:
        where = localize(TARGETS[record.target])
    coord = f" {record.coord}" if record.coord else ""
    return f"「{kind_label(record.kind)}」· {where}{coord}"


class NotePopup(QDialog):
    """Says what was recorded; offers one line for a note.  Non-modal: reading goes on."""

    def __init__(self, controller: "FeedbackController", parent=None):
        super().__init__(parent)
        self.controller = controller
        self.record_id = ""
        self.record = None
        self._error = None               # makes the error line's text again after a language switch
        self.setWindowTitle(self.tr("已记下反馈"))
        self.setModal(False)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, False)
        self.what = QLabel()
        self.what.setWordWrap(True)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText(self.tr("附注（可不填），如：讲的是另一条戒；{n} 字以内").format(n=MAX_NOTE))
        self.edit.setClearButtonEnabled(True)
        self.error = QLabel()
        self.error.setObjectName("feedbackNoteError")
        self.error.setStyleSheet("color:#b3261e;")
        self.error.hide()
        buttons = QDialogButtonBox()
        self.save_button = buttons.addButton(self.tr("保存附注"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.tr("不用附注"), QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.what)
        lay.addWidget(self.edit)
        lay.addWidget(self.error)
        lay.addWidget(buttons)
        self.setMinimumWidth(380)

    def show_for(self, record) -> None:
        """The popup for a new mark; a note typed for the previous one and not yet saved is
        saved first (a second click must not throw away what the reader wrote)."""
        if self.isVisible() and self.record_id and self.record_id != record.id and self.edit.text().strip():
            try:
                self.controller.set_note(self.record_id, self.edit.text())
            except (FeedbackError, OSError):
                return self._keep_note(record)
        self.record_id, self.record = record.id, record
        self._say_what()
        self.edit.clear()
        self._error = None
        self.error.hide()
        self._place()
        self.show()
        self.raise_()
        self.activateWindow()
        self.edit.setFocus()

    def _keep_note(self, record) -> None:
        """The previous note could not be saved: it stays in the box with the reason; the new
        mark is recorded all the same (the status line says so)."""
        self._show_error(lambda: self.tr("上一条的附注未能保存（过长或无法写入），仍在框中；新的{what}已记下。")
                         .format(what=describe(record)))
        self.raise_()

    def _say_what(self) -> None:
        if self.record is not None:
            self.what.setText(self.tr("已记下 {what}。\n可以附一句说明（不填也已记下）：").format(
                what=describe(self.record)))

    def _show_error(self, make) -> None:
        """``make`` gives the text in the current language, so a switch can say it again."""
        self._error = make
        self.error.setText(make())
        self.error.show()

    def changeEvent(self, event):
        """The mark and an error hold the engine's words (localized when made): made again."""
        if event.type() == QEvent.Type.LanguageChange:
            self._say_what()
            if self._error is not None:
                self.error.setText(self._error())
        super().changeEvent(event)

    def _place(self) -> None:
        """Beside the pointer (where the link was clicked), inside the screen."""
        self.adjustSize()
        pos = QCursor.pos() + QPoint(12, 12)
        screen = QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
        if screen is not None:
            area = screen.availableGeometry()
            pos.setX(max(area.left(), min(pos.x(), area.right() - self.width())))
            pos.setY(max(area.top(), min(pos.y(), area.bottom() - self.height())))
        self.move(pos)

    def save(self) -> None:
        """A note that cannot be kept (too long, a disk problem) is said here and stays in the box."""
        try:
            self.controller.set_note(self.record_id, self.edit.text())
        except (FeedbackError, OSError) as exc:
            self._show_error(partial(self._note_error, exc))
            return
        self.accept()

    def _note_error(self, exc: Exception) -> str:
        if isinstance(exc, FeedbackError):
            return localize(str(exc))          # the store's own words (附注过长…)
        return self.tr("无法保存附注（{exc}）。").format(exc=exc)


class FeedbackController(QObject):
    recorded = Signal(object)         # the FeedbackRecord just saved
    exported = Signal(str)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.store = FeedbackStore(window.userdata.data_dir)
        self.popup = NotePopup(self, window)
        if self.store.message:
            shown = window.messages.text()
            window.messages.error("\n".join(x for x in (shown, self.store.message) if x), tag="userdata")

    # -- marking ---------------------------------------------------------------------------
    def handle(self, value: str):
        """A 「fb:kind/target/index」 link: the mark, recorded now, and the note popup."""
        kind, _, rest = value.partition("/")
        target, _, index = rest.partition("/")
        record = self.record_for(kind, target, index)
        if record is None:
            self.window.notify(self.tr("这条反馈对应的答案已不在屏幕上，未记录。"))
            return None
        try:
            saved = self.store.add(record)
        except OSError as exc:
            self.window.messages.error(self.tr("无法保存反馈（{exc}）。请检查磁盘后再点一次。").format(exc=exc),
                                       tag="feedback")
            return None
        said = (self.tr("已记下 {what}（此前已记下，不重复计数）") if saved is not record
                else self.tr("已记下 {what}（只存在本机；文件 → 导出反馈… 可导出）"))
        record = saved
        self.popup.show_for(record)          # first: it may save the previous note and say so
        self.window.notify(said.format(what=describe(record)))
        self.recorded.emit(record)
        return record

    def record_for(self, kind: str, target: str, index: str):
        """The record for a link, from the answer on screen; None when it no longer matches."""
        result = self.window.result
        if result is None or result.refused or kind not in KINDS or not index.isdigit():
            return None
        manifest = self.window.session.pack.manifest
        if target == "quote":
            cits = result.answer.citations
            i = int(index)
            return quote_record(kind, result, cits[i], manifest) if i < len(cits) else None
        if target == "card":
            n = int(index)
            m = next((x for x in result.materials if x.n == n), None)
            if m is None:
                return None
            cits = [c for c in result.answer.panes.get(m.layer, []) if c.material == n]
            return card_record(kind, result, m, cits, manifest)
        return None

    def set_note(self, record_id: str, note: str) -> None:
        rec = self.store.set_note(record_id, note)
        said = self.tr("附注已保存：{what}") if rec.note else self.tr("已记下 {what}（无附注）")
        self.window.notify(said.format(what=describe(rec)))

    # -- export ----------------------------------------------------------------------------
    def export(self, path: str | Path) -> int | None:
        if not len(self.store):
            self.window.messages.info(self.tr("还没有反馈可导出：在答案的引文或材料卡片上点「有帮助」「不相关」「出处有误」"
                                              "即可记下。"), tag="feedback")
            return None
        try:
            n = self.store.export_jsonl(path)
        except OSError as exc:
            self.window.messages.error(self.tr("无法写入 {path}（{exc}）").format(path=path, exc=exc), tag="feedback")
            return None
        self.window.notify(self.tr("已导出 {n} 条反馈：{path}").format(n=n, path=path))
        self.exported.emit(str(path))
        return n

    def default_path(self) -> str:
        folder = self.window.userdata.get("export_dir", "") or str(Path.home())
        return str(Path(folder) / self.tr("南山问律反馈-{date}.jsonl").format(date=time.strftime('%Y%m%d')))

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self.window, self.tr("导出反馈"), self.default_path(),
                                              self.tr("JSON Lines (*.jsonl);;所有文件 (*)"))
        if path:
            self.window._save(self.window.userdata.set, "export_dir", str(Path(path).parent))
            self.export(path)
