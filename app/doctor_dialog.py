"""帮助 → 检查环境: `nanshan doctor`'s checks, plus the one only Qt can make (can the chosen fonts
draw the texts?), shown in a dialog the reader can copy from."""
from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QPushButton, QVBoxLayout

from nanshan_core.tools import doctor
from nanshan_core.tools.doctor import FAIL, OK, WARN, Finding

from . import fonts as fonts_mod
from .workers import Task

# Characters the reader must be able to draw: common text, a traditional form, an Ext-B one.
SAMPLE = "比丘波羅夷捉錢寶𫄨"


def font_finding() -> Finding:
    """Do the interface and text fonts draw CBETA's characters (Ext-B included)?"""
    chinese = set(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)) | \
        set(QFontDatabase.families(QFontDatabase.WritingSystem.TraditionalChinese))
    if not chinese:
        return Finding("中文字体", FAIL, "系统中没有能显示中文的字体",
                       "安装 Noto CJK（Debian/Ubuntu：sudo apt install fonts-noto-cjk；Windows/macOS 自带）")
    f = fonts_mod.fonts()
    missing = "".join(ch for ch in SAMPLE if not fonts_mod.drawable(ch))
    if missing:
        return Finding("中文字体", WARN, f"正文字体 {f.text} 缺字：{missing}（会显示为方框）",
                       "安装 Noto Serif CJK 或 TW-Kai 等收字较全的字体")
    return Finding("中文字体", OK, f"界面 {f.ui} · 正文 {f.text}（共 {len(chinese)} 种中文字体）")


class DoctorDialog(QDialog):
    finished_checks = Signal(list)            # the findings (tests)

    def __init__(self, session, runner, parent=None):
        super().__init__(parent)
        self.setWindowTitle("检查环境")
        self.resize(760, 420)
        self.session = session
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setPlainText("正在检查语料包、模型运行库与用户数据…")
        buttons = QDialogButtonBox()
        close = buttons.addButton("关闭", QDialogButtonBox.ButtonRole.RejectRole)
        close.setDefault(True)
        buttons.rejected.connect(self.reject)
        copy = QPushButton("复制报告")
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.report.toPlainText()))
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        lay = QVBoxLayout(self)
        lay.addWidget(self.report, 1)
        lay.addWidget(buttons)
        self.findings: list[Finding] = []
        runner.start(Task(doctor.run, str(session.pack.path), False, session.userdata), self._done,
                     lambda msg, exc: self.report.setPlainText(f"检查未能完成：{msg}"))

    def _done(self, findings: list[Finding]) -> None:
        self.findings = [font_finding()] + list(findings)
        self.report.setPlainText(doctor.format_findings(self.findings))
        self.finished_checks.emit(self.findings)


__all__ = ["DoctorDialog", "font_finding", "OK", "WARN", "FAIL"]
