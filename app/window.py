"""The main window: ask, see the three layers, open any coordinate in the reader.

Layout: a message line on top (errors and notices, in the window), then tabs —
the first, 问答, holds the question box, the term chips, the answer and the
three panes 律本 / 道宣 / 元照 side by side; every other tab is a fascicle in
the reader.  A toolbar carries the jump box.  Questions run in the engine's
single worker thread (the engine is read-only and thread-safe, one thread
keeps answers in the order they were asked); the window stays live.

With a local model loaded (模型 menu, model_ctl.py), the model's answer is
written in that same thread, after the pack's warm-up, and streams into the
answer view token by token — grey, headed 「模型生成中（未核验）」, with no
link in it — until step D's verified answer replaces it.  Only the verified
result is ever kept in ``self.result``, so only it can be copied or exported.
"""
from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (QApplication, QLabel, QLineEdit, QMainWindow,
                               QPushButton, QSplitter, QTabWidget, QToolBar, QVBoxLayout, QWidget)

from nanshan_core.ask import llm
from nanshan_core.ask.engine import check_question
from nanshan_core.errors import NanshanError, QuestionError
from nanshan_core.i18n import localize

from . import answer_html as ah
from . import i18n, welcome
from .about_dialog import AboutDialog
from .bookmarks import BookmarksDock
from .citations import cbeta_citation
from .feedback import FeedbackController
from .handout_export import HandoutExport
from .library import LibraryDock
from .message_bar import MessageBar
from .model_ctl import ModelController
from .model_menu import ModelIndicator, ModelMenu
from .pack_choice import PackMenu
from .panes import PANE_LAYERS, TextPane, make_pane
from .question_bar import QuestionBar
from .reader import ReaderTab
from .reader_tabs import ReaderTabs
from .search_tab import SearchTab
from .term_chips import TermChips
from .theme import DEFAULT_THEME, PRESENTATION_THEME, apply_theme, palette
from .workers import Runner, Task

BASE_TEXT_PT = 12.5
READER_FACTOR = 1.2
PRESENTATION_ZOOM = 1.6
SCALE_STEP = 0.1
SCALE_MIN, SCALE_MAX = 0.6, 3.0
CLOSE_WAIT_MS = 3000
PANE_SIZES = [260, 520]          # answer above, the layers' cards below
JUMP_PLACEHOLDER = QT_TRANSLATE_NOOP("MainWindow", "坐标或引用，如 T40n1805_p0345b14、大正藏 40 345b14")


def model_status(model: dict | None) -> str:
    """Who wrote the answer shown, for the status line."""
    if not model:
        return ""
    if model.get("set_aside"):        # QCoreApplication.translate spelt out: lupdate reads tr(a, b) as source a
        return QCoreApplication.translate("MainWindow", " · 模型草稿未采用，程序摘录作答")
    if model.get("cached"):
        return QCoreApplication.translate("MainWindow", " · 模型作答（已缓存），程序重新核验")
    return QCoreApplication.translate("MainWindow", " · 模型作答，程序核验")


