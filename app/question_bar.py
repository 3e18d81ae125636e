"""The question box: type, press Enter, see that the app is working.

The box keeps what was typed while the answer is being computed, and every
question asked goes into the history (saved at once) and its drop-down.
While a model writes the answer, 停止 (or Esc) ends the generation; what was
written so far is still verified and shown.
"""
from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

PLACEHOLDER = QT_TRANSLATE_NOOP("QuestionBar", "用白话提问，例如：什么情况下会被赶出僧团？")


class QuestionBar(QWidget):
    askRequested = Signal(str)
    stopRequested = Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.box = QComboBox()
        self.box.setEditable(True)
        self.box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.box.setMaxVisibleItems(15)
        self.box.lineEdit().setPlaceholderText(self.tr(PLACEHOLDER))
        self.box.lineEdit().setClearButtonEnabled(True)
        self.box.lineEdit().returnPressed.connect(self._ask)
        self.box.setToolTip(self.tr("按回车提问；下拉可选以前问过的问题"))
        self.ask_button = QPushButton(self.tr("提问"))
        self.ask_button.clicked.connect(self._ask)
        self.busy = QProgressBar()
        self.busy.setRange(0, 0)
        self.busy.setMaximumWidth(120)
        self.busy.setTextVisible(False)
        self.busy.hide()
        self.busy_label = QLabel()
        self.busy_label.hide()
        self.stop_button = QPushButton(self.tr("停止"))
        self.stop_button.setToolTip(self.tr("停止模型生成（Esc）：已写出的部分照样核验后显示"))
        self.stop_button.clicked.connect(self.stopRequested)
        self.stop_button.hide()
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.box, 1)
        lay.addWidget(self.ask_button)
        lay.addWidget(self.busy)
        lay.addWidget(self.busy_label)
        lay.addWidget(self.stop_button)

    def text(self) -> str:
        return self.box.currentText().strip()

    def set_text(self, text: str) -> None:
        self.box.setEditText(text)

    def set_history(self, history: list[str]) -> None:
        current = self.box.currentText()
        self.box.blockSignals(True)
        self.box.clear()
        self.box.addItems(history)
        self.box.setCurrentIndex(-1)
        self.box.setEditText(current)
        self.box.blockSignals(False)

    def history(self) -> list[str]:
        return [self.box.itemText(i) for i in range(self.box.count())]

    def set_busy(self, busy: bool, text: str = "", stoppable: bool = False) -> None:
        self.busy.setVisible(busy)
        self.busy_label.setVisible(busy and bool(text))
        self.busy_label.setText(text)
        self.ask_button.setEnabled(not busy)
        self.stop_button.setVisible(busy and stoppable)
        self.stop_button.setEnabled(busy and stoppable)

    def set_status(self, text: str) -> None:
        """Change what the busy label says without touching the rest (a generation moving on)."""
        self.busy_label.setText(text)
        self.busy_label.setVisible(self.busy.isVisible() and bool(text))

    def _ask(self) -> None:
        self.askRequested.emit(self.text())
