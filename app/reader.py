"""The reader: one fascicle as printed, line by line, with the target line marked.

原书格式: every row is one printed line with its line head (0345b14) in the
margin, inline notes in small type, and for X texts, on demand, the parallel
新文豐 (R) line head — so what is on screen can be laid beside the printed
volume.  A fascicle has up to ~10,000 lines, so the view is a QListView over
a model with a painting delegate: nothing is laid out for lines not on
screen, and row heights are estimated from text advances (a row wraps only
when the window is narrower than the printed line).
"""
from __future__ import annotations

import bisect
import math

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPointF, QRect, QSize, Qt, Signal
from PySide6.QtGui import (QAction, QColor, QFontMetricsF, QKeySequence, QTextCharFormat, QTextLayout,
                           QTextOption)
from PySide6.QtWidgets import (QAbstractItemView, QApplication, QHBoxLayout, QLabel, QLineEdit, QListView,
                               QSplitter, QStyle, QStyledItemDelegate, QToolButton, QVBoxLayout, QWidget)

from nanshan_core.corpus import coords
from nanshan_core.corpus.pack import FascicleRow, LineRow
from nanshan_core.corpus.works import LAYER_NAMES

from .citations import cbeta_citation
from .display import Shown, shown, utf16_offsets
from .page_locator import PageLocator

LineRole = Qt.ItemDataRole.UserRole + 1
TargetRole = Qt.ItemDataRole.UserRole + 2
NOTE_SCALE = 0.74
CONTEXT_ROWS = 3          # rows kept above the target so the reader sees where it starts