class MainWindow(QMainWindow):
    resultShown = Signal(object)
    askFailed = Signal(str)
    readyChanged = Signal(bool)
    linePainted = Signal(str)          # a reader has painted its target line (benches and tests)
    tokenShown = Signal(str)           # a streamed piece of a model's answer is on screen (tests)

    def __init__(self, session, fonts, parent=None, model_path: str | None = None, autoload_model: bool = True):
        super().__init__(parent)
        self.session = session
        self.userdata = session.userdata
        self.fonts = fonts
        self.setWindowTitle(self.tr("南山问律"))
        self.runner = Runner(1, self)          # engine work, in order
        self.prefetch_runner = Runner(1, self)  # reading ahead the fascicles an answer cites
        self.result = None
        self.show_draft = False
        self._pane_sizes = list(PANE_SIZES)
        self._asked: tuple = (None, None)     # the terms and topics the last model question was asked with
        self.ready = False
        self.pack_error: str | None = None
        self.warm_ms: float | None = None
        self._request = 0
        self._asking, self._asked_text = False, ""
        self._generating = False           # a model is writing the answer now
        self._cancel = threading.Event()
        self._stream: list[str] = []       # what the model has written so far (unverified)
        self.presenting = False
        self._before_presentation: dict = {}
        self.theme = palette(self.userdata.get("theme", DEFAULT_THEME)).name
        self.font_scale = float(self.userdata.get("font_scale", 1.0) or 1.0)
        self.session.forms          # decided here, in the GUI thread, where fonts may be asked
        self.model_ctl = ModelController(self.userdata, self)
        self.handouts = HandoutExport(self)    # 文件 → 导出讲义 (handout_export.py)
        self._build_ui()
        self._build_actions()
        self._restore_geometry()
        apply_theme(QApplication.instance(), self.theme)
        self.apply_fonts()
        if self.userdata.messages:
            self.messages.error("\n".join(self.userdata.messages), tag="userdata")
        self.feedback = FeedbackController(self)      # 有帮助 / 不相关 / 出处有误 (app/feedback.py)
        self.question_bar.set_history(self.userdata.history)
        self.question_bar.set_text(self.userdata.get("draft_question", "") or "")
        self._warm_up()
        self.model_ctl.start(model_path, autoload_model)

    # == building ==========================================================================
    def _build_ui(self) -> None:
        self.messages = MessageBar()
        self.ask_page = self._build_ask_page()
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.setTabsClosable(True)
        self.tabs.addTab(self.ask_page, self.tr("问答"))
        self.tabs.tabBar().setTabButton(0, self.tabs.tabBar().ButtonPosition.RightSide, None)
        self.search_tab = SearchTab(self.session, self.runner)
        self.search_tab.openRequested.connect(lambda coord, phrase: self.reader_tabs.open_finding(coord, phrase))
        self.search_tab.error.connect(lambda text: self.messages.error(text, tag="search"))
        self.search_tab.message.connect(self.notify)
        self.tabs.addTab(self.search_tab, self.tr("检索"))
        self.tabs.tabBar().setTabButton(1, self.tabs.tabBar().ButtonPosition.RightSide, None)
        self.reader_tabs = ReaderTabs(self)    # the fascicles open beside 问答 and 检索
        central = QWidget()
        cl = QVBoxLayout(central)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.setSpacing(0)
        cl.addWidget(self.messages)
        cl.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.bookmarks = BookmarksDock(self.userdata, self)
        self.bookmarks.openRequested.connect(self.open_coord)
        self.bookmarks.error.connect(self.messages.error)
        self.bookmarks.saved.connect(lambda path: self.notify(self.tr("书签与历史已另存：{path}").format(path=path)))
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.bookmarks)
        self.bookmarks.hide()
        self.library = LibraryDock(self.session.pack, self)
        self.library.openRequested.connect(self.open_coord)
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.library)
        self.library.setVisible(bool(self.userdata.get("show_library", True)))
        self._build_toolbar()
        self.status_label = QLabel()
        self.model_menu = ModelMenu(self.model_ctl, self)
        self.model_menu.message.connect(lambda text: self.messages.info(text, tag="model"))
        self.model_indicator = ModelIndicator(self.model_ctl, self.model_menu)
        self.statusBar().addPermanentWidget(self.model_indicator)
        self.statusBar().addPermanentWidget(self.status_label)
        self.model_ctl.loading.connect(self._model_loading)
        self.model_ctl.loaded.connect(self._model_loaded)
        self.model_ctl.failed.connect(lambda text: self.messages.error(text, tag="model"))

    def _build_ask_page(self) -> QWidget:
        """Question, terms, answer, and the three layers side by side under it."""
        self.question_bar = QuestionBar()
        self.question_bar.askRequested.connect(lambda q: self.ask(q))
        self.question_bar.stopRequested.connect(self.stop_generation)
        self.chips = TermChips()
        self.chips.reaskRequested.connect(self.reask)
        self.chips.message.connect(self.notify)
        self.answer_view = TextPane()
        self.answer_view.setObjectName("answerView")
        self.answer_view.linkActivated.connect(self.handle_link)
        self.panes = {layer: make_pane(layer) for layer in PANE_LAYERS}   # 其他 shows only when it holds the best
        layers = QSplitter(Qt.Orientation.Horizontal)
        for pane in self.panes.values():
            pane.view.linkActivated.connect(self.handle_link)
            layers.addWidget(pane)
        self.layer_splitter = layers
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.answer_view)
        split.addWidget(layers)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 5)
        split.setSizes(PANE_SIZES)
        self.content_splitter = split
        self._show_current()             # the first screen: examples, history, how to read a coordinate
        page = QWidget()
        lay = QVBoxLayout(page)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.question_bar)
        lay.addWidget(self.chips)
        lay.addWidget(split, 1)
        return page

    def _build_toolbar(self) -> None:
        self.jump_edit = QLineEdit()
        self.jump_edit.setPlaceholderText(self.tr(JUMP_PLACEHOLDER))
        self.jump_edit.setClearButtonEnabled(True)
        self.jump_edit.setMinimumWidth(300)
        self.jump_edit.setMaximumWidth(460)
        self.jump_edit.returnPressed.connect(self.jump)
        jump_button = QPushButton(self.tr("跳转"))
        jump_button.clicked.connect(self.jump)
        self.toolbar = QToolBar(self.tr("工具栏"))
        self.toolbar.setObjectName("mainToolbar")
        self.toolbar.setMovable(False)
        self.toolbar.addWidget(QLabel(self.tr(" 跳到：")))
        self.toolbar.addWidget(self.jump_edit)
        self.toolbar.addWidget(jump_button)
        self.toolbar.addSeparator()
        self.addToolBar(self.toolbar)

    def _action(self, text: str, slot, shortcuts=(), checkable=False, tip: str = "") -> QAction:
        act = QAction(text, self)
        act.setCheckable(checkable)
        keys: list[QKeySequence] = []
        for spec in shortcuts:       # a key bound twice would be "ambiguous" and do nothing
            seq = QKeySequence(spec)
            if not seq.isEmpty() and seq not in keys:
                keys.append(seq)
        if keys:
            act.setShortcuts(keys)
        if tip:
            act.setToolTip(tip)
            act.setStatusTip(tip)
        (act.toggled if checkable else act.triggered).connect(slot)
        self.addAction(act)      # shortcuts keep working while menus and toolbars are hidden
        return act

    def _build_actions(self) -> None:
        self.act_export_html = self._action(self.tr("导出讲义（HTML）…"), self.handouts.html_dialog,
                                            tip=self.tr("把当前答案连同全部引文与坐标存为网页"))
        self.act_export_pdf = self._action(self.tr("导出讲义（PDF）…"), self.handouts.pdf_dialog,
                                           tip=self.tr("把当前答案连同全部引文与坐标存为 PDF"))
        self.act_export_feedback = self._action(self.tr("导出反馈…"), lambda: self.feedback.export_dialog(),
                                                tip=self.tr("把在引文与卡片上记下的反馈存为 JSONL，可交给老师或维护者"))
        self.act_quit = self._action(self.tr("退出"), self.close, [QKeySequence.StandardKey.Quit])
        self.act_zoom_in = self._action(self.tr("放大字号"), self.zoom_in,
                                        ["Ctrl+=", "Ctrl++", QKeySequence.StandardKey.ZoomIn])
        self.act_zoom_out = self._action(self.tr("缩小字号"), self.zoom_out, ["Ctrl+-", QKeySequence.StandardKey.ZoomOut])
        self.act_zoom_reset = self._action(self.tr("复原字号"), self.zoom_reset, ["Ctrl+0"])
        self.act_present = self._action(self.tr("演示模式"), self.set_presentation, ["F11"], checkable=True,
                                        tip=self.tr("全屏、大字、高对比度，三层并排；Esc 退出"))
        # one Esc for both: two actions on one key would be "ambiguous" and neither would fire
        self.act_leave = self._action(self.tr("停止生成／退出演示模式"), self._escape, ["Esc"])
        self.act_leave.setEnabled(False)
        self.act_contrast = self._action(self.tr("高对比度"), self._contrast_toggled, checkable=True)
        self.act_contrast.setChecked(self.theme == "high_contrast")
        self.act_bookmarks = self.bookmarks.toggleViewAction()
        self.act_bookmarks.setText(self.tr("书签"))
        self.act_bookmarks.setShortcut(QKeySequence("Ctrl+B"))
        self.addAction(self.act_bookmarks)
        self.act_jump = self._action(self.tr("跳到坐标"), self._focus_jump, ["Ctrl+G"])
        self.act_library = self.library.toggleViewAction()
        self.act_library.setText(self.tr("书库"))
        self.addAction(self.act_library)
        self.act_library_filter = self._action(self.tr("筛选书库"), self.library.focus_filter, ["Ctrl+L"])
        self.act_search = self._action(self.tr("原文检索"), self.focus_search, ["Ctrl+Shift+F"])
        self.act_about = self._action(self.tr("关于南山问律"), self.about)
        self.act_doctor = self._action(self.tr("检查环境…"), self.check_environment,
                                       tip=self.tr("检查语料包、字体、模型运行库与用户数据，并说明如何处理"))
        for act in (self.act_export_html, self.act_export_pdf):
            act.setEnabled(False)
        m = self.menuBar().addMenu(self.tr("文件"))
        m.addActions([self.act_export_html, self.act_export_pdf, self.act_export_feedback])
        m.addSeparator()
        self.pack_menu = PackMenu(self)          # 默认 / 全部律部 (app/pack_choice.py)
        m.addMenu(self.pack_menu)
        m.addSeparator()
        m.addAction(self.act_quit)
        v = self.menuBar().addMenu(self.tr("视图"))
        v.addActions([self.act_zoom_in, self.act_zoom_out, self.act_zoom_reset])
        v.addSeparator()
        v.addActions([self.act_present, self.act_contrast, self.act_bookmarks, self.act_library,
                      self.act_library_filter, self.act_search, self.act_jump])
        i18n.add_language_menu(self, v)
        self.menuBar().addMenu(self.model_menu)
        help_menu = self.menuBar().addMenu(self.tr("帮助"))
        help_menu.addAction(self.act_doctor)
        help_menu.addAction(self.act_about)
        self.toolbar.addAction(self.act_bookmarks)
        self.toolbar.addAction(self.act_export_html)
        self.toolbar.addAction(self.act_export_pdf)
        self.toolbar.addSeparator()
        self.toolbar.addAction(self.act_zoom_out)
        self.toolbar.addAction(self.act_zoom_in)
        self.toolbar.addAction(self.act_present)
        self.act_zoom_out.setIconText("A−")
        self.act_zoom_in.setIconText("A＋")

    def _restore_geometry(self) -> None:
        geo = self.userdata.get("geometry", "")
        if geo:
            try:
                self.restoreGeometry(QByteArray.fromBase64(geo.encode("ascii")))
                return
            except (AttributeError, ValueError):
                pass
        self.resize(1400, 900)

    # == small services ===================================================================
    def pal(self):
        return palette(PRESENTATION_THEME if self.presenting else self.theme)

    def notify(self, text: str) -> None:
        """A passing notice: the status bar, or the message line when the status bar is hidden."""
        if not text:
            return
        if self.statusBar().isVisible():
            self.statusBar().showMessage(text, 6000)
        else:
            self.messages.info(text)

    def _save(self, fn, *args) -> bool:
        """Write user data; a disk problem becomes a message and the in-memory data stays."""
        try:
            fn(*args)
            return True
        except OSError as exc:
            self.messages.error(self.tr("无法保存用户数据（{exc}）。已输入的内容仍在窗口中；可在书签栏点「另存…」"
                                        "存到其他位置，或检查磁盘后再试。").format(exc=exc))
            return False

    def _warm_up(self) -> None:
        self.question_bar.set_busy(True, self.tr("正在校验语料包…"))
        self.runner.start(Task(self.session.warm_up), self._warmed, self._warm_failed)

    def _warmed(self, ms: float) -> None:
        self.ready, self.warm_ms = True, ms
        if not self._asking:
            self.question_bar.set_busy(False)
        self.readyChanged.emit(True)

    def _warm_failed(self, message: str, _exc) -> None:
        self.pack_error = message
        self.question_bar.set_busy(False)
        self.question_bar.ask_button.setEnabled(False)
        self.messages.error(message, tag="pack")
        self.readyChanged.emit(False)

    # == asking ===============================================================================
    def ask(self, question: str | None = None, terms: list[str] | None = None,
            topics: list[str] | None = None, regenerate: bool = False) -> bool:
        """Ask in the worker; False (with a message in the window) when the question cannot be asked.
        ``topics``: the reader chose what the question is about (a 「您是否想问」 link).
        ``regenerate``: a model answers anew even if it has answered this before."""
        q = self.question_bar.text() if question is None else question
        try:
            q = check_question(q)
        except QuestionError as exc:
            self.messages.error(str(exc), tag="ask")
            return False
        if self.pack_error:
            self.messages.error(self.pack_error, tag="pack")
            return False
        if self._asking:
            # the same question already on its way (an editable combo box delivers one Enter
            # twice) needs no message; another question waits for this one
            if q != self._asked_text or terms is not None or topics is not None:
                self.notify(self.tr("上一个问题还在检索中，请稍候。"))
            return False
        if terms is not None and not [t for t in terms if t.strip()]:
            self.messages.error(self.tr("请至少保留一个检索用语，或直接重新提问让程序选词。"), tag="ask")
            return False
        if question is not None:
            self.question_bar.set_text(q)
        self._save(self.userdata.add_history, q)
        self.question_bar.set_history(self.userdata.history)
        self._request += 1
        rid = self._request
        self._asking, self._asked_text = True, q
        self.messages.clear("ask")
        fresh = terms is None
        model = self.model_ctl.usable()
        if model is not None:
            self._start_generation(rid, q, terms, model, topics, regenerate)
            return True
        if self.model_ctl.loading_path:
            self.notify(self.tr("模型还在加载：这一问由程序摘录原文作答。"))
        self.question_bar.set_busy(True, self.tr("正在检索…"))
        self.runner.start(Task(self.session.engine.ask, q, terms, None, topics),
                          lambda r: self._answered(rid, r, fresh),
                          lambda msg, exc: self._ask_failed(rid, msg))
        return True

    # -- with a model: streamed, then verified ---------------------------------------------------
    def _start_generation(self, rid: int, question: str, terms: list[str] | None, model,
                          topics: list[str] | None = None, regenerate: bool = False) -> None:
        """The model writes in the engine's thread (after the pack's warm-up, one at a time);
        its tokens stream into the answer view as an unverified draft."""
        self._generating = True
        self.model_ctl.generating = True          # no loading or dropping a model under it
        self.model_ctl.changed.emit()
        self._cancel = threading.Event()
        self._stream = []
        status = self.tr("模型选词、检索、阅读材料…") if terms is None else self.tr("检索、模型阅读材料…")
        self.question_bar.set_busy(True, status, stoppable=True)
        self.answer_view.begin_provisional(ah.provisional_html("", self.pal()))
        self._show_panes(True)
        for pane in self.panes.values():
            pane.clear(self.tr("模型写完、程序核验之后，这里显示材料与引文。"))
        if terms is None:            # the last question's terms would pass for this one's
            self.chips.reset()
        else:
            self.chips.set_enabled(False)
        self.status_label.setText(self.tr("模型作答中…"))
        for act in (self.act_export_html, self.act_export_pdf):
            act.setEnabled(False)
        self._update_escape()
        task = Task(llm.ask_with_model, self.session.engine, question, model, terms=terms,
                    cancel=self._cancel, timeout=self.model_ctl.timeout, stream=True, topics=topics,
                    cache=self.model_ctl.answers, regenerate=regenerate)
        self._asked = (terms, topics)
        self.runner.start(task, lambda r: self._answered(rid, r, terms is None),
                          lambda msg, exc: self._ask_failed(rid, msg),
                          on_token=lambda text: self._token(rid, text))

    def _token(self, rid: int, text: str) -> None:
        if rid != self._request or not self._generating:
            return
        if not self._stream:
            self.question_bar.set_status(self.tr("模型生成中…（Esc 停止）"))
        self._stream.append(text)
        self.answer_view.append_provisional(text, self.pal().muted)
        self.tokenShown.emit(text)

    def stop_generation(self) -> bool:
        """停止 / Esc: the model stops at its next token; what it wrote is verified and shown."""
        if not self._generating:
            return False
        self._cancel.set()
        self.question_bar.stop_button.setEnabled(False)
        self.question_bar.set_status(self.tr("正在停止…"))
        return True

    @property
    def generating(self) -> bool:
        return self._generating

    def _end_generation(self) -> bool:
        if not self._generating:
            return False
        self._generating = False
        self.model_ctl.generating = False
        self.model_ctl.changed.emit()
        self._stream = []
        self.answer_view.end_provisional()
        self._update_escape()
        return True

    def _escape(self) -> None:
        """Esc leaves presentation mode first (as documented); otherwise it stops the model."""
        if self.presenting:
            self.set_presentation(False)
        elif self._generating:
            self.stop_generation()

    def _update_escape(self) -> None:
        self.act_leave.setEnabled(self.presenting or self._generating)

    def _model_loading(self, path: str) -> None:
        self.notify(self.tr("正在加载模型 {name}…").format(name=Path(path).name))

    def _model_loaded(self, info) -> None:
        self.messages.clear("model")
        self.notify(self.tr("模型已加载：{model}（用时 {seconds} 秒）").format(model=localize(info.describe()),
                                                                         seconds=f"{info.load_s:.1f}"))

    def _model_notes(self, result) -> None:
        """Why a model's answer is shorter or different than asked for, in the message line."""
        if not result.model:
            return
        bits = list(result.notes)
        rejected = list(dict.fromkeys(t for t in result.model.get("rejected_terms") or [] if t.strip()))
        if rejected:
            bits.append(self.tr("模型提议的{terms}在语料中没有出现，已舍弃。").format(terms="、".join(f"「{t}」" for t in rejected)))
        if bits:
            self.messages.info(" ".join(bits), tag="ask")

    def reask(self, terms: list[str]) -> None:
        if self.result is None:
            return
        self.ask(self.result.question, terms)

    def _answered(self, rid: int, result, fresh: bool) -> None:
        self._end_generation()
        if rid != self._request:
            return
        self._asking = False
        self.question_bar.set_busy(False)
        self.show_result(result, fresh)
        self._model_notes(result)

    def _ask_failed(self, rid: int, message: str) -> None:
        streamed = self._end_generation()
        if rid != self._request:
            return
        self._asking = False
        self.question_bar.set_busy(False)
        if streamed:                 # the draft goes; what was shown before comes back
            self._show_current()
            if self.result is not None:
                self.chips.set_selection(self.result.selection, False)
            for act in (self.act_export_html, self.act_export_pdf):
                act.setEnabled(self.result is not None and not self.result.refused)
            self.status_label.clear()
        self.messages.error(message, tag="ask")
        self.askFailed.emit(message)

    def _show_panes(self, on: bool) -> None:
        """The first screen has the whole page (empty panes would only push it aside); the panes
        come back at the height they had, never at the zero a hidden splitter child is left with."""
        if on == self.layer_splitter.isVisibleTo(self.content_splitter):
            return
        if not on and self.content_splitter.sizes()[1] > 0:
            self._pane_sizes = self.content_splitter.sizes()
        self.layer_splitter.setVisible(on)
        if on:
            self.content_splitter.setSizes(self._pane_sizes)

    def _show_current(self) -> None:
        self._show_panes(self.result is not None)
        if self.result is None:
            self.answer_view.setHtml(welcome.welcome_html(self.userdata.history, self.pal()))
        elif self.result.refused:
            self.answer_view.setHtml(ah.refusal_html(self.result, self.pal()))
        else:
            self._render_result()

    def show_result(self, result, fresh: bool = True) -> None:
        self.result = result
        self._show_panes(True)
        self.show_draft = False            # a set-aside draft starts folded away
        self.chips.set_selection(result.selection, fresh)
        self.tabs.setCurrentWidget(self.ask_page)
        refused = result.refused
        for act in (self.act_export_html, self.act_export_pdf):
            act.setEnabled(not refused)
        if refused:
            self.answer_view.setHtml(ah.refusal_html(result, self.pal()))
            for pane in self.panes.values():
                pane.clear(self.tr("此问不作回答。"))
            self.status_label.setText(self.tr("类别：超范围 · 拒答"))
        else:
            self._render_result()
            self._prefetch(result)
            t = result.timing_ms
            self.status_label.setText(self.tr("类别：{category} · {n} 条材料 · 用时 {ms} ms{model}").format(
                category=localize(result.selection.category), n=len(result.materials), ms=f"{sum(t.values()):.0f}",
                model=model_status(result.model)))
        self.resultShown.emit(result)

    def _prefetch(self, result) -> None:
        cits = [c for cs in result.answer.panes.values() for c in cs] + list(result.answer.citations)
        wanted = [c.coord for c in cits if c.coord] + [m.start_coord for m in result.materials]
        self.prefetch_runner.start(Task(self.session.prefetch, wanted))

    def _render_result(self, focus: int | None = None) -> None:
        r, pal = self.result, self.pal()
        self.answer_view.setHtml(ah.answer_html(r, self.session.forms, pal, self.show_draft))
        for layer, pane in self.panes.items():
            mats = [m for m in r.materials if m.layer == layer]
            pane.show_materials(mats, r.answer.panes.get(layer, []), r.selection.texts, self.session, pal,
                                focus if focus is not None and pane.has_material(focus) else None)

    # == links ================================================================================
    def handle_link(self, kind: str, value: str) -> None:
        if kind == "coord":
            self.open_coord(value)
        elif kind == "mat":
            self.show_material(int(value))
        elif kind == "copy":
            n, _, k = value.partition(".")
            pane = next((p for p in self.panes.values() if p.citation(int(n), int(k)) is not None), None)
            if pane:
                self.copy_citation(pane.citation(int(n), int(k)))
        elif kind == "copyanswer" and self.result is not None:
            self.copy_citation(self.result.answer.citations[int(value)])
        elif kind == "topic" and self.result is not None:
            self.ask(self.result.question, topics=[value])
        elif kind == "ask":
            self.ask(value)
        elif kind == "regen" and self.result is not None:
            terms, topics = self._asked
            self.ask(self.result.question, terms, topics, regenerate=True)
        elif kind == "draft" and self.result is not None:
            self.show_draft = not self.show_draft
            self._render_result()
        elif kind == "fb":
            self.feedback.handle(value)

    def show_material(self, n: int) -> bool:
        self.tabs.setCurrentWidget(self.ask_page)
        for pane in self.panes.values():
            if pane.has_material(n):
                pane.focus_material(n, self.pal())
                return True
        self.notify(self.tr("没有材料{n}").format(n=n))
        return False

    def copy_citation(self, c) -> str:
        r = None
        if c.coord and c.coord.startswith("X"):
            try:
                r = self.session.pack.line(c.coord).r
            except NanshanError:
                r = None
        text = cbeta_citation(c.quote, c.coord, c.level, r)
        QApplication.clipboard().setText(text)
        self.notify(self.tr("已复制：{text}").format(text=f"{text[:60]}{'…' if len(text) > 60 else ''}"))
        return text

    # == the reader (reader_tabs.py) ===========================================================
    def open_coord(self, text: str) -> str | None:
        return self.reader_tabs.open(text)

    def current_reader(self) -> ReaderTab | None:
        return self.reader_tabs.current()

    def readers(self) -> list[ReaderTab]:
        return self.reader_tabs.all()

    def focus_search(self) -> None:
        self.tabs.setCurrentWidget(self.search_tab)
        self.search_tab.phrase_edit.setFocus()
        self.search_tab.phrase_edit.selectAll()

    def jump(self) -> str | None:
        return self.open_coord(self.jump_edit.text())

    def _focus_jump(self) -> None:
        self.jump_edit.setFocus()
        self.jump_edit.selectAll()

    # == bookmarks ============================================================================
    def add_bookmark(self, coord: str, text: str) -> None:
        try:
            self.bookmarks.add(coord, text)
        except OSError as exc:
            self.messages.error(self.tr("无法保存书签（{exc}）。书签仍在书签栏中；可点「另存…」存到其他位置，"
                                        "或检查磁盘后再试。").format(exc=exc))
            return
        self.notify(self.tr("已加书签 {coord}，可在书签栏写备注").format(coord=coord))

    # == fonts, theme, presentation ===========================================================
    def content_point_size(self) -> float:
        return BASE_TEXT_PT * self.font_scale * (PRESENTATION_ZOOM if self.presenting else 1.0)

    def reader_point_size(self) -> float:
        return self.content_point_size() * READER_FACTOR

    def apply_fonts(self) -> None:
        ui = QFont(QApplication.font())
        if self.presenting:                  # the question and terms must be legible from the back row
            ui.setPointSizeF(ui.pointSizeF() * 1.5)
        for w in (self.question_bar, self.chips, self.tabs.tabBar()):
            w.setFont(ui)
        self.chips.fit_height()
        font = self.fonts.text_font(self.content_point_size())
        self.answer_view.set_text_font(font)
        for pane in self.panes.values():
            pane.view.set_text_font(font)
        for reader in self.readers():
            reader.apply_fonts(self.reader_point_size())

    def set_font_scale(self, scale: float) -> None:
        self.font_scale = round(min(SCALE_MAX, max(SCALE_MIN, scale)), 2)
        self._save(self.userdata.set, "font_scale", self.font_scale)
        self.apply_fonts()
        self.notify(self.tr("字号 {percent}%").format(percent=round(self.font_scale * 100)))

    def zoom_in(self) -> None:
        self.set_font_scale(self.font_scale + SCALE_STEP)

    def zoom_out(self) -> None:
        self.set_font_scale(self.font_scale - SCALE_STEP)

    def zoom_reset(self) -> None:
        self.set_font_scale(1.0)

    def _contrast_toggled(self, on: bool) -> None:
        self.set_theme("high_contrast" if on else "standard")

    def set_theme(self, name: str) -> None:
        self.theme = palette(name).name
        self._save(self.userdata.set, "theme", self.theme)
        self._restyle()
        self.apply_fonts()           # a new style sheet resets the widgets' fonts to the interface font

    def _restyle(self) -> None:
        apply_theme(QApplication.instance(), self.pal().name)
        if self._generating:         # the draft in the new colours; the panes wait for the verified answer
            self.answer_view.begin_provisional(ah.provisional_html("".join(self._stream), self.pal()))
        else:
            self._show_current()
        for reader in self.readers():
            reader.restyle()

    def set_presentation(self, on: bool) -> None:
        """Full screen, large type, high contrast, the three layers side by side; Esc leaves."""
        on = bool(on)
        if on == self.presenting:
            return
        if on:
            self._before_presentation = {
                "maximized": self.isMaximized(),
                "bookmarks": self.bookmarks.isVisible(),
            }
        self.presenting = on
        self._update_escape()
        for w in (self.menuBar(), self.toolbar, self.statusBar(), self.answer_view):
            w.setVisible(not on)
        if on:
            self.bookmarks.hide()
        elif self._before_presentation.get("bookmarks"):
            self.bookmarks.show()
        self.act_present.blockSignals(True)
        self.act_present.setChecked(on)
        self.act_present.blockSignals(False)
        self._restyle()
        self.apply_fonts()
        if on:
            self.showFullScreen()
        elif self._before_presentation.get("maximized"):
            self.showMaximized()
        else:
            self.showNormal()

    # == about and closing =====================================================================
    def check_environment(self):
        from .doctor_dialog import DoctorDialog
        dialog = DoctorDialog(self.session, self.runner, self)
        dialog.show()
        return dialog

    def about(self) -> AboutDialog:
        dialog = AboutDialog(self.session.pack.manifest, str(self.session.pack.path), self.pal(), self)
        dialog.open()
        return dialog

    def changeEvent(self, event):
        if event.type() == QEvent.Type.LanguageChange:
            i18n.rerender_window(self)
        super().changeEvent(event)

    def closeEvent(self, event):
        if self.presenting:
            self.set_presentation(False)
        self.bookmarks.commit_edits()
        self._save(self.userdata.set, "draft_question", self.question_bar.text())
        self._save(self.userdata.set, "geometry", bytes(self.saveGeometry().toBase64()).decode("ascii"))
        self._save(self.userdata.set, "last_pack", str(self.session.pack.path))
        self._save(self.userdata.set, "show_library", self.library.isVisible())
        runners = [self.runner, self.handouts.runner, self.prefetch_runner]
        if self._generating:
            # the model stops at its next token; a long prompt may still be read, so wait
            # only briefly — the thread finishes on its own and the answer is dropped
            self._cancel.set()
            self._request += 1           # whatever still arrives belongs to no question now
            if not self.runner.wait(CLOSE_WAIT_MS):
                runners.remove(self.runner)
        for runner in runners:
            runner.wait(30000)
        self.model_ctl.close()
        super().closeEvent(event)

