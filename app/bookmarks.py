"""Bookmarks: a coordinate and a note, kept in the user's data and listed in a dock.

Every edit of a note is saved at once (UserData writes atomically), so a
crash never loses what the user wrote.  Double-clicking a bookmark opens the
reader there.
"""
from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QDockWidget, QFileDialog, QHBoxLayout, QHeaderView,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

COL_COORD, COL_NOTE, COL_TEXT = 0, 1, 2


class BookmarksDock(QDockWidget):
    openRequested = Signal(str)
    error = Signal(str)
    saved = Signal(str)                     # path written by 另存…

    def __init__(self, userdata, parent=None):
        super().__init__(parent)
        self.setWindowTitle(self.tr("书签"))
        self.setObjectName("bookmarksDock")
        self.userdata = userdata
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels([self.tr("坐标"), self.tr("备注（双击编辑）"), self.tr("原文")])
        self.table.horizontalHeader().setSectionResizeMode(COL_COORD, QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(COL_NOTE, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(COL_TEXT, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                                   | QAbstractItemView.EditTrigger.EditKeyPressed
                                   | QAbstractItemView.EditTrigger.AnyKeyPressed)
        self.table.itemChanged.connect(self._item_changed)
        self.table.cellDoubleClicked.connect(self._double_clicked)
        open_button = QPushButton(self.tr("打开"))
        open_button.clicked.connect(self.open_selected)
        remove_button = QPushButton(self.tr("删除"))
        remove_button.clicked.connect(self.remove_selected)
        save_button = QPushButton(self.tr("另存…"))
        save_button.setToolTip(self.tr("把书签、备注与提问历史另存到您选的文件（数据目录无法写入时用）"))
        save_button.clicked.connect(self.save_elsewhere_dialog)
        buttons = QHBoxLayout()
        buttons.addWidget(open_button)
        buttons.addWidget(remove_button)
        buttons.addWidget(save_button)
        buttons.addStretch(1)
        body = QWidget()
        lay = QVBoxLayout(body)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.table, 1)
        lay.addLayout(buttons)
        self.setWidget(body)
        self.refresh()

    def save_elsewhere(self, path: str) -> bool:
        try:
            out = self.userdata.export(path)
        except OSError as exc:
            self.error.emit(self.tr("未能另存到 {path}（{exc}）。请换一个位置。").format(path=path, exc=exc.strerror or exc))
            return False
        self.saved.emit(str(out))
        return True

    def save_elsewhere_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("另存书签与历史"),
                                              str(Path.home() / self.tr("南山问律-书签与历史.json")),
                                              "JSON (*.json)")
        if path:
            self.save_elsewhere(path)

    def refresh(self) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(0)
        for bm in self.userdata.bookmarks:
            row = self.table.rowCount()
            self.table.insertRow(row)
            coord = QTableWidgetItem(bm.coord)
            coord.setFlags(coord.flags() & ~Qt.ItemFlag.ItemIsEditable)
            coord.setToolTip(self.tr("双击打开；添加于 {created}").format(created=bm.created))
            text = QTableWidgetItem(bm.text)
            text.setFlags(text.flags() & ~Qt.ItemFlag.ItemIsEditable)
            self.table.setItem(row, COL_COORD, coord)
            self.table.setItem(row, COL_NOTE, QTableWidgetItem(bm.note))
            self.table.setItem(row, COL_TEXT, text)
        self.table.blockSignals(False)

    def row_of(self, coord: str) -> int:
        for row in range(self.table.rowCount()):
            if self.table.item(row, COL_COORD).text() == coord:
                return row
        return -1

    def add(self, coord: str, text: str) -> None:
        """Add (or bring back) a bookmark and put the cursor in its note, ready to type."""
        existing = next((b for b in self.userdata.bookmarks if b.coord == coord), None)
        try:
            self.userdata.add_bookmark(coord, existing.note if existing else "", text)
        finally:                            # kept in memory and listed even when the disk refused it
            self.refresh()
            self.show()
            self.raise_()
        row = self.row_of(coord)
        self.table.setCurrentCell(row, COL_NOTE)
        self.table.editItem(self.table.item(row, COL_NOTE))

    def _item_changed(self, item: QTableWidgetItem) -> None:
        if item.column() == COL_NOTE:
            coord = self.table.item(item.row(), COL_COORD).text()
            try:
                self.userdata.update_bookmark(coord, item.text())
            except OSError as exc:
                self.error.emit(self.tr("备注未能保存（{exc}）。备注仍在书签栏中；可点「另存…」存到其他位置，"
                                        "或检查磁盘后再编辑一次。").format(exc=exc))

    def commit_edits(self) -> None:
        """A note still being typed is saved too (moving the current cell commits the editor)."""
        self.table.setCurrentIndex(QModelIndex())

    def _double_clicked(self, row: int, column: int) -> None:
        if column != COL_NOTE:
            self.openRequested.emit(self.table.item(row, COL_COORD).text())

    def selected_coord(self) -> str | None:
        row = self.table.currentRow()
        return self.table.item(row, COL_COORD).text() if row >= 0 else None

    def open_selected(self) -> None:
        coord = self.selected_coord()
        if coord:
            self.openRequested.emit(coord)

    def remove_selected(self) -> None:
        coord = self.selected_coord()
        if coord:
            try:
                self.userdata.remove_bookmark(coord)
            except OSError as exc:
                self.error.emit(self.tr("书签未能删除（{exc}）。").format(exc=exc))
            self.refresh()
