"""A message line inside the window, for anything the user should read.

Bad input and failures are said here, in the window, where the user is
looking — never as a dialog per error and never as a traceback.  Messages
about the user's own files (a history file moved aside) stay until closed.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton

from nanshan_core.i18n import localize

from .i18n import again


class MessageBar(QFrame):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.setObjectName("messageBar")
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        close = QToolButton()
        close.setText("×")
        close.setToolTip(self.tr("关闭此消息"))
        close.setAutoRaise(True)
        close.clicked.connect(self.clear)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 4, 4)
        lay.addWidget(self.label, 1)
        lay.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self.kind = ""
        self.tag = ""
        self._text = ""              # as given: ours through tr(), the engine's in 简体
        self.hide()

    def show_message(self, text: str, kind: str = "info", tag: str = "") -> None:
        """``tag`` names what the message is about, so that fixing it can clear it (and nothing else)."""
        self.kind, self.tag = kind, tag
        self.setProperty("kind", kind)
        self.style().unpolish(self)
        self.style().polish(self)
        self._text = text
        self.label.setText(localize(text))     # the engine's messages come in 简体
        self.show()

    def changeEvent(self, event):
        """A message already shown is said again in the new language."""
        if event.type() == QEvent.Type.LanguageChange and self._text:
            self._text = again(self._text)
            self.label.setText(localize(self._text))
        super().changeEvent(event)

    def error(self, text: str, tag: str = "") -> None:
        self.show_message(text, "error", tag)

    def info(self, text: str, tag: str = "") -> None:
        self.show_message(text, "info", tag)

    def text(self) -> str:
        return self.label.text() if self.isVisible() else ""

    def clear(self, tag: str | None = None) -> None:
        """Clear the message; with ``tag``, only a message about that."""
        if tag is not None and tag != self.tag:
            return
        self.kind, self.tag, self._text = "", "", ""
        self.label.clear()
        self.hide()
