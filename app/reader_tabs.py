"""The reader's tabs beside 问答 and 检索: one tab per fascicle, opened at a coordinate.

Every way into the text — a coordinate clicked in an answer, typed in the jump box,
a bookmark, the library, a concordance hit — ends here, so a bad coordinate gets
one message wherever it was typed, and the number of open fascicles stays bounded
(the oldest tab gives way; each holds ten thousand measured rows).
"""
from __future__ import annotations

from PySide6.QtCore import QObject

from nanshan_core.corpus import coords
from nanshan_core.errors import NanshanError

from .reader import ReaderTab

MAX_READER_TABS = 8


class ReaderTabs(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self.tabs = window.tabs
        self.tabs.tabCloseRequested.connect(self.close_tab)

    def all(self) -> list[ReaderTab]:
        return [self.tabs.widget(i) for i in range(self.tabs.count())
                if isinstance(self.tabs.widget(i), ReaderTab)]

    def current(self) -> ReaderTab | None:
        w = self.tabs.currentWidget()
        return w if isinstance(w, ReaderTab) else None

    def for_fascicle(self, fid: int) -> ReaderTab:
        """The tab showing the fascicle, or a new one (the oldest closing past the limit)."""
        for reader in self.all():
            if reader.model.fascicle and reader.model.fascicle.id == fid:
                return reader
        readers = self.all()
        if len(readers) >= MAX_READER_TABS:
            self.tabs.removeTab(self.tabs.indexOf(readers[0]))
            readers[0].deleteLater()
        w = self.window
        reader = ReaderTab(w.session, w.fonts, w.pal, w.reader_point_size())
        reader.message.connect(w.notify)
        reader.error.connect(w.messages.error)
        reader.bookmarkRequested.connect(w.add_bookmark)
        reader.targetPainted.connect(w.linePainted)
        reader.titleChanged.connect(lambda title, r=reader: self._retitle(r, title))
        reader.lineShown.connect(w.library.locate)
        self.tabs.addTab(reader, self.tr("阅读"))
        # give the new tab its final size before ten thousand rows are measured against it
        reader.setGeometry(self.tabs.currentWidget().geometry())
        self.tabs.setCurrentWidget(reader)
        reader.open_fascicle(fid)
        return reader

    def _retitle(self, reader: ReaderTab, title: str) -> None:
        i = self.tabs.indexOf(reader)
        if i >= 0:
            self.tabs.setTabText(i, title)
            self.tabs.setTabToolTip(i, reader.model.fascicle.key if reader.model.fascicle else "")

    def close_tab(self, index: int) -> None:
        w = self.tabs.widget(index)
        if isinstance(w, ReaderTab):         # 问答 and 检索 stay
            self.tabs.removeTab(index)
            w.deleteLater()

    def open(self, text: str) -> str | None:
        """Open the reader at a coordinate in any accepted form; a bad one gets a message, not a crash."""
        w = self.window
        try:
            line = w.session.pack.line(text.strip() if text else "")
        except NanshanError as exc:          # CoordError: malformed or not in the pack
            w.messages.error(str(exc), tag="coord")
            return None
        reader = self.for_fascicle(line.fascicle)
        self.tabs.setCurrentWidget(reader)
        reader.open_fascicle(line.fascicle, target=line.coord)
        w.messages.clear("coord")
        w.notify(f"{line.coord}　{coords.parse(line.coord).human()}")
        return line.coord

    def open_finding(self, coord: str, phrase: str) -> str | None:
        """Open a concordance hit: the reader at its line, the phrase found and marked there."""
        shown = self.open(coord)
        reader = self.current()
        if shown and reader is not None and phrase:
            reader.find_edit.setText(phrase)
        return shown
