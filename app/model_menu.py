"""The 模型 menu and the small indicator in the status bar.

The menu is rebuilt each time it opens, so the list of files in the models
folder and the state of the model (none, loading, loaded, unavailable) are
never stale.  The folder's path is shown in the menu itself: the reader
needs to know where to put a .gguf for it to be listed.  The indicator
states in a few characters which model (if any) writes the answers, with
the full description in its tooltip, and opens the same menu.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt, QUrl, Signal
from PySide6.QtGui import QActionGroup, QDesktopServices
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QMenu, QProgressBar, QToolButton, QWidget)

from nanshan_core.ask import llm
from nanshan_core.i18n import localize

from .model_ctl import CONTEXT_CHOICES, INSTALL_HINT, TIMEOUT_CHOICES, UNAVAILABLE, ModelController

NO_MODEL = QT_TRANSLATE_NOOP("ModelMenu", "不用模型（摘录原文作答）")


def _hint(text: str) -> str:
    return QCoreApplication.translate("ModelController", text)


def short_info(info) -> str:
    return QCoreApplication.translate("ModelMenu", "{name} · 上下文 {n}").format(name=info.name, n=info.n_ctx)


class ModelMenu(QMenu):
    """模型: choose a file, pick one from the models folder, go without, and the settings."""

    message = Signal(str)      # something to tell the reader (the window shows it)

    def __init__(self, ctl: ModelController, parent=None):
        super().__init__(parent)
        self.setTitle(self.tr("模型"))
        self.ctl = ctl
        self.setToolTipsVisible(True)
        self.aboutToShow.connect(self.rebuild)
        ctl.changed.connect(lambda: None if self.isVisible() else self.rebuild())
        self.rebuild()

    def changeEvent(self, event):
        if event.type() == QEvent.Type.LanguageChange and not self.isVisible():
            self.rebuild()
        super().changeEvent(event)

    def rebuild(self) -> None:
        """All actions afresh from the controller's state (also what tests look at)."""
        for sub in self.findChildren(QMenu, options=Qt.FindChildOption.FindDirectChildrenOnly):
            sub.deleteLater()        # clear() leaves the submenus of the last build behind
        self.clear()
        ctl = self.ctl
        available = ctl.runtime is not False
        busy = ctl.busy
        status = self.addAction(self._status_text())
        status.setEnabled(False)
        if ctl.runtime is False:
            self.act_install = self.addAction(self.tr("如何安装模型运行库…"))
            self.act_install.triggered.connect(lambda: self.message.emit(_hint(INSTALL_HINT)))
        self.addSeparator()
        self.act_choose = self.addAction(self.tr("选择模型文件…"))
        self.act_choose.setToolTip(self.tr("选择本机上的 .gguf 模型文件；不会下载任何东西"))
        self.act_choose.triggered.connect(self.choose_file)
        self.act_choose.setEnabled(available and not busy)

        folder = llm.models_dir()
        self.addSection(self.tr("模型文件夹"))
        self.model_actions = []
        current = ctl.info.path if ctl.info else ctl.loading_path
        group = QActionGroup(self)
        for path in llm.list_models():
            act = self.addAction(path.name)
            act.setCheckable(True)
            act.setChecked(current is not None and Path(current) == path)
            act.setToolTip(str(path))
            act.setEnabled(available and not busy)
            act.triggered.connect(lambda _=False, p=str(path): self.ctl.load(p))
            group.addAction(act)
            self.model_actions.append(act)
        if not self.model_actions:
            empty = self.addAction(self.tr("（文件夹中还没有 .gguf 文件）"))
            empty.setEnabled(False)
        where = self.addAction(self.tr("放模型的文件夹：{folder}").format(folder=folder))
        where.setEnabled(False)
        self.act_open_folder = self.addAction(self.tr("打开模型文件夹"))
        self.act_open_folder.triggered.connect(self.open_folder)
        self.addSeparator()
        self.act_none = self.addAction(self.tr(NO_MODEL))
        self.act_none.setCheckable(True)
        self.act_none.setChecked(ctl.model is None and ctl.loading_path is None)
        self.act_none.setEnabled(not busy)
        self.act_none.triggered.connect(self._none)
        group.addAction(self.act_none)
        self.addSeparator()
        self._settings(busy)

    def _status_text(self) -> str:
        ctl = self.ctl
        if ctl.runtime is False:
            return _hint(UNAVAILABLE)
        if ctl.loading_path:
            return self.tr("正在加载：{name}…").format(name=Path(ctl.loading_path).name)
        if ctl.info:
            return self.tr("当前：{model}").format(model=localize(ctl.info.describe()))
        if ctl.runtime is None:
            return self.tr("正在检查模型运行库…")
        return self.tr("当前：{model}").format(model=self.tr(NO_MODEL))

    def _settings(self, busy: bool) -> None:
        info = self.ctl.info
        fmt_menu = self.addMenu(self.tr("对话格式（模型无内置模板时）"))
        fmt_menu.setToolTipsVisible(True)
        usable = info is not None and not info.has_template and not busy
        fmt_menu.setEnabled(usable)
        if info is not None and info.has_template:
            fmt_menu.setTitle(self.tr("对话格式：模型内置模板"))
        self.format_actions = self._choices(
            fmt_menu, llm.CHAT_FORMATS, str, lambda f: info is not None and info.chat_format == f,
            self.ctl.set_chat_format)
        self.ctx_actions = self._choices(
            self.addMenu(self.tr("上下文长度")), CONTEXT_CHOICES,
            lambda n: (self.tr("{n} 词元（默认）") if n == llm.DEFAULT_CTX else self.tr("{n} 词元")).format(n=n),
            lambda n: self.ctl.n_ctx == n, self.ctl.set_ctx, enabled=not busy)
        n = len(self.ctl.answers)
        self.act_clear_cache = self.addAction(self.tr("清除已缓存的模型回答（{n} 条）").format(n=n))
        self.act_clear_cache.setEnabled(n > 0 and not busy)
        self.act_clear_cache.triggered.connect(self.clear_answers)
        self.timeout_actions = self._choices(
            self.addMenu(self.tr("生成时限")), TIMEOUT_CHOICES,
            lambda s: (self.tr("{n} 秒（默认）") if s == llm.DEFAULT_TIMEOUT else self.tr("{n} 秒")).format(n=f"{s:.0f}"),
            lambda s: abs(self.ctl.timeout - s) < 0.01, self.ctl.set_timeout)

    @staticmethod
    def _choices(menu, values, label, checked, pick, enabled: bool = True) -> dict:
        """One exclusive, checkable action per value; returns value -> action (the tests press them)."""
        group = QActionGroup(menu)
        actions = {}
        for v in values:
            act = menu.addAction(label(v))
            act.setCheckable(True)
            act.setChecked(checked(v))
            act.setEnabled(enabled)
            act.triggered.connect(lambda _=False, v=v: pick(v))
            group.addAction(act)
            actions[v] = act
        return actions

    # -- actions ---------------------------------------------------------------------------------
    def clear_answers(self) -> None:
        try:
            n = self.ctl.answers.clear()
        except OSError as exc:
            self.message.emit(self.tr("未能清除模型回答缓存（{exc}）。").format(exc=exc))
            return
        self.message.emit(self.tr("已清除 {n} 条缓存的模型回答。").format(n=n))
        self.rebuild()

    def choose_file(self) -> None:
        start = self.ctl.userdata.get("model_dir", "") or str(llm.models_dir() if llm.models_dir().is_dir()
                                                           else Path.home())
        path, _ = QFileDialog.getOpenFileName(self.parentWidget(), self.tr("选择模型文件"), start,
                                              self.tr("GGUF 模型 (*.gguf);;所有文件 (*)"))
        if not path:
            return
        try:
            self.ctl.userdata.set("model_dir", str(Path(path).parent))
        except OSError:
            pass                    # only a convenience for the next dialog
        self.ctl.load(path)

    def open_folder(self) -> None:
        folder = llm.models_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.message.emit(self.tr("无法创建模型文件夹 {folder}（{exc}）").format(folder=folder, exc=exc))
            return
        if not QDesktopServices.openUrl(QUrl.fromLocalFile(str(folder))):
            self.message.emit(self.tr("请把 .gguf 文件放到：{folder}").format(folder=folder))

    def _none(self) -> None:
        if self.ctl.unload():
            self.message.emit(self.tr("已改为不用模型：答案由程序从原文摘录。"))


