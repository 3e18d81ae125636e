"""First run: no corpus pack yet, so offer to build one from a CBETA folder.

The pack is built from the user's CBETA TEI P5 tree (found through
NANSHAN_CBETA_DIR or ../shared/cbeta beside the project, or chosen by hand)
in a worker thread, with a progress bar and Cancel.  Cancel raises
BuildCancelled inside the builder's progress callback; the builder then
removes its temporary directory, so a cancelled build leaves nothing behind.

Where the pack goes: running from a source checkout whose corpus_pack/
location is writable, the pack is built there — that is where the CLI, the
tests and run.sh look first, so one build serves them all.  A frozen app, or
a checkout the user cannot write to, builds into the per-user data directory
(paths.user_pack_dir), which default_pack_dir also finds.
"""
from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (QDialog, QFileDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton,
                               QVBoxLayout)

from nanshan_core.ask.engine import prepare_postings
from nanshan_core.corpus.build import build_pack
from nanshan_core.corpus.works import all_works
from nanshan_core.errors import BuildCancelled, CorpusError
from nanshan_core.i18n import localize
from nanshan_core.paths import bundled_pack_dir, find_cbeta, user_pack_dir

from .workers import Runner, Task

STAGES = {"parse": QT_TRANSLATE_NOOP("FirstRunDialog", "读取 XML"), "store": QT_TRANSLATE_NOOP("FirstRunDialog", "写入行表"),
          "index": QT_TRANSLATE_NOOP("FirstRunDialog", "建立索引")}
translate = QCoreApplication.translate


def pack_target() -> Path:
    """Where a first-run build writes the pack (see the module docstring)."""
    bundled = bundled_pack_dir()
    if not getattr(sys, "frozen", False) and os.access(bundled.parent, os.W_OK):
        return bundled
    return user_pack_dir()


def check_cbeta(folder: Path | None) -> str | None:
    """A message when ``folder`` cannot be a CBETA tree, before a build is even started."""
    if folder is None:
        return translate("FirstRunDialog", "没有找到 CBETA 目录。请点「选择文件夹…」指定 CBETA TEI P5 的根目录（其中有 T、X 子目录）。")
    if not folder.is_dir():
        return translate("FirstRunDialog", "CBETA 目录不存在：{folder}").format(folder=folder)
    if not ((folder / "T").is_dir() or (folder / "X").is_dir()):
        return translate("FirstRunDialog", "{folder} 不像 CBETA TEI P5 目录：其中应有 T 或 X 子目录"
                                           "（如 T/T22/T22n1428_001.xml）。").format(folder=folder)
    return None


