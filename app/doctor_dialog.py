"""帮助 → 检查环境: `nanshan doctor`'s checks, plus the one only Qt can make (can the chosen fonts
draw the texts?), shown in a dialog the reader can copy from."""
from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QEvent, Signal
from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QPushButton, QVBoxLayout

from nanshan_core.i18n import localize
from nanshan_core.tools import doctor
from nanshan_core.tools.doctor import FAIL, OK, WARN, Finding

from . import fonts as fonts_mod
from .workers import Task

# Characters the reader must be able to draw: common text, a traditional form, an Ext-B one.
SAMPLE = "比丘波羅夷捉錢寶𫄨"
translate = QCoreApplication.translate


def font_finding() -> Finding:
    """Do the interface and text fonts draw CBETA's characters (Ext-B included)?"""
    chinese = set(QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)) | \
        set(QFontDatabase.families(QFontDatabase.WritingSystem.TraditionalChinese))
    if not chinese:
        return Finding(translate("doctor", "中文字体"), FAIL, translate("doctor", "系统中没有能显示中文的字体"),
                       translate("doctor", "安装 Noto CJK（Debian/Ubuntu：sudo apt install fonts-noto-cjk；"
                                           "Windows/macOS 自带）"))
    f = fonts_mod.fonts()
    missing = "".join(ch for ch in SAMPLE if not fonts_mod.drawable(ch))
    if missing:
        return Finding(translate("doctor", "中文字体"), WARN,
                       translate("doctor", "正文字体 {font} 缺字：{missing}（会显示为方框）").format(font=f.text, missing=missing),
                       translate("doctor", "安装 Noto Serif CJK 或 TW-Kai 等收字较全的字体"))
    return Finding(translate("doctor", "中文字体"), OK,
                   translate("doctor", "界面 {ui} · 正文 {text}（共 {n} 种中文字体）").format(ui=f.ui, text=f.text,
                                                                                   n=len(chinese)))


class DoctorDialog(QDialog):
    finished_checks = Signal(list)            # the findings (tests)

    def __init__(self, session, runner, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("检查环境"))
        self.resize(760, 420)
        self.session = session
        self.report = QPlainTextEdit()
        self.report.setReadOnly(True)
        self.report.setPlainText(self.tr("正在检查语料包、模型运行库与用户数据…"))
        buttons = QDialogButtonBox()
        close = buttons.addButton(self.tr("关闭"), QDialogButtonBox.ButtonRole.RejectRole)
        close.setDefault(True)
        buttons.rejected.connect(self.reject)
        copy = QPushButton(self.tr("复制报告"))
        copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.report.toPlainText()))
        buttons.addButton(copy, QDialogButtonBox.ButtonRole.ActionRole)
        lay = QVBoxLayout(self)
        lay.addWidget(self.report, 1)
        lay.addWidget(buttons)
        self.findings: list[Finding] = []
        runner.start(Task(doctor.run, str(session.pack.path), False, session.userdata), self._done,
                     lambda msg, exc: self.report.setPlainText(self.tr("检查未能完成：{msg}").format(msg=localize(msg))))

    def _done(self, findings: list[Finding]) -> None:
        self.findings = [font_finding()] + list(findings)
        self.report.setPlainText(localize(doctor.format_findings(self.findings)))
        self.finished_checks.emit(self.findings)

    def changeEvent(self, event):
        """The report is the engine's text, localized when shown: shown again after a switch."""
        if event.type() == QEvent.Type.LanguageChange and self.findings:
            self.findings[0] = font_finding()          # ours, made through the translator
            self.report.setPlainText(localize(doctor.format_findings(self.findings)))
        super().changeEvent(event)


__all__ = ["DoctorDialog", "font_finding", "OK", "WARN", "FAIL"]
