"""Exporting the current answer as a class handout (文件 → 导出讲义): where the file
goes, when there is something to export, and printing the PDF off the GUI thread.

What a handout holds is handout.py's; this room only decides whether the window's
answer may leave it (a verified answer, never a refusal or a model's draft still
being written) and tells the reader where it went.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QFileDialog

from . import handout
from .workers import Runner, Task


class HandoutExport(QObject):
    exported = Signal(str)           # the path of a complete handout

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.runner = Runner(1, self)    # PDF printing, apart from the engine's worker

    def exportable(self) -> bool:
        w = self.window
        if w.generating:
            w.messages.error(self.tr("模型还在写答案：写完并经程序核验后才能导出。"))
            return False
        if w.result is None or w.result.refused:
            w.messages.error(self.tr("没有可导出的答案：请先提问（拒答的问题不能导出）。"))
            return False
        return True

    def export_html(self, path: str | Path) -> Path | None:
        if not self.exportable():
            return None
        w = self.window
        try:
            out = handout.export_html(w.result, w.session, path)
        except OSError as exc:
            w.messages.error(self.tr("无法写入 {path}（{exc}）").format(path=path, exc=exc))
            return None
        self._done(str(out))
        return out

    def export_pdf(self, path: str | Path) -> bool:
        """Print the handout in the export worker; ``exported`` fires when the file is complete."""
        if not self.exportable():
            return False
        w = self.window
        w.notify(self.tr("正在生成 PDF…"))
        task = Task(handout.export_pdf, w.result, w.session, str(path), w.fonts)
        self.runner.start(task, lambda out: self._done(str(out)),
                          lambda msg, exc: w.messages.error(self.tr("PDF 导出失败：{msg}").format(msg=msg)))
        return True

    def _done(self, path: str) -> None:
        self.window.notify(self.tr("讲义已导出：{path}").format(path=path))
        self.exported.emit(path)

    def suggested_name(self, suffix: str) -> str:
        """The question's first characters in the folder last exported to."""
        w = self.window
        q = (w.result.question if w.result else self.tr("答案"))[:20]
        safe = "".join(ch for ch in q if ch.isalnum()) or self.tr("答案")
        folder = w.userdata.get("export_dir", "") or str(Path.home())
        return str(Path(folder) / self.tr("南山问律讲义-{name}").format(name=safe + suffix))

    def html_dialog(self) -> None:
        self._dialog(self.tr("导出讲义（HTML）"), ".html", self.tr("网页 (*.html)"), self.export_html)

    def pdf_dialog(self) -> None:
        self._dialog(self.tr("导出讲义（PDF）"), ".pdf", "PDF (*.pdf)", self.export_pdf)

    def _dialog(self, title: str, suffix: str, kinds: str, export) -> None:
        if not self.exportable():
            return
        w = self.window
        path, _ = QFileDialog.getSaveFileName(w, title, self.suggested_name(suffix), kinds)
        if path:
            w._save(w.userdata.set, "export_dir", str(Path(path).parent))
            export(path)