class FirstRunDialog(QDialog):
    """Explains that there is no pack, and builds one."""

    def __init__(self, reason: str, out: Path | None = None, cbeta: Path | None = None, parent=None,
                 works: list[str] | str | None = None, intro: str | None = None):
        """``works``: the works to build (default: the default corpus; "all": the whole 律部 of the
        CBETA tree chosen); ``intro``: what the dialog says instead of 「还没有语料包」."""
        super().__init__(parent)
        self.setWindowTitle(self.tr("南山问律 · 生成语料包"))
        self.out = Path(out) if out else pack_target()
        self.cbeta = Path(cbeta) if cbeta else find_cbeta()
        self.works = works
        self.manifest: dict | None = None
        self._cancel = threading.Event()
        self.runner = Runner(1, self)
        intro = QLabel(intro or self.tr(
            "<p><b>还没有语料包。</b>南山问律只从 CBETA 原典作答，需要先把 CBETA 的 XML 文件"
            "整理成语料包（约 2 分钟，只需一次）。</p>"
            "<p><small>原因：{reason}</small></p>").format(reason=localize(reason)))
        intro.setWordWrap(True)
        self.cbeta_label = QLabel()
        self.cbeta_label.setWordWrap(True)
        self.out_label = QLabel(self.tr("语料包将生成到：{path}").format(path=self.out))
        self.out_label.setWordWrap(True)
        self.choose_button = QPushButton(self.tr("选择文件夹…"))
        self.choose_button.clicked.connect(self.choose_folder)
        self.build_button = QPushButton(self.tr("开始生成"))
        self.build_button.setDefault(True)
        self.build_button.clicked.connect(self.start_build)
        self.cancel_button = QPushButton(self.tr("取消"))
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QProgressBar()
        self.progress.setRange(0, 100)
        self.progress.hide()
        self.detail = QLabel()
        self.detail.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("inlineError")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        row = QHBoxLayout()
        row.addWidget(self.cbeta_label, 1)
        row.addWidget(self.choose_button)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.build_button)
        buttons.addWidget(self.cancel_button)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addLayout(row)
        lay.addWidget(self.out_label)
        lay.addWidget(self.progress)
        lay.addWidget(self.detail)
        lay.addWidget(self.status)
        lay.addLayout(buttons)
        self.resize(620, 300)
        self._show_cbeta()

    def _show_cbeta(self) -> None:
        if self.cbeta:
            self.cbeta_label.setText(self.tr("CBETA 目录：{path}").format(path=self.cbeta))
        else:
            self.cbeta_label.setText(self.tr("CBETA 目录：未找到（可设置 NANSHAN_CBETA_DIR，或选择文件夹）"))

    def set_cbeta(self, folder: Path | str | None) -> None:
        self.cbeta = Path(folder) if folder else None
        self.status.clear()
        self._show_cbeta()

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("选择 CBETA TEI P5 根目录（含 T、X 子目录）"),
                                                  str(self.cbeta or Path.home()))
        if folder:
            self.set_cbeta(folder)

    # -- building -----------------------------------------------------------------------------
    @property
    def building(self) -> bool:
        return self.runner.busy

    def start_build(self) -> None:
        problem = check_cbeta(self.cbeta)
        if problem:
            self.status.setText(problem)
            return
        self._cancel.clear()
        self.status.clear()
        self.progress.setValue(0)
        self.progress.show()
        self.build_button.setEnabled(False)
        self.choose_button.setEnabled(False)
        task = Task(self._build, self.cbeta, self.out, with_progress=True)
        self.runner.start(task, self._built, self._failed, self._progress)

    def _build(self, cbeta: Path, out: Path, progress):
        def report(stage, done, total, message):
            if self._cancel.is_set():
                raise BuildCancelled(self.tr("已取消生成语料包，没有留下不完整的文件。"))
            progress((stage, done, total, message))
        works = all_works(cbeta) if self.works == "all" else self.works
        manifest = build_pack(cbeta, out, works, progress=report)
        report("index", 1, 1, self.tr("正在准备常用词检索表……"))
        prepare_postings(out)
        return manifest

    def _progress(self, info) -> None:
        stage, done, total, message = info
        pct = int(100 * done / total) if total else 100
        # three stages share the bar: reading is quick, indexing is most of the time
        base, span = {"parse": (0, 10), "store": (10, 10), "index": (20, 80)}.get(stage, (0, 100))
        self.progress.setValue(base + span * pct // 100)
        self.progress.setFormat(f"{self.tr(STAGES.get(stage, stage))} {pct}%")
        self.detail.setText(localize(message))

    def _built(self, manifest: dict) -> None:
        self.manifest = manifest
        self.progress.setValue(100)
        self.accept()

    def _failed(self, message: str, exc) -> None:
        self.progress.hide()
        self.detail.clear()
        self.build_button.setEnabled(True)
        self.choose_button.setEnabled(True)
        if isinstance(exc, CorpusError):
            message = self.tr("CBETA 目录有问题：{message}").format(message=message)
        self.status.setText(localize(message))

    def cancel(self) -> None:
        """Cancel stops a running build (the dialog stays, to retry or close); otherwise closes."""
        if self.building:
            self._cancel.set()
            self.detail.setText(self.tr("正在取消…"))
        else:
            super().reject()

    def reject(self) -> None:      # Esc and the window's close button mean Cancel
        self.cancel()
