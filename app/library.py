"""書庫: every work of the pack by group, opened into its fascicles and CBETA's contents.

Clicking a fascicle or a contents entry opens the reader at that line; the reader reports
the line it shows and the tree follows it, so a reader always sees where in the work it
is.  Ctrl+L focuses the filter (a work number or any part of a title).
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QDockWidget, QLineEdit, QTreeView, QVBoxLayout, QWidget

from nanshan_core.library import toc as library

COORD = Qt.ItemDataRole.UserRole + 1
FASCICLE = Qt.ItemDataRole.UserRole + 2
LINE = Qt.ItemDataRole.UserRole + 3
FILTER = Qt.ItemDataRole.UserRole + 4
LABEL = Qt.ItemDataRole.UserRole + 5      # a contents entry's label as the pack gives it
CONTINUED = "（续）"                        # what toc.works appends to a heading that goes on from before


class _WorkFilter(QSortFilterProxyModel):
    """Keeps a group when one of its works matches; a work's own rows always come with it."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.text = ""

    def set_text(self, text: str) -> None:
        if hasattr(self, "beginFilterChange"):         # Qt 6.9 and later
            self.beginFilterChange()
            self.text = text.strip()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            self.text = text.strip()
            self.invalidateFilter()

    def filterAcceptsRow(self, row, parent) -> bool:
        if not self.text:
            return True
        model = self.sourceModel()
        idx = model.index(row, 0, parent)
        work = idx.data(FILTER)
        if work is not None:                    # a work row
            return work.matches(self.text)
        if not parent.isValid():                # a group: kept if any of its works is
            return any(self.filterAcceptsRow(r, idx) for r in range(model.rowCount(idx)))
        return True                             # fascicles and contents of a kept work


class LibraryDock(QDockWidget):
    openRequested = Signal(str)

    def __init__(self, pack, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("书库"))
        self.setObjectName("libraryDock")
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(self.tr("按经号或书名筛选（Ctrl+L）"))
        self.filter_edit.setClearButtonEnabled(True)
        self.model = QStandardItemModel(self)
        self.proxy = _WorkFilter(self)
        self.proxy.setSourceModel(self.model)
        self.tree = QTreeView()
        self.tree.setObjectName("libraryTree")
        self.tree.setHeaderHidden(True)
        self.tree.setModel(self.proxy)
        self.tree.setUniformRowHeights(True)
        self.tree.activated.connect(self._activated)
        self.tree.clicked.connect(self._activated)
        self.filter_edit.textChanged.connect(self._filter)
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.filter_edit)
        lay.addWidget(self.tree, 1)
        self.setWidget(w)
        self._fascicle_items: dict[int, tuple[QStandardItem, library.FascicleNode]] = {}
        self._toc_items: dict[int, QStandardItem] = {}
        self._continued: list[QStandardItem] = []     # entries that end in （续）, said again on a switch
        self.load(pack)

    def load(self, pack) -> None:
        self.model.clear()
        self._fascicle_items.clear()
        self._toc_items.clear()
        self._continued.clear()
        for group, works in library.works(pack):
            g = QStandardItem(f"{group}（{len(works)}）")
            g.setEditable(False)
            for w in works:
                author = f"　{w.author}" if w.author else ""
                wi = QStandardItem(f"{w.id}　{w.short}　{len(w.fascicles)}卷{author}")
                wi.setToolTip(w.title)
                wi.setData(w, FILTER)
                wi.setEditable(False)
                if w.fascicles:
                    wi.setData(w.fascicles[0].coord, COORD)
                for f in w.fascicles:
                    fi = QStandardItem(f"卷{f.juan}　{f.coord.split('_p')[-1]}")
                    fi.setData(f.coord, COORD)
                    fi.setData(f.id, FASCICLE)
                    fi.setEditable(False)
                    self._add_toc(fi, f.toc)
                    self._fascicle_items[f.id] = (fi, f)
                    wi.appendRow(fi)
                g.appendRow(wi)
            self.model.appendRow(g)

    def _add_toc(self, parent: QStandardItem, nodes) -> None:
        for n in nodes:
            item = QStandardItem(self._shown_label(n.label))
            item.setData(n.label, LABEL)
            if n.label.endswith(CONTINUED):
                self._continued.append(item)
            item.setData(n.coord, COORD)
            item.setData(n.line, LINE)
            item.setToolTip(n.coord)
            item.setEditable(False)
            self._toc_items[n.line] = item
            parent.appendRow(item)
            self._add_toc(item, n.children)

    def _shown_label(self, label: str) -> str:
        """The heading as CBETA has it; only our own 「（续）」 is in the interface language."""
        if label.endswith(CONTINUED):
            return label[:-len(CONTINUED)] + self.tr("（续）")
        return label

    def changeEvent(self, event):
        if event.type() == QEvent.Type.LanguageChange:
            for item in self._continued:
                item.setText(self._shown_label(item.data(LABEL)))
        super().changeEvent(event)

    def _filter(self, text: str) -> None:
        self.proxy.set_text(text)
        if text.strip():
            for r in range(self.proxy.rowCount()):
                self.tree.expand(self.proxy.index(r, 0))

    def _activated(self, index) -> None:
        coord = index.data(COORD)
        if coord:
            self.openRequested.emit(coord)

    def focus_filter(self) -> None:
        self.show()
        self.raise_()
        self.filter_edit.setFocus()
        self.filter_edit.selectAll()

    def locate(self, fascicle: int, line_id: int) -> str | None:
        """Select the deepest contents entry the reader's line stands under (or its fascicle);
        returns the path as text."""
        hit = self._fascicle_items.get(fascicle)
        if hit is None:
            return None
        item, node = hit
        path = library.where(node, line_id)
        target = self._toc_items.get(path[-1].line) if path else item
        idx = self.proxy.mapFromSource(self.model.indexFromItem(target))
        if idx.isValid():
            self.tree.setCurrentIndex(idx)
            self.tree.scrollTo(idx)
        return " › ".join(n.label for n in path)