class ModelIndicator(QWidget):
    """「模型：…」 in the status bar, a spinner while loading; a click opens the 模型 menu."""

    def __init__(self, ctl: ModelController, menu: QMenu, parent=None):
        super().__init__(parent)
        self.ctl = ctl
        self.button = QToolButton()
        self.button.setObjectName("modelIndicator")
        self.button.setAutoRaise(True)
        self.button.setMenu(menu)
        self.button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.button.setStyleSheet("QToolButton#modelIndicator { padding-right: 14px; }")   # room for the arrow
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)           # indeterminate: llama.cpp reports no progress we could trust
        self.progress.setMaximumWidth(80)
        self.progress.setMaximumHeight(12)
        self.progress.setTextVisible(False)
        self.progress.hide()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 4, 0)
        lay.setSpacing(4)
        lay.addWidget(self.progress)
        lay.addWidget(self.button)
        ctl.changed.connect(self.refresh)
        self.refresh()

    def text(self) -> str:
        return self.button.text()

    def changeEvent(self, event):
        if event.type() == QEvent.Type.LanguageChange:
            self.refresh()
        super().changeEvent(event)

    def refresh(self) -> None:
        ctl = self.ctl
        self.progress.setVisible(ctl.loading_path is not None)
        if ctl.runtime is False:
            text, tip = self.tr("模型：不可用"), f"{_hint(UNAVAILABLE)}。{_hint(INSTALL_HINT)}"
        elif ctl.loading_path:
            text, tip = self.tr("模型：正在加载 {name}…").format(name=Path(ctl.loading_path).name), ctl.loading_path
        elif ctl.info:
            text = self.tr("模型：{model}").format(model=short_info(ctl.info))
            tip = f"{localize(ctl.info.describe())}\n{ctl.info.path}\n" + self.tr("模型只组织语言；每条引文与坐标都由程序核验。")
        else:
            text, tip = self.tr("模型：无"), self.tr("不用模型：答案由程序从原文摘录。点此选择本地 .gguf 模型。")
        self.button.setText(text)
        self.button.setToolTip(tip)
