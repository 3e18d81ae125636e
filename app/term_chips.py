"""The chosen classical terms, visible and editable.

A wrong term is the quietest failure of the whole chain: the passages found
are near the topic and the answer still reads well.  So every term is shown
with where it came from (词表 / 问句 / 罪名 / 模型 / 自定), and the reader can
remove one, add one, and ask again with exactly those terms.
"""
from __future__ import annotations

import re

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QLineEdit, QPushButton, QScrollArea,
                               QToolButton, QWidget)

from nanshan_core.i18n import localize

from .citations import SOURCE_LABELS, label


class Chip(QFrame):
    removed = Signal(str)

    def __init__(self, text: str, source: str, parent=None):
        super().__init__(parent)
        self.setObjectName("chip")
        self.term = text
        self.source = source
        self.label = QLabel(text)
        self.source_label = QLabel(label(SOURCE_LABELS, source))
        self.source_label.setObjectName("chipSource")
        self.remove_button = QToolButton()
        self.remove_button.setObjectName("chipRemove")
        self.remove_button.setText("×")
        self.remove_button.setToolTip(self.tr("去掉{term}").format(term=f"「{text}」"))
        self.remove_button.clicked.connect(lambda: self.removed.emit(self.term))
        self.setToolTip(self.tr("{term}来自{source}").format(term=f"「{text}」", source=label(SOURCE_LABELS, source)))
        lay = QHBoxLayout(self)
        lay.setContentsMargins(10, 2, 4, 2)
        lay.setSpacing(4)
        lay.addWidget(self.label)
        lay.addWidget(self.source_label)
        lay.addWidget(self.remove_button)


class TermChips(QWidget):
    reaskRequested = Signal(list)
    message = Signal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.chips: list[Chip] = []
        self.origins: dict[str, str] = {}
        self.chip_row = QWidget()
        self.chip_layout = QHBoxLayout(self.chip_row)
        self.chip_layout.setContentsMargins(0, 0, 0, 0)
        self.chip_layout.setSpacing(6)
        self.chip_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidget(self.chip_row)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll = scroll
        self.add_edit = QLineEdit()
        self.add_edit.setPlaceholderText(self.tr("添加用语（律典原文的写法）"))
        self.add_edit.setMaximumWidth(220)
        self.add_edit.returnPressed.connect(self.add_from_edit)
        self.add_button = QPushButton(self.tr("添加"))
        self.add_button.clicked.connect(self.add_from_edit)
        self.reask_button = QPushButton(self.tr("重新检索"))
        self.reask_button.setToolTip(self.tr("只用上面这些检索用语重新检索"))
        self.reask_button.clicked.connect(self._reask)
        self.category = QLabel()
        self.category.setObjectName("categoryLabel")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(self.tr("检索用语：")))
        lay.addWidget(scroll, 1)
        lay.addWidget(self.add_edit)
        lay.addWidget(self.add_button)
        lay.addWidget(self.reask_button)
        lay.addWidget(self.category)
        self.set_enabled(False)
        self.fit_height()

    # -- state ------------------------------------------------------------------------
    def set_selection(self, selection, fresh: bool) -> None:
        """Show a selection; ``fresh`` when the engine chose the terms (not the reader)."""
        if fresh:
            self.origins = {t.text: t.source for t in selection.terms}
        self.clear_chips()
        for t in selection.terms:
            source = self.origins.get(t.text, t.source) if t.source == "user" else t.source
            self._add_chip(t.text, source)
        self.fit_height()
        self.category.setText(self.tr("类别：{category}").format(category=localize(selection.category)))
        self.set_enabled(selection.refusal is None)

    def fit_height(self) -> None:
        """As tall as a chip in the current style and font, so no chip is ever cut off."""
        probe = self.chips[0].sizeHint().height() if self.chips else self.add_edit.sizeHint().height()
        self.scroll.setFixedHeight(probe + 6)

    def changeEvent(self, event):
        super().changeEvent(event)
        if event.type() in (QEvent.Type.StyleChange, QEvent.Type.FontChange) and hasattr(self, "scroll"):
            self.fit_height()

    def set_enabled(self, on: bool) -> None:
        for w in (self.add_edit, self.add_button, self.reask_button):
            w.setEnabled(on)

    def clear_chips(self) -> None:
        for chip in self.chips:
            self.chip_layout.removeWidget(chip)
            chip.hide()             # gone now, not only once the event loop deletes it
            chip.deleteLater()
        self.chips = []

    def reset(self) -> None:
        self.clear_chips()
        self.category.clear()
        self.set_enabled(False)

    def terms(self) -> list[str]:
        return [c.term for c in self.chips]

    def sources(self) -> list[str]:
        return [c.source for c in self.chips]

    # -- editing ------------------------------------------------------------------------
    def _add_chip(self, text: str, source: str) -> Chip:
        chip = Chip(text, source)
        chip.removed.connect(self.remove_term)
        self.chip_layout.insertWidget(len(self.chips), chip)
        self.chips.append(chip)
        return chip

    def remove_term(self, text: str) -> None:
        for chip in [c for c in self.chips if c.term == text]:
            self.chips.remove(chip)
            self.chip_layout.removeWidget(chip)
            chip.hide()
            chip.deleteLater()

    def add_term(self, text: str) -> bool:
        text = text.strip()
        if not text:
            return False
        if text in self.terms():
            self.message.emit(self.tr("{term}已经在检索用语里了").format(term=f"「{text}」"))
            return False
        self._add_chip(text, self.origins.get(text, "user"))
        self.fit_height()
        return True

    def add_from_edit(self) -> None:
        """Several terms may be typed at once, separated by spaces or 、 ， ；."""
        words = [w for w in re.split(r"[\s,，、;；]+", self.add_edit.text()) if w]
        added = [w for w in words if self.add_term(w)]
        if added or not words:
            self.add_edit.clear()

    def _reask(self) -> None:
        self.add_from_edit()           # a term typed but not yet added counts
        self.reaskRequested.emit(self.terms())
