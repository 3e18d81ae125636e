"""检索: the concordance as a tab — every occurrence of a phrase, in context, with its line.

A teacher checks where a phrase occurs in the printed canon: the phrase (several, space
separated, all in one paragraph; optionally within N characters), filters by layer and
work, counts per layer and per work, a page of KWIC rows at a time, the whole list to CSV.
Double-click (or Enter) on a row opens the reader at the line with the phrase found.
"""
from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QPushButton, QSpinBox, QTableView, QVBoxLayout, QWidget)

from nanshan_core.library.concordance import Searcher
from nanshan_core.errors import NanshanError
from nanshan_core.corpus.works import LAYER_NAMES

from .workers import Runner, Task

PAGE = 100
COLUMNS = [QT_TRANSLATE_NOOP("SearchTab", "书名"), QT_TRANSLATE_NOOP("SearchTab", "卷"),
           QT_TRANSLATE_NOOP("SearchTab", "坐标"), QT_TRANSLATE_NOOP("SearchTab", "左文"),
           QT_TRANSLATE_NOOP("SearchTab", "检索词"), QT_TRANSLATE_NOOP("SearchTab", "右文")]


class SearchTab(QWidget):
    openRequested = Signal(str, str)        # coordinate, phrase to find in the reader
    error = Signal(str)
    message = Signal(str)
    searched = Signal(int)                  # occurrences found (tests)

    def __init__(self, session, runner: Runner | None = None, parent=None):
        super().__init__(parent)
        self.session = session
        # the engine's own runner: the index and the pack are read by one thread at a time
        self.runner = runner or Runner(1, self)
        self.result = None
        self.page = 0
        self._searcher = None
        self.phrase_edit = QLineEdit()
        self.phrase_edit.setObjectName("concordancePhrase")
        self.phrase_edit.setPlaceholderText(self.tr("检索原文词句（繁简、异体皆可；几个词以空格分开，须同在一段）"))
        self.phrase_edit.setClearButtonEnabled(True)
        self.phrase_edit.returnPressed.connect(self.run)
        self.within = QSpinBox()
        self.within.setRange(0, 500)
        self.within.setSpecialValueText(self.tr("不限"))
        self.within.setSuffix(self.tr(" 字内"))
        self.within.setToolTip(self.tr("几个词句须在这么多字之内（0 = 同一段内即可）"))
        self.layer_box = QComboBox()
        self.layer_box.addItem(self.tr("全部各层"), None)
        for key in ("vinaya", "daoxuan", "yuanzhao", "other"):
            self.layer_box.addItem(LAYER_NAMES[key], key)
        self.work_box = QComboBox()
        self._fill_works()
        go = QPushButton(self.tr("检索"))
        go.clicked.connect(self.run)
        self.export_button = QPushButton(self.tr("导出 CSV…"))
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self.export_dialog)
        top = QHBoxLayout()
        top.addWidget(self.phrase_edit, 1)
        top.addWidget(self.within)
        top.addWidget(self.layer_box)
        top.addWidget(self.work_box)
        top.addWidget(go)
        top.addWidget(self.export_button)
        self.counts = QLabel(self.tr("输入词句后按回车。"))
        self.counts.setWordWrap(True)
        self.model = QStandardItemModel(0, len(COLUMNS), self)
        self.model.setHorizontalHeaderLabels([self.tr(c) for c in COLUMNS])
        self.table = QTableView()
        self.table.setObjectName("concordanceTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        head = self.table.horizontalHeader()
        for col, mode in enumerate([QHeaderView.ResizeMode.ResizeToContents] * 3 +
                                   [QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.ResizeToContents,
                                    QHeaderView.ResizeMode.Stretch]):
            head.setSectionResizeMode(col, mode)
        self.table.doubleClicked.connect(self._open_row)
        self.table.activated.connect(self._open_row)
        self.prev_button = QPushButton(self.tr("上一页"))
        self.next_button = QPushButton(self.tr("下一页"))
        self.prev_button.clicked.connect(lambda: self.show_page(self.page - 1))
        self.next_button.clicked.connect(lambda: self.show_page(self.page + 1))
        self.page_label = QLabel()
        nav = QHBoxLayout()
        nav.addWidget(self.counts, 1)
        nav.addWidget(self.prev_button)
        nav.addWidget(self.page_label)
        nav.addWidget(self.next_button)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addLayout(nav)
        lay.addWidget(self.table, 1)
        self._update_nav()

    def _fill_works(self) -> None:
        self.work_box.clear()
        self.work_box.addItem(self.tr("全部经典"), None)
        for wid, info in self.session.pack.works.items():
            self.work_box.addItem(f"{wid} {info['short']}", wid)

    def set_session(self, session) -> None:
        """Another pack (文件 → 语料包): its works to choose from, its text to search; the phrase stays."""
        self.session = session
        self._searcher, self.result, self.page, self._warmed = None, None, 0, False
        self._fill_works()
        self.model.removeRows(0, self.model.rowCount())
        self.counts.setText(self.tr("已换语料包，按回车重新检索。"))
        self.export_button.setEnabled(False)
        self._update_nav()

    def showEvent(self, event) -> None:
        """The first time the tab is shown, read the pack's text into memory in the
        background: a common phrase is then counted faster than the index can list it."""
        super().showEvent(event)
        if not getattr(self, "_warmed", False):
            self._warmed = True
            self.runner.start(Task(self.searcher.folded_corpus), None, lambda msg, exc: None)

    @property
    def searcher(self) -> Searcher:
        if self._searcher is None:
            self._searcher = Searcher(self.session.engine.retriever)
        return self._searcher

    def run(self) -> bool:
        phrases = self.phrase_edit.text().split()
        if not phrases:
            self.error.emit(self.tr("请输入要检索的词句，例如：突吉羅"))
            return False
        within = self.within.value() or None
        layer = self.layer_box.currentData()
        work = self.work_box.currentData()
        self.counts.setText(self.tr("检索中…"))
        self.runner.start(Task(self.searcher.search, phrases, layer, [work] if work else None, within),
                          self._found, lambda msg, exc: self._failed(msg))
        return True

    def _failed(self, message: str) -> None:
        self.counts.setText("")
        self.error.emit(message)

    def _found(self, result) -> None:
        self.result = result
        layers = "、".join(f"{LAYER_NAMES.get(k, k)} {v}" for k, v in sorted(result.by_layer.items(), key=lambda x: -x[1]))
        works = "、".join(f"{self.session.pack.works[k]['short']} {v}"
                         for k, v in sorted(result.by_work.items(), key=lambda x: -x[1])[:8])
        more = "……" if len(result.by_work) > 8 else ""
        phrases = f"「{'」+「'.join(result.phrases)}」"
        if result.count:
            self.counts.setText(self.tr("{phrases}共 {count} 处：{layers}。{works}{more}").format(
                phrases=phrases, count=result.count, layers=layers, works=works, more=more))
        else:
            self.counts.setText(self.tr("{phrases}共 0 处。").format(phrases=phrases))
        self.export_button.setEnabled(result.count > 0)
        self.show_page(0)
        self.searched.emit(result.count)

    @property
    def pages(self) -> int:
        return max(1, -(-self.result.count // PAGE)) if self.result else 1

    def show_page(self, page: int) -> None:
        if self.result is None:
            return
        self.page = max(0, min(page, self.pages - 1))
        rows = self.searcher.rows(self.result, self.page * PAGE, PAGE)
        self.model.removeRows(0, self.model.rowCount())
        for r in rows:
            items = [QStandardItem(x) for x in (r.title, str(r.juan), r.coord, r.left, r.match, r.right)]
            items[0].setData(r.coord, Qt.ItemDataRole.UserRole)
            items[3].setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.model.appendRow(items)
        self._update_nav()

    def _update_nav(self) -> None:
        self.page_label.setText(f"{self.page + 1} / {self.pages}")
        self.prev_button.setEnabled(self.result is not None and self.page > 0)
        self.next_button.setEnabled(self.result is not None and self.page + 1 < self.pages)

    def _open_row(self, index) -> None:
        coord = self.model.item(index.row(), 0).data(Qt.ItemDataRole.UserRole)
        if coord:
            self.openRequested.emit(coord, self.result.phrases[0] if self.result else "")

    def export_csv(self, path: str) -> int | None:
        try:
            n = self.searcher.export_csv(self.result, path)
        except (OSError, NanshanError) as exc:
            self.error.emit(self.tr("未能导出（{exc}）。请换一个位置再试。").format(exc=exc))
            return None
        self.message.emit(self.tr("已导出 {n} 条：{path}").format(n=n, path=path))
        return n

    def export_dialog(self) -> None:
        if self.result is None:
            return
        path, _ = QFileDialog.getSaveFileName(self, self.tr("导出检索结果"),
                                              self.tr("检索_{phrase}.csv").format(phrase=self.result.phrases[0]),
                                              "CSV (*.csv)")
        if path:
            self.export_csv(path)
