"""The answer view, the three layer panes (律本 / 道宣 / 元照) and the fourth, 其他.

Each is a QTextBrowser showing a document built in answer_html; links are
our own addresses and are handed to the window instead of being followed.
Font scaling changes the document's default font, so the whole pane — card
text, headings, small print — scales together.
"""
from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QColor, QFont, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QLabel, QTextBrowser, QToolButton, QVBoxLayout, QWidget

from . import answer_html as ah
from nanshan_core.ask.retrieve import LAYERS, OTHER

from .citations import LAYER_TITLES, label, parse_href
from .i18n import again
from .theme import Palette


class TextPane(QTextBrowser):
    linkActivated = Signal(str, str)      # kind, value

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(lambda url: self.linkActivated.emit(*parse_href(url.toString())))

    # -- a provisional (streamed, unverified) text ---------------------------------------
    def begin_provisional(self, html: str) -> None:
        """Show streamed text: not selectable and without a context menu, so an unverified
        draft cannot be copied out as if it were the answer."""
        self.setHtml(html)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.NoContextMenu)
        self.moveCursor(QTextCursor.MoveOperation.End)

    def append_provisional(self, text: str, color: str) -> None:
        """Add streamed text at the end, keeping the view at the bottom if it was there."""
        bar = self.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 4
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        fmt = QTextCharFormat()
        fmt.setForeground(QColor(color))
        cursor.insertText(text, fmt)
        if at_end:
            bar.setValue(bar.maximum())

    def end_provisional(self) -> None:
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)

    def set_text_font(self, font: QFont) -> None:
        self.setFont(font)
        self.document().setDefaultFont(font)

    def anchor_position(self, target: str) -> int | None:
        """Document position of the first link to ``target`` (used to click it in tests and benches)."""
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                frag = it.fragment()
                if frag.charFormat().anchorHref() == target:
                    return frag.position() + min(1, frag.length() - 1)
                it += 1
            block = block.next()
        return None

    def link_point(self, target: str):
        """Viewport point of a link, scrolling it into view first; None if there is no such link."""
        pos = self.anchor_position(target)
        if pos is None:
            return None
        cursor = self.textCursor()
        cursor.setPosition(pos)
        self.setTextCursor(cursor)
        self.ensureCursorVisible()
        rect = self.cursorRect(cursor)
        return rect.center() + QPoint(2, 0)

    def link_targets(self, kind: str) -> list[str]:
        out = []
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                h = it.fragment().charFormat().anchorHref()
                if h.startswith(kind + ":") and h not in out:
                    out.append(h)
                it += 1
            block = block.next()
        return out


class LayerPane(QWidget):
    """One layer: a title with the count, and the cards of its materials."""

    def __init__(self, layer: str, parent=None):
        super().__init__(parent)
        self.layer = layer
        self.title = QLabel(label(LAYER_TITLES, layer))
        self.title.setObjectName("paneTitle")
        self.view = TextPane()
        self.view.setObjectName(f"pane_{layer}")
        self.materials: list = []
        self.citations: list = []
        self._render_args = None
        self._note = ""
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(2)
        lay.addWidget(self.title)
        lay.addWidget(self.view, 1)

    def show_materials(self, materials: list, citations: list, terms: list[str], session, pal: Palette,
                       focus: int | None = None) -> None:
        self.materials, self.citations = materials, citations
        self._render_args = (terms, session)
        title = label(LAYER_TITLES, self.layer)
        self.title.setText(f"{title}（{len(materials)}）" if materials else title)
        self.view.setHtml(ah.pane_html(materials, citations, terms, session.fold, session.fold_query,
                                       session.forms, pal, focus))

    def rerender(self, pal: Palette, focus: int | None = None) -> None:
        if self._render_args is not None:
            terms, session = self._render_args
            bar = self.view.verticalScrollBar().value()
            self.show_materials(self.materials, self.citations, terms, session, pal, focus)
            self.view.verticalScrollBar().setValue(bar)

    def clear(self, note: str = "") -> None:
        self.materials, self.citations, self._render_args = [], [], None
        self._note = note
        self.title.setText(label(LAYER_TITLES, self.layer))
        self.view.setHtml(f"<p>{ah.esc(note)}</p>" if note else "")

    def retranslate(self) -> None:
        """After a language switch, a note in the new language (cards are rendered again by the window)."""
        if self._render_args is None:
            self.clear(again(self._note))

    def has_material(self, n: int) -> bool:
        return any(m.n == n for m in self.materials)

    def citation(self, n: int, k: int):
        cits = [c for c in self.citations if c.material == n]
        return cits[k] if 0 <= k < len(cits) else None

    def focus_material(self, n: int, pal: Palette) -> None:
        self.rerender(pal, focus=n)
        self.view.scrollToAnchor(f"m{n}")

    def card_text(self) -> str:
        return self.view.toPlainText()