class FascicleModel(QAbstractListModel):
    """The lines of one fascicle, the target line, and the find hits."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.fascicle: FascicleRow | None = None
        self.lines: list[LineRow] = []
        self.row_of: dict[str, int] = {}
        self.forms: dict = {}
        self._shown: dict[int, Shown] = {}
        self.target_row: int | None = None
        self.hits: dict[int, list[tuple[int, int]]] = {}
        self.current_hit: tuple[int, int, int] | None = None

    def load(self, fascicle: FascicleRow, lines: list[LineRow], forms: dict) -> None:
        self.beginResetModel()
        self.fascicle, self.lines, self.forms = fascicle, lines, forms
        self.row_of = {ln.coord: i for i, ln in enumerate(lines)}
        self._shown = {}
        self.target_row = None
        self.hits, self.current_hit = {}, None
        self.endResetModel()

    def rowCount(self, parent=QModelIndex()):
        return 0 if parent.isValid() else len(self.lines)

    def shown(self, row: int) -> Shown:
        s = self._shown.get(row)
        if s is None:
            s = self._shown[row] = shown(self.lines[row].text, self.forms)
        return s

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        row = index.row()
        line = self.lines[row]
        if role == Qt.ItemDataRole.DisplayRole:
            return line.text
        if role == LineRole:
            return line
        if role == TargetRole:
            return row == self.target_row
        if role == Qt.ItemDataRole.ToolTipRole:
            tips = [coords.parse(line.coord).human()]
            if line.r:
                tips.append(coords.r_human(line.r))
            s = self.shown(row)
            tips += [f"「{s.text[r.start:r.end]}」{r.tooltip}" for r in s.rare]
            return "\n".join(tips)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{line.coord} {line.text}"
        return None

    def set_target(self, row: int | None) -> None:
        old, self.target_row = self.target_row, row
        for r in (old, row):
            if r is not None and 0 <= r < len(self.lines):
                self.dataChanged.emit(self.index(r), self.index(r))

    def set_hits(self, hits: dict[int, list[tuple[int, int]]]) -> None:
        self.hits, self.current_hit = hits, None
        if self.lines:
            self.dataChanged.emit(self.index(0), self.index(len(self.lines) - 1))

    def set_current_hit(self, hit: tuple[int, int, int] | None) -> None:
        rows = {h[0] for h in (self.current_hit, hit) if h}
        self.current_hit = hit
        for r in rows:
            self.dataChanged.emit(self.index(r), self.index(r))


class LineDelegate(QStyledItemDelegate):
    """Paints a printed line: margin head(s), text with small-type notes, find hits, target mark.

    Row heights are computed for the whole fascicle at once (``prepare``) from
    character counts — every CJK character and full-width mark advances one
    em — and only rows that come near the available width are laid out for
    real.  When no row wraps, the view is told its rows are uniform and lays
    out ten thousand rows without asking for each one.
    """

    def __init__(self, reader: "ReaderTab"):
        super().__init__(reader)
        self.reader = reader
        self._key = None
        self._heights: list[int] = []
        self._row_width = 0
        self.on_target_painted = None

    # -- geometry ----------------------------------------------------------------------------
    def margin_width(self) -> float:
        r = self.reader
        mono = QFontMetricsF(r.mono_font)
        w = mono.horizontalAdvance("0345b14") + 18
        if r.show_r:
            w += mono.horizontalAdvance("R062_p0309a02") + 12
        return w

    def text_width(self) -> float:
        return max(80.0, self.reader.view.viewport().width() - self.margin_width() - 12)

    def vpad(self) -> float:
        return max(2.0, self.reader.text_font.pointSizeF() * 0.25)

    def _layout_key(self):
        r = self.reader
        return (id(r.model.lines), r.text_font.key(), r.show_r, int(self.text_width()))

    def prepare(self) -> bool:
        """Compute every row's height for the current fonts and width; True when all are equal."""
        key = self._layout_key()
        if key == self._key:
            return len(set(self._heights)) <= 1
        r = self.reader
        model = r.model
        avail = self.text_width()
        main = QFontMetricsF(r.text_font)
        em = main.horizontalAdvance("中")
        small_em = QFontMetricsF(r.note_font).horizontalAdvance("中")
        line_h = main.lineSpacing()
        pad = 2 * self.vpad()
        one = int(math.ceil(line_h + pad))
        rare = set(model.forms)
        heights = []
        for row, line in enumerate(model.lines):
            text = line.text
            if not rare.isdisjoint(text):
                text = model.shown(row).text          # compositions are longer than one character
            noted = sum(b - a for a, b in line.notes)
            estimate = (len(text) - noted) * em + noted * small_em
            if estimate <= avail * 0.9:
                heights.append(one)
            else:
                n = self._layout(row, avail)[1]
                heights.append(int(math.ceil(n * line_h + pad)))
        self._heights = heights
        self._row_width = int(avail + self.margin_width())
        self._key = key
        uniform = len(set(heights)) <= 1
        r.view.setUniformItemSizes(uniform)
        return uniform

    def sizeHint(self, option, index):
        if self._key != self._layout_key():
            self.prepare()
        row = index.row()
        h = self._heights[row] if row < len(self._heights) else 20
        return QSize(self._row_width, h)

    # -- text layout ---------------------------------------------------------------------------
    def _formats(self, row: int) -> list:
        r, model, pal = self.reader, self.reader.model, self.reader.pal()
        s = model.shown(row)
        line = model.lines[row]
        u16 = utf16_offsets(s.text)
        ranges = []

        def add(a, b, fmt):
            rng = QTextLayout.FormatRange()
            rng.start, rng.length, rng.format = u16[a], u16[b] - u16[a], fmt
            ranges.append(rng)

        for a, b in line.notes:
            f = QTextCharFormat()
            f.setFont(r.note_font)
            f.setForeground(QColor(pal.note_fg))
            add(*s.span(a, b), f)
        for rare in s.rare:
            f = QTextCharFormat()
            f.setForeground(QColor(pal.rare_fg))
            if rare.composed:
                f.setFont(r.note_font)
            add(rare.start, rare.end, f)
        current = model.current_hit
        for a, b in model.hits.get(row, ()):
            f = QTextCharFormat()
            is_current = current is not None and current == (row, a, b)
            f.setBackground(QColor(pal.current_match_bg if is_current else pal.match_bg))
            f.setForeground(QColor(pal.match_fg))
            add(*s.span(a, b), f)
        return ranges

    def _layout(self, row: int, width: float) -> tuple[QTextLayout, int]:
        layout = QTextLayout(self.reader.model.shown(row).text, self.reader.text_font)
        opt = QTextOption()
        opt.setWrapMode(QTextOption.WrapMode.WrapAnywhere)
        layout.setTextOption(opt)
        layout.setFormats(self._formats(row))
        layout.beginLayout()
        y, n = 0.0, 0
        while True:
            tl = layout.createLine()
            if not tl.isValid():
                break
            tl.setLineWidth(width)
            tl.setPosition(QPointF(0, y))
            y += tl.height()
            n += 1
        layout.endLayout()
        return layout, max(n, 1)

    # -- painting ---------------------------------------------------------------------------------
    def paint(self, painter, option, index):
        r, pal = self.reader, self.reader.pal()
        row = index.row()
        line = r.model.lines[row]
        rect = option.rect
        painter.save()
        is_target = row == r.model.target_row
        if is_target:
            painter.fillRect(rect, QColor(pal.target_bg))
            painter.fillRect(QRect(rect.left(), rect.top(), 5, rect.height()), QColor(pal.target_bar))
        elif option.state & QStyle.StateFlag.State_Selected:
            sel = QColor(pal.quote_bg)
            painter.fillRect(rect, sel)
        pad = self.vpad()
        main = QFontMetricsF(r.text_font)
        mono = QFontMetricsF(r.mono_font)
        base_y = rect.top() + pad + main.ascent()
        painter.setFont(r.mono_font)
        painter.setPen(QColor(pal.target_bar if is_target else pal.margin_fg))
        head_x = rect.left() + 10
        painter.drawText(QPointF(head_x, base_y), line.coord.split("_p", 1)[-1])
        if r.show_r and line.r:
            painter.setPen(QColor(pal.margin_fg))
            painter.drawText(QPointF(head_x + mono.horizontalAdvance("0345b14") + 12, base_y), line.r)
        layout, _ = self._layout(row, self.text_width())
        painter.setPen(QColor(pal.text))
        layout.draw(painter, QPointF(rect.left() + self.margin_width(), rect.top() + pad))
        painter.restore()
        if is_target and self.on_target_painted is not None:
            self.on_target_painted(line.coord)


