"""The first screen and 关于, driven as a reader drives them (offscreen, real pack, real widgets).

Links are clicked with the mouse where they are drawn, so a click goes the
way a reader's does: QTextBrowser → TextPane.linkActivated → the window.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gui_actions import ask_by_typing, click_link
from nanshan_core import __version__
from nanshan_core.ask.retrieve import LAYERS

from app.about_dialog import AboutDialog
from app.citations import href
from app.theme import palette
from app.welcome import coord_reading, load_examples, sample_coord

TIMEOUT = 60_000
EXAMPLES = load_examples()




def test_empty_window_shows_every_example_and_how_to_read_a_coordinate(open_window):
    w = open_window(timeout=TIMEOUT)
    text = w.answer_view.toPlainText()
    links = w.answer_view.link_targets("ask")
    for e in EXAMPLES:
        assert e.question in text and e.category in text
        assert href("ask", e.question) in links
    coord = sample_coord()
    assert coord in text and coord_reading(coord) in text
    assert href("coord", coord) in w.answer_view.link_targets("coord")
    assert "行级" in text and "段级" in text
    assert "最近问过" not in text                 # nothing asked yet, so no empty heading
    assert not w.layer_splitter.isVisible()       # the first screen has the page: no empty panes under it


def test_clicking_an_example_asks_it(qtbot, open_window):
    w = open_window(timeout=TIMEOUT)
    example = EXAMPLES[-1]
    with qtbot.waitSignal(w.resultShown, timeout=TIMEOUT) as blocker:
        click_link(w.answer_view, href("ask", example.question))
    result = blocker.args[0]
    assert result.question == example.question and not result.refused
    assert w.question_bar.text() == example.question
    assert w.status_label.text().startswith(f"类别：{example.category}")
    assert all(w.panes[layer].materials for layer in LAYERS) and w.layer_splitter.isVisible()
    qtbot.waitUntil(lambda: w.layer_splitter.height() > 200)   # back at their height, not a hidden child's 0
    shown = w.answer_view.toPlainText()
    assert "可以这样问" not in shown and "【律本明文】" in shown      # the answer replaced the welcome


def test_clicking_the_coordinate_opens_its_line(qtbot, open_window, full_pack):
    w = open_window(timeout=TIMEOUT)
    coord = sample_coord()
    with qtbot.waitSignal(w.linePainted, timeout=TIMEOUT) as blocker:
        click_link(w.answer_view, href("coord", coord))
    assert blocker.args[0] == coord
    reader = w.current_reader()
    assert reader is not None and reader.model.fascicle.id == full_pack.line(coord).fascicle


def test_asked_questions_are_listed_newest_first_next_time(qtbot, open_window):
    w = open_window(timeout=TIMEOUT)
    first, second = "比丘可以喝酒吗？", "什么情况下会被赶出僧团？"
    ask_by_typing(qtbot, w, first)
    ask_by_typing(qtbot, w, second)
    w.close()

    again = open_window(timeout=TIMEOUT)
    text = again.answer_view.toPlainText()
    assert "最近问过" in text
    assert text.index(second) < text.index(first)           # newest first
    history_links = [h for h in again.answer_view.link_targets("ask")
                     if h not in {href("ask", e.question) for e in EXAMPLES}]
    assert history_links == [href("ask", second), href("ask", first)]
    with qtbot.waitSignal(again.resultShown, timeout=TIMEOUT) as blocker:
        click_link(again.answer_view, href("ask", first))
    assert blocker.args[0].question == first and again.question_bar.text() == first


def text_size(w) -> float:
    return w.answer_view.document().defaultFont().pointSizeF()


def test_welcome_follows_the_theme_and_the_zoom(open_window):
    w = open_window(timeout=TIMEOUT)
    assert text_size(w) == pytest.approx(w.content_point_size())
    try:
        w.set_theme("high_contrast")
        assert palette("high_contrast").link in w.answer_view.toHtml()
        assert EXAMPLES[0].question in w.answer_view.toPlainText()
        # the new style sheet must not drop the text font back to the interface's
        assert text_size(w) == pytest.approx(w.content_point_size())
        before = text_size(w)
        w.zoom_in()
        assert text_size(w) > before and EXAMPLES[0].question in w.answer_view.toPlainText()
    finally:
        w.zoom_reset()
        w.set_theme("standard")
    assert palette("standard").link in w.answer_view.toHtml()
    assert text_size(w) == pytest.approx(w.content_point_size())


def test_about_names_version_scope_licence_and_disclaimer_and_closes_on_esc(qtbot, open_window):
    w = open_window(timeout=TIMEOUT)
    w.act_about.trigger()
    dialogs = [d for d in QApplication.topLevelWidgets() if isinstance(d, AboutDialog) and d.isVisible()]
    assert len(dialogs) == 1
    dialog = dialogs[0]
    qtbot.waitExposed(dialog)
    text = dialog.plain_text()
    assert f"版本 {__version__}" in text
    cb = w.session.pack.manifest["cbeta"]
    assert "CBETA" in text and cb["licence"] in text and cb["edition"] in text
    assert "不对任何人的行为作出裁定" in text
    for kind in ("医疗建议", "法律与税务建议", "理财与投资建议", "占卜算命", "评判具体寺院或个人"):
        assert kind in text
    with qtbot.waitSignal(dialog.finished, timeout=5000):
        QTest.keyClick(dialog, Qt.Key.Key_Escape)
