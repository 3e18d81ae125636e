"""Where a line sits on the printed page, for people checking a printed volume.

A Taishō or Xuzangjing page has registers stacked top to bottom (上欄 a, 中欄 b,
下欄 c; T1900 even has a d), each read in vertical lines from right to left.
The diagram draws exactly that, with the number of lines each register really
has on this page — taken from the pack's line table, never from arithmetic,
because lines per register vary — and marks the line.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from nanshan_core.corpus import coords
from nanshan_core.corpus.coords import COLUMN_NAMES, CANON_NAMES

from .theme import Palette, palette


def page_columns(coord_list: list[str]) -> dict[str, int]:
    """Register letter -> its last line on this page, counted from the pack: lines per register vary."""
    cols: dict[str, int] = {}
    for c in coord_list:
        col, line = c[-3], int(c[-2:])
        cols[col] = max(cols.get(col, 0), line)
    return dict(sorted(cols.items()))


class PageDiagram(QWidget):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.columns: dict[str, int] = {}
        self.target: tuple[str, int] | None = None
        self.pal: Palette = palette("standard")
        self.setMinimumSize(150, 160)
        policy = QSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    # a printed page is taller than wide (about 1 : 1.35); the diagram keeps that shape
    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return int((width - 40) * 1.35) + 12

    def sizeHint(self):
        return QSize(210, self.heightForWidth(210))

    def set_page(self, columns: dict[str, int], target: tuple[str, int] | None, pal: Palette) -> None:
        self.columns, self.target, self.pal = columns, target, pal
        self.setToolTip(self._describe())
        self.update()

    def _describe(self) -> str:
        parts = [f"{COLUMN_NAMES.get(c, c)} {n} 行" for c, n in self.columns.items()]
        return self.tr("本页：{columns}").format(columns="，".join(parts)) if parts else ""

    def paintEvent(self, event):
        if not self.columns:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.pal
        label_w = 34
        area = QRectF(self.rect()).adjusted(label_w, 6, -6, -6)
        w = min(area.width(), area.height() / 1.35)
        page = QRectF(area.left() + (area.width() - w) / 2, area.top(), w, area.height())
        p.setPen(QPen(QColor(pal.muted), 1.5))
        p.setBrush(QColor(pal.card_bg))
        p.drawRect(page)
        n_cols = len(self.columns)
        band_h = page.height() / n_cols
        for k, (col, count) in enumerate(self.columns.items()):
            band = QRectF(page.left(), page.top() + k * band_h, page.width(), band_h)
            if k:
                p.setPen(QPen(QColor(pal.muted), 1))
                p.drawLine(band.topLeft(), band.topRight())
            p.setPen(QColor(pal.text))
            p.drawText(QRectF(self.rect().left(), band.top(), label_w - 4, band_h),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                       COLUMN_NAMES.get(col, col)[0])
            inner = band.adjusted(4, 5, -4, -5)
            step = inner.width() / max(count, 1)
            for line in range(1, count + 1):
                # line 1 is at the right: the page is read right to left
                x = inner.right() - (line - 0.5) * step
                hit = self.target == (col, line)
                if hit:
                    p.setPen(QPen(QColor(pal.target_bar), max(3.0, step * 0.8)))
                else:
                    p.setPen(QPen(QColor(pal.margin_fg), max(1.0, min(step * 0.3, 2.0))))
                p.drawLine(int(x), int(inner.top()), int(x), int(inner.bottom()))
        p.end()


class PageLocator(QWidget):
    """冊/頁/欄/行 of the current line, and the page diagram."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.text = QLabel()
        self.text.setObjectName("locatorText")
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.diagram = PageDiagram()
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.r_text = QLabel()
        self.r_text.setWordWrap(True)
        self.r_text.setObjectName("locatorText")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        title = QLabel(self.tr("<b>页面定位</b>"))
        lay.addWidget(title)
        lay.addWidget(self.text)
        lay.addWidget(self.diagram)
        lay.addWidget(self.caption)
        lay.addWidget(self.r_text)
        lay.addStretch(1)
        self.coord: str | None = None
        self.setMinimumWidth(190)

    def show_line(self, coord: str, r: str | None, pack, work_title: str, pal: Palette) -> None:
        c = coords.parse(coord)
        self.coord = coord
        canon = CANON_NAMES.get(c.canon, c.canon)
        self.text.setText(f"{canon}<br>第 <b>{c.vol}</b> 冊　第 <b>{c.page}</b> 頁<br>"
                          f"<b>{COLUMN_NAMES.get(c.col, c.col)}</b>　第 <b>{c.line}</b> 行"
                          f"<br><small>No. {c.work}《{work_title}》<br>{coord}</small>")
        self.r_text.setText(f"<small>對照：{coords.r_human(r)}</small>" if r else "")
        cols = page_columns(pack.page_lines(c.canon, c.vol, c.page))
        self.diagram.set_page(cols, (c.col, c.line), pal)
        self.text.setToolTip(c.human())
        self.caption.setText(f"<small>{COLUMN_NAMES.get(c.col, c.col)}右起第 {c.line} 行"
                             f"（本欄共 {cols.get(c.col, c.line)} 行，本頁 {len(cols)} 欄）</small>")

    def human_text(self) -> str:
        return self.text.text()