class ReaderView(QListView):
    """Keeps the target line in view through late layouts and resizes until the user scrolls."""

    resized = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.keep_target = False

    def wheelEvent(self, event):
        self.keep_target = False
        super().wheelEvent(event)

    def keyPressEvent(self, event):
        self.keep_target = False
        super().keyPressEvent(event)

    def mousePressEvent(self, event):
        self.keep_target = False
        super().mousePressEvent(event)

    def resizeEvent(self, event):
        super().resizeEvent(event)
        self.resized.emit()


class ReaderTab(QWidget):
    """One fascicle in the reader; the window keeps one tab per open fascicle."""

    targetPainted = Signal(str)
    openCoordRequested = Signal(str)
    bookmarkRequested = Signal(str, str)
    message = Signal(str)
    error = Signal(str)
    titleChanged = Signal(str)
    lineShown = Signal(int, int)        # fascicle id, id of the line at the top of the view (the library follows)

    def __init__(self, session, fonts, pal_getter, point_size: float, parent=None):
        super().__init__(parent)
        self.session = session
        self.fonts = fonts
        self.pal = pal_getter
        self.show_r = bool(session.userdata.get("show_r", False))
        self.font_delta = float(session.userdata.get("reader_font_delta", 0.0))
        self.base_point_size = point_size
        self._awaiting_paint = False
        self._full_text = None
        self.hit_list: list[tuple[int, int, int]] = []
        self.hit_index = -1
        self.model = FascicleModel(self)
        self.view = ReaderView()
        self.view.setObjectName("readerLines")
        self.view.setModel(self.model)
        self.view.setUniformItemSizes(False)
        self.view.setResizeMode(QListView.ResizeMode.Adjust)
        self.view.setLayoutMode(QListView.LayoutMode.SinglePass)
        self.view.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # a scroll bar that comes and goes would change the width and re-wrap every row
        self.view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setMouseTracking(True)
        self.delegate = LineDelegate(self)
        self.delegate.on_target_painted = self._target_painted
        self.view.setItemDelegate(self.delegate)
        self.view.resized.connect(self._view_resized)
        self.view.selectionModel().currentChanged.connect(self._current_changed)
        self.view.verticalScrollBar().valueChanged.connect(lambda _: self._report_top())
        self.locator = PageLocator()
        self._build_toolbar()
        self._build_actions()
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.view)
        split.addWidget(self.locator)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 0)
        split.setSizes([800, 220])
        self.splitter = split
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(self.toolbar)
        lay.addLayout(self.findbar)
        lay.addWidget(split, 1)
        self.apply_fonts(point_size)

    # -- chrome ----------------------------------------------------------------------------------
    def _tool(self, text: str, tip: str, slot, checkable=False) -> QToolButton:
        b = QToolButton()
        b.setText(text)
        b.setToolTip(tip)
        b.setCheckable(checkable)
        (b.toggled if checkable else b.clicked).connect(slot)
        return b

    def _build_toolbar(self) -> None:
        self.prev_button = self._tool(self.tr("◀ 上一卷"), self.tr("打开本经的上一卷"), self.prev_fascicle)
        self.next_button = self._tool(self.tr("下一卷 ▶"), self.tr("打开本经的下一卷"), self.next_fascicle)
        self.title = QLabel()
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.smaller = self._tool("A−", self.tr("缩小阅读字号"), lambda: self.change_font_delta(-1))
        self.larger = self._tool("A＋", self.tr("放大阅读字号"), lambda: self.change_font_delta(+1))
        self.r_button = self._tool(self.tr("新文豐行号"), self.tr("在页边显示卍續藏对应的新文豐版（R）行号"),
                                   self.set_show_r, True)
        self.r_button.setChecked(self.show_r)
        self.locator_button = self._tool(self.tr("页面定位"), self.tr("显示或隐藏页面定位图"), self._toggle_locator, True)
        self.locator_button.setChecked(True)
        self.bookmark_button = self._tool(self.tr("加书签"), self.tr("为当前行加书签（可写备注）"), self.request_bookmark)
        bar = QHBoxLayout()
        bar.addWidget(self.prev_button)
        bar.addWidget(self.title, 1)
        bar.addWidget(self.next_button)
        for w in (self.smaller, self.larger, self.r_button, self.locator_button, self.bookmark_button):
            bar.addWidget(w)
        self.toolbar = bar
        self.find_edit = QLineEdit()
        self.find_edit.setPlaceholderText(self.tr("在本卷中查找（繁简、异体皆可）"))
        self.find_edit.setClearButtonEnabled(True)
        self.find_edit.returnPressed.connect(self.find_next)
        self.find_edit.textChanged.connect(lambda _: self.run_find())
        self.find_prev_button = self._tool("↑", self.tr("上一处"), self.find_previous)
        self.find_next_button = self._tool("↓", self.tr("下一处"), self.find_next)
        self.find_status = QLabel()
        fb = QHBoxLayout()
        fb.addWidget(QLabel(self.tr("查找：")))
        fb.addWidget(self.find_edit, 1)
        fb.addWidget(self.find_prev_button)
        fb.addWidget(self.find_next_button)
        fb.addWidget(self.find_status)
        self.findbar = fb

    def _build_actions(self) -> None:
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        specs = [(self.tr("复制此行原文"), QKeySequence.StandardKey.Copy, self.copy_line),
                 (self.tr("复制坐标"), None, self.copy_coord),
                 (self.tr("复制 CBETA 引用（此行）"), None, self.copy_citation),
                 (self.tr("加书签"), None, self.request_bookmark)]
        for text, key, slot in specs:
            act = QAction(text, self.view)
            if key is not None:
                act.setShortcut(key)
                act.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            act.triggered.connect(slot)
            self.view.addAction(act)
        find = QAction(self.tr("查找"), self)
        find.setShortcut(QKeySequence.StandardKey.Find)
        find.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        find.triggered.connect(lambda: (self.find_edit.setFocus(), self.find_edit.selectAll()))
        self.addAction(find)

    # -- fonts and theme ---------------------------------------------------------------------------
    def apply_fonts(self, point_size: float | None = None) -> None:
        if point_size is not None:
            self.base_point_size = point_size
        size = max(6.0, self.base_point_size + self.font_delta)
        self.text_font = self.fonts.text_font(size)
        self.note_font = self.fonts.text_font(size * NOTE_SCALE)
        self.mono_font = self.fonts.mono_font(max(6.0, size * 0.72))
        self.view.setFont(self.text_font)
        self.relayout()

    def relayout(self) -> None:
        """Row heights for the current fonts and width, then the view's layout, then the target again."""
        if not self.model.lines:
            return
        self.delegate.prepare()
        self.view.doItemsLayout()
        self.view.viewport().update()
        self._reapply_target()

    def point_size(self) -> float:
        return self.text_font.pointSizeF()

    def change_font_delta(self, step: int) -> None:
        self.font_delta = max(-8.0, min(30.0, self.font_delta + step))
        self._save_setting("reader_font_delta", self.font_delta)
        self.apply_fonts()

    def retranslate(self) -> None:
        """After a language switch (the chrome is translated centrally): the locator's tooltip."""
        self.restyle()

    def restyle(self) -> None:
        self.view.viewport().update()
        if self.locator.coord:
            self._update_locator(self.view.currentIndex().row() if self.view.currentIndex().isValid()
                                 else self.model.target_row)

    def set_show_r(self, on: bool) -> None:
        self.show_r = bool(on)
        self._save_setting("show_r", self.show_r)
        self.relayout()

    def _save_setting(self, key: str, value) -> None:
        try:
            self.session.userdata.set(key, value)
        except OSError as exc:
            self.error.emit(self.tr("设置未能保存（{exc}）。").format(exc=exc))

    def _toggle_locator(self, on: bool) -> None:
        self.locator.setVisible(on)

    # -- opening -------------------------------------------------------------------------------------
    def open_fascicle(self, fid: int, target: str | None = None) -> None:
        if self.model.fascicle is None or self.model.fascicle.id != fid:
            fasc = self.session.pack.fascicle(fid)
            self.model.load(fasc, self.session.fascicle_lines(fid), self.session.forms)
            self.delegate.prepare()
            self._full_text = None
            self._update_title()
            self.titleChanged.emit(self.tab_title())
            if self.find_edit.text():
                self.run_find()
        if target is not None:
            self.show_target(target)
        else:
            self.model.set_target(None)
            self.view.keep_target = False
            self.view.scrollToTop()
            if self.model.lines:
                self.view.setCurrentIndex(self.model.index(0))

    def show_target(self, coord: str) -> None:
        row = self.model.row_of.get(coord)
        if row is None:
            self.message.emit(self.tr("{coord} 不在当前这一卷中").format(coord=coord))
            return
        self.model.set_target(row)
        self._awaiting_paint = True
        self.view.keep_target = True
        self.view.setCurrentIndex(self.model.index(row))
        self._scroll_to(row)

    def _scroll_to(self, row: int) -> None:
        top = max(0, row - CONTEXT_ROWS)
        self.view.scrollTo(self.model.index(top), QAbstractItemView.ScrollHint.PositionAtTop)
        if not self.row_visible(row):        # very tall rows above it: put the target itself on top
            self.view.scrollTo(self.model.index(row), QAbstractItemView.ScrollHint.PositionAtTop)
        self.view.viewport().update()

    def _view_resized(self) -> None:
        if self.model.lines and self.isVisible():
            self.delegate.prepare()
            self._reapply_target()

    def _reapply_target(self) -> None:
        if self.view.keep_target and self.model.target_row is not None:
            self._scroll_to(self.model.target_row)

    def _target_painted(self, coord: str) -> None:
        if self._awaiting_paint:
            self._awaiting_paint = False
            self.targetPainted.emit(coord)

    def _update_title(self) -> None:
        f = self.model.fascicle
        work = self.session.pack.works.get(f.work, {})
        layer = LAYER_NAMES.get(work.get("layer", ""), work.get("grp", ""))
        facts = " · ".join(x for x in (f.key, layer, f"{len(self.model.lines)} 行") if x)
        self.title.setText(f"<b>《{work.get('short', f.work)}》卷{f.juan}</b>　{work.get('title', '')}　"
                           f"<small>{facts}</small>")
        sib = self.session.siblings(f)
        ids = [s.id for s in sib]
        k = ids.index(f.id) if f.id in ids else -1
        self.prev_button.setEnabled(k > 0)
        self.next_button.setEnabled(0 <= k < len(ids) - 1)
        has_r = any(ln.r for ln in self.model.lines[:50])
        self.r_button.setVisible(has_r)

    def tab_title(self) -> str:
        f = self.model.fascicle
        return f"{self.session.work_title(f.work)} 卷{f.juan}" if f else self.tr("阅读")

    def _neighbour(self, step: int) -> None:
        f = self.model.fascicle
        sib = self.session.siblings(f)
        ids = [s.id for s in sib]
        k = ids.index(f.id) + step
        if 0 <= k < len(ids):
            self.open_fascicle(ids[k])

    def prev_fascicle(self) -> None:
        self._neighbour(-1)

    def next_fascicle(self) -> None:
        self._neighbour(+1)

    # -- state a user (or a test) checks -------------------------------------------------------------
    @property
    def target_coord(self) -> str | None:
        r = self.model.target_row
        return self.model.lines[r].coord if r is not None else None

    def row_rect(self, row: int) -> QRect:
        return self.view.visualRect(self.model.index(row))

    def row_visible(self, row: int) -> bool:
        rect = self.row_rect(row)
        return rect.isValid() and self.view.viewport().rect().contains(rect)

    def target_visible(self) -> bool:
        return self.model.target_row is not None and self.row_visible(self.model.target_row)

    def current_line(self) -> LineRow | None:
        idx = self.view.currentIndex()
        if idx.isValid():
            return self.model.lines[idx.row()]
        r = self.model.target_row
        return self.model.lines[r] if r is not None else None

    # -- locator -------------------------------------------------------------------------------------
    def _report_top(self) -> None:
        """Which line the reader shows, for the library's tree to follow: the line it was opened
        at while that line is in view (it may sit a few lines below a section's start), else
        the line at its top."""
        if self.model.fascicle is None or not self.model.lines:
            return
        if self.target_visible():
            row = self.model.target_row
        else:
            idx = self.view.indexAt(self.view.viewport().rect().topLeft())
            row = idx.row() if idx.isValid() else 0
        self.lineShown.emit(self.model.fascicle.id, self.model.lines[row].id)

    def _current_changed(self, current, _previous) -> None:
        if current.isValid():
            self._update_locator(current.row())

    def _update_locator(self, row: int | None) -> None:
        if row is None or not (0 <= row < len(self.model.lines)):
            return
        line = self.model.lines[row]
        self.locator.show_line(line.coord, line.r, self.session.pack,
                               self.session.work_title(self.model.fascicle.work), self.pal())

    # -- find ------------------------------------------------------------------------------------------
    def _fascicle_text(self):
        if self._full_text is None:
            starts, pos = [], 0
            for ln in self.model.lines:
                starts.append(pos)
                pos += len(ln.text)
            text = "".join(ln.text for ln in self.model.lines)
            self._full_text = (self.session.fold(text), starts)
        return self._full_text

    def run_find(self) -> int:
        """Find every occurrence in the fascicle, across line breaks, as the index folds text."""
        needle = self.session.fold_query("".join(self.find_edit.text().split()))
        self.hit_list, self.hit_index = [], -1
        if not needle or not self.model.lines:
            self.model.set_hits({})
            self.find_status.setText("")
            return 0
        folded, starts = self._fascicle_text()
        hits: dict[int, list[tuple[int, int]]] = {}
        pos = folded.find(needle)
        while pos != -1:
            end = pos + len(needle)
            row = bisect.bisect_right(starts, pos) - 1
            first = None
            while row < len(starts) and starts[row] < end:
                a = max(pos, starts[row]) - starts[row]
                b = min(end, starts[row] + len(self.model.lines[row].text)) - starts[row]
                if b > a:
                    hits.setdefault(row, []).append((a, b))
                    if first is None:
                        first = (row, a, b)
                row += 1
            if first:
                self.hit_list.append(first)
            pos = folded.find(needle, pos + 1)
        self.model.set_hits(hits)
        self.find_status.setText(self.tr("共 {n} 处").format(n=len(self.hit_list)) if self.hit_list
                                 else self.tr("本卷没有找到"))
        return len(self.hit_list)

    def _go_hit(self, step: int) -> None:
        if not self.hit_list and not self.run_find():
            return
        self.hit_index = (self.hit_index + step) % len(self.hit_list)
        hit = self.hit_list[self.hit_index]
        self.model.set_current_hit(hit)
        self.view.keep_target = False
        self.view.setCurrentIndex(self.model.index(hit[0]))
        self.view.scrollTo(self.model.index(hit[0]), QAbstractItemView.ScrollHint.PositionAtCenter)
        self.find_status.setText(f"{self.hit_index + 1} / {len(self.hit_list)}")

    def find_next(self) -> None:
        self._go_hit(+1)

    def find_previous(self) -> None:
        self._go_hit(-1)

    # -- copying and bookmarks --------------------------------------------------------------------------
    def copy_line(self) -> None:
        line = self.current_line()
        if line:
            QApplication.clipboard().setText(line.text)
            self.message.emit(self.tr("已复制 {coord} 的原文").format(coord=line.coord))

    def copy_coord(self) -> None:
        line = self.current_line()
        if line:
            QApplication.clipboard().setText(line.coord)
            self.message.emit(self.tr("已复制坐标 {coord}").format(coord=line.coord))

    def copy_citation(self) -> None:
        line = self.current_line()
        if line:
            QApplication.clipboard().setText(cbeta_citation(line.text, line.coord, r=line.r))
            self.message.emit(self.tr("已复制此行的 CBETA 引用"))

    def request_bookmark(self) -> None:
        line = self.current_line()
        if line:
            self.bookmarkRequested.emit(line.coord, line.text)

    def target_painted_highlighted(self) -> bool:
        """Is the target row, as actually painted on screen, marked with the target colour?"""
        row = self.model.target_row
        if row is None or not self.row_visible(row):
            return False
        rect = self.row_rect(row)
        image = self.view.viewport().grab().toImage()
        dpr = image.devicePixelRatio() or 1.0
        x, y = int((rect.left() + 2) * dpr), int(rect.center().y() * dpr)
        if not (0 <= x < image.width() and 0 <= y < image.height()):
            return False
        return image.pixelColor(x, y).name() == QColor(self.pal().target_bar).name()