class OtherPane(LayerPane):
    """Works outside the three layers (a wider pack's 其他律部 / 其他注疏), shown only for an answer
    where one of them holds the strongest passage (Retriever.other_picks); absent otherwise.

    It opens expanded when it appears — it holds the passage that matched best, and a reader
    should not have to find it — and folds to a narrow strip at the side with one click; the
    fold is kept for the next answers until the reader opens it again.  Each card names its
    work's group, so a passage of 其他律部 is never mistaken for the 律本 pane's."""

    STRIP = 34       # width of the folded strip

    def __init__(self, parent=None):
        super().__init__(OTHER, parent)
        self.collapsed = False
        self.toggle = QToolButton()
        self.toggle.setObjectName("otherToggle")
        self.toggle.setAutoRaise(True)
        self.toggle.clicked.connect(lambda: self.set_collapsed(not self.collapsed))
        self.note = QLabel(self.tr("三层之外的律部著作：本问最相关的段落在其中。点标题可折叠。"))
        self.note.setObjectName("paneNote")
        self.note.setWordWrap(True)
        lay = self.layout()
        lay.removeWidget(self.title)
        self.title.hide()
        lay.insertWidget(0, self.toggle)
        lay.insertWidget(1, self.note)
        self.hide()
        self._relabel()

    def _relabel(self) -> None:
        n = len(self.materials)
        if self.collapsed:     # a vertical tab: one character a line
            self.toggle.setText("◂\n" + "\n".join(self.tr("其他")) + (f"\n{n}" if n else ""))
            self.toggle.setToolTip(self.tr("展开「其他」：三层之外的律部著作"))
        else:
            label = self.tr("其他（{0}）").format(n) if n else self.tr("其他")
            self.toggle.setText("▸ " + label)
            self.toggle.setToolTip(self.tr("折叠「其他」"))

    def set_collapsed(self, on: bool) -> None:
        self.collapsed = bool(on)
        self.view.setVisible(not self.collapsed)
        self.note.setVisible(not self.collapsed)
        self.setMaximumWidth(self.STRIP if self.collapsed else 16777215)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self._relabel()
        splitter = self.parentWidget()
        if not self.collapsed and hasattr(splitter, "sizes"):   # take a fair share back
            sizes = splitter.sizes()
            share = sum(sizes) // max(1, sum(1 for w in sizes if w))
            i = splitter.indexOf(self)
            if i >= 0 and sizes[i] < share // 2:
                sizes[i] = share
                splitter.setSizes(sizes)

    def show_materials(self, materials, citations, terms, session, pal, focus=None) -> None:
        super().show_materials(materials, citations, terms, session, pal, focus)
        self.setVisible(bool(materials))
        self.set_collapsed(self.collapsed)

    def clear(self, note: str = "") -> None:
        super().clear(note)
        self.hide()
        self._relabel()

    def focus_material(self, n: int, pal: Palette) -> None:
        if self.collapsed:          # a link to one of its cards opens it
            self.set_collapsed(False)
        super().focus_material(n, pal)


PANE_LAYERS = (*LAYERS, OTHER)


def make_pane(layer: str) -> LayerPane:
    return OtherPane() if layer == OTHER else LayerPane(layer)
