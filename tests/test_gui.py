"""The desktop app, driven as a user drives it, on the real corpus pack (offscreen).

Questions are typed and Enter pressed; links are clicked with the mouse where
they are drawn; what is checked is what a user would look at: the three panes
filled, the reader showing the line highlighted inside the visible viewport
(on the painted pixels), the message in the window for a bad coordinate, the
coordinates inside the exported handout.  User data always lives in tmp_path.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from gui_actions import ask_by_typing as ask, click_link
from nanshan_core.corpus import coords
from nanshan_core.userdata import UserData

from app.citations import SOURCE_LABELS
from app.display import is_private_use
from app.fonts import drawable
from app.theme import stylesheet
from app.window import MainWindow, PRESENTATION_ZOOM

ROOT = Path(__file__).resolve().parent.parent
EXPEL = "什么情况下会被赶出僧团？"
REFUSED = "灵隐寺的住持是不是破戒了？"
TIMEOUT = 60_000


# -- fixtures ------------------------------------------------------------------------------------

@pytest.fixture
def make_window(open_window):
    return lambda: open_window(timeout=TIMEOUT)


@pytest.fixture
def window(make_window) -> MainWindow:
    return make_window()



@pytest.fixture
def answered(qtbot, window):
    return window, ask(qtbot, window, EXPEL)



def visible_in(view, position: int) -> bool:
    cursor = QTextCursor(view.document())
    cursor.setPosition(position)
    return view.viewport().rect().contains(view.cursorRect(cursor))


def no_dialogs() -> bool:
    return not [w for w in QApplication.topLevelWidgets() if isinstance(w, (QDialog, QMessageBox)) and w.isVisible()]


def assert_line_shown(w: MainWindow, coord: str, pack) -> None:
    """The reader shows the line's fascicle, the line is the target, highlighted and fully visible."""
    reader = w.current_reader()
    assert reader is not None, "no reader tab is showing"
    line = pack.line(coord)
    assert reader.model.fascicle.id == line.fascicle
    assert reader.target_coord == line.coord
    row = reader.model.row_of[line.coord]
    assert reader.model.index(row).data() == line.text        # the row holds the line as CBETA has it
    rect = reader.row_rect(row)
    viewport = reader.view.viewport().rect()
    assert viewport.contains(rect), f"{coord}: row {rect} outside viewport {viewport}"
    bar = reader.view.verticalScrollBar()
    assert rect.top() < viewport.height() / 2 or bar.value() == bar.maximum(), \
        "target line should be near the top (unless the fascicle ends below it)"
    assert reader.target_painted_highlighted(), "target line is not painted highlighted"


# -- asking ---------------------------------------------------------------------------------------

def test_ask_fills_three_panes_off_the_gui_thread(qtbot, window, engine, monkeypatch):
    threads = []
    real_ask = engine.ask

    def recording_ask(*args, **kwargs):
        threads.append(threading.current_thread())
        return real_ask(*args, **kwargs)

    monkeypatch.setattr(window.session.engine, "ask", recording_ask)
    edit = window.question_bar.box.lineEdit()
    edit.setText(EXPEL)
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as blocker:
        QTest.keyClick(edit, Qt.Key.Key_Return)
        assert window.question_bar.busy.isVisible(), "no busy indicator while the answer is computed"
    result = blocker.args[0]
    assert threads and threads[0] is not threading.main_thread(), "Engine.ask ran on the GUI thread"
    assert not window.question_bar.busy.isVisible()
    assert not result.refused
    assert not window.panes["other"].isVisible()       # the default pack: three panes only
    for layer in ("vinaya", "daoxuan", "yuanzhao"):
        pane = window.panes[layer]
        mats = [m for m in result.materials if m.layer == layer]
        assert mats, f"no {layer} materials"
        text = pane.card_text()
        for m in mats:
            assert m.start_coord in text and m.title in text and f"卷{m.juan}" in text
        assert any(lvl in text for lvl in ("行级", "段级", "此处出处未通过核验"))
    answer = window.answer_view.toPlainText()
    assert "【律本明文】" in answer
    line_cits = [c for c in result.answer.citations if c.level == "line"]
    assert line_cits and all(c.coord in answer for c in line_cits)
    assert window.chips.terms() == result.selection.texts
    assert set(window.chips.sources()) <= set(SOURCE_LABELS)
    assert [c.source_label.text() for c in window.chips.chips] == \
        [SOURCE_LABELS[t.source] for t in result.selection.terms]
    assert result.selection.category in window.chips.category.text()
    assert window.userdata.history[0] == EXPEL
    assert window.question_bar.history()[0] == EXPEL


def test_clue_and_link_materials_are_marked(answered):
    window, result = answered
    for m in result.materials:
        pane = window.panes[m.layer]
        pos = pane.view.anchor_position(f"coord:{m.start_coord}")
        block = pane.view.document().findBlock(pos).text()
        expected = {"clue": "线索", "link": "注释对应", "search": "检索", "topic": "主题"}[m.source]
        assert expected in block, f"material {m.n} ({m.source}) not marked as {expected}: {block}"


def test_a_card_read_on_over_the_other_layer_says_so_where_it_skips(qtbot, window):
    # a 行宗記 material reading 元照's paragraphs on over 道宣's 疏 between them shows 〔中略〕 at
    # each seam: the reader checking the printed page knows other text stands there
    result = ask(qtbot, window, "旧坐具还能用，我又做了一个新的，没有把旧的补在上面，算犯戒吗？")
    m = next(m for m in result.materials if m.seams)
    pane = window.panes[m.layer]
    pos = pane.view.anchor_position(f"m{m.n}")
    card = pane.view.document().toPlainText()[pos:]
    s = m.seams[0]
    assert m.text[s - 6:s] + "〔中略〕" + m.text[s:s + 6] in card.replace("\n", "")
    assert m.text[s - 6:s] + m.text[s:s + 6] not in card.replace("\n", "")


def test_refused_question_shows_only_the_refusal(qtbot, window):
    result = ask(qtbot, window, REFUSED)
    assert result.refused
    text = window.answer_view.toPlainText()
    assert result.selection.refusal.reply in text
    assert "材料" not in text and "【" not in text
    for pane in window.panes.values():
        assert not pane.materials
    assert window.chips.terms() == []
    assert "超范围" in window.chips.category.text()
    assert not window.act_export_html.isEnabled() and not window.act_export_pdf.isEnabled()


def test_empty_question_is_refused_in_the_window(qtbot, window):
    # the warm-up task leaves the runner just after the window says it is ready (its own queued
    # signal): wait for that, so that a task started by the empty question is what would show
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=TIMEOUT)
    QTest.keyClick(window.question_bar.box.lineEdit(), Qt.Key.Key_Return)
    assert window.messages.isVisible()
    assert "请输入问题" in window.messages.text()
    assert not window.runner.busy and no_dialogs()


def test_a_question_without_han_characters_gets_the_message_in_the_window(qtbot, window):
    qtbot.waitUntil(lambda: not window.runner.busy, timeout=TIMEOUT)
    window.question_bar.box.lineEdit().setText("???")
    QTest.keyClick(window.question_bar.box.lineEdit(), Qt.Key.Key_Return)
    assert window.messages.isVisible()
    assert "请用中文提问" in window.messages.text()
    assert not window.runner.busy and no_dialogs()


def test_edited_terms_are_asked_exactly(qtbot, answered):
    window, first = answered
    assert len(first.selection.texts) >= 2
    dropped = first.selection.texts[1]
    chip = next(c for c in window.chips.chips if c.term == dropped)
    QTest.mouseClick(chip.remove_button, Qt.MouseButton.LeftButton)
    assert dropped not in window.chips.terms()
    window.chips.add_edit.setText("波羅夷")
    QTest.mouseClick(window.chips.add_button, Qt.MouseButton.LeftButton)
    expected = [t for t in first.selection.texts if t != dropped] + ["波羅夷"]
    assert window.chips.terms() == expected
    with qtbot.waitSignal(window.resultShown, timeout=TIMEOUT) as blocker:
        QTest.mouseClick(window.chips.reask_button, Qt.MouseButton.LeftButton)
    second = blocker.args[0]
    assert second.selection.texts == expected
    assert all(t.source == "user" for t in second.selection.terms)
    # a kept term still says where it came from; the new one is the reader's own
    sources = dict(zip(window.chips.terms(), window.chips.sources()))
    assert sources["波羅夷"] == "user"
    assert sources[expected[0]] == first.selection.terms[0].source
    assert any("波羅夷" in m.terms for m in second.materials)


def test_material_link_scrolls_to_its_card(answered):
    window, result = answered
    # the cited material that sits lowest in its pane needs the pane to scroll
    cit = max((c for c in result.answer.citations if c.material),
              key=lambda c: [m.n for m in result.materials if m.layer == next(
                  x.layer for x in result.materials if x.n == c.material)].index(c.material))
    m = next(x for x in result.materials if x.n == cit.material)
    pane = window.panes[m.layer]
    pane.view.verticalScrollBar().setValue(0)
    click_link(window.answer_view, f"mat:{m.n}")
    pos = pane.view.anchor_position(f"coord:{m.start_coord}")
    assert pos is not None and visible_in(pane.view, pos)
    assert pane.view.verticalScrollBar().value() > 0


def test_copy_citation_in_cbeta_form(answered):
    window, result = answered
    pane = window.panes["daoxuan"]
    cit = next(c for c in result.answer.panes["daoxuan"] if c.level == "line")
    k = [c for c in pane.citations if c.material == cit.material].index(cit)
    click_link(pane.view, f"copy:{cit.material}.{k}")
    text = QApplication.clipboard().text()
    assert text == f"「{cit.quote}」({coords.parse(cit.coord).cbeta()})"
    assert text.startswith("「") and "(CBETA, " in text


# -- coordinates and the reader ------------------------------------------------------------------

def test_click_coordinate_opens_reader_at_highlighted_visible_line(qtbot, answered, full_pack):
    window, result = answered
    pane = window.panes["yuanzhao"]
    cit = [c for c in result.answer.panes["yuanzhao"] if c.level == "line"][-1]
    with qtbot.waitSignal(window.linePainted, timeout=10_000):
        click_link(pane.view, f"coord:{cit.coord}")
    assert_line_shown(window, cit.coord, full_pack)
    c = coords.parse(cit.coord)
    locator = window.current_reader().locator
    assert locator.text.toolTip() == c.human()
    assert f"第 <b>{c.page}</b> 頁" in locator.human_text()
    assert locator.diagram.target == (c.col, c.line)
    assert locator.diagram.columns[c.col] >= c.line
    # the answer text's own coordinate links lead to the reader too
    window.tabs.setCurrentWidget(window.ask_page)
    first = next(x for x in result.answer.citations if x.level == "line")
    click_link(window.answer_view, f"coord:{first.coord}")
    assert_line_shown(window, first.coord, full_pack)


@pytest.mark.parametrize("text, expected", [
    ("T40n1805_p0345b14", "T40n1805_p0345b14"),
    ("CBETA 2024.R1, T40, no. 1805, p. 345b14", "T40n1805_p0345b14"),
    ("大正藏 40 345b14", "T40n1805_p0345b14"),
    ("X39n0714_p0710a23", "X39n0714_p0710a23"),
])
def test_jump_box_accepts_citation_forms(qtbot, window, full_pack, text, expected):
    window.jump_edit.setText(text)
    QTest.keyClick(window.jump_edit, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.current_reader() is not None and window.current_reader().target_visible())
    assert_line_shown(window, expected, full_pack)
    assert not window.messages.isVisible()


@pytest.mark.parametrize("text, words", [
    ("T40n1805_p9999a01", "不存在"),
    ("T99n9999_p0001a01", "没有"),
    ("今天天气很好", "无法识别的坐标"),
    ("", "请输入坐标"),
])
def test_bad_coordinate_gets_a_message_not_a_crash(qtbot, window, full_pack, text, words):
    tabs_before = window.tabs.count()
    window.jump_edit.setText(text)
    QTest.keyClick(window.jump_edit, Qt.Key.Key_Return)
    assert window.messages.isVisible() and window.messages.kind == "error"
    assert words in window.messages.text()
    assert window.tabs.count() == tabs_before and no_dialogs()
    # and the window still works
    window.jump_edit.setText("T40n1804_p0021a15")
    QTest.keyClick(window.jump_edit, Qt.Key.Key_Return)
    assert_line_shown(window, "T40n1804_p0021a15", full_pack)


def test_largest_fascicle_opens_fast_at_its_last_line(qtbot, window, full_pack):
    fasc = max(full_pack.fascicles(), key=lambda f: f.last_line - f.first_line)
    last = full_pack.line_by_id(fasc.last_line).coord
    t = time.perf_counter()
    with qtbot.waitSignal(window.linePainted, timeout=10_000):
        window.open_coord(last)
    elapsed = time.perf_counter() - t
    assert_line_shown(window, last, full_pack)
    assert window.current_reader().model.rowCount() > 9000
    assert elapsed < 3.0, f"opening {fasc.key} took {elapsed:.2f} s"


def test_reader_navigation_find_and_r_lines(qtbot, window, full_pack):
    coord = "X39n0714_p0710a23"
    window.open_coord(coord)
    reader = window.current_reader()
    f = reader.model.fascicle
    tab = window.tabs.indexOf(reader)
    QTest.mouseClick(reader.next_button, Qt.MouseButton.LeftButton)
    assert reader.model.fascicle.juan == f.juan + 1 and reader.model.fascicle.work == f.work
    assert f"卷{f.juan + 1}" in window.tabs.tabText(tab)
    QTest.mouseClick(reader.prev_button, Qt.MouseButton.LeftButton)
    assert reader.model.fascicle.id == f.id
    assert not reader.prev_button.isEnabled()          # X0714 juan 1 is the first
    # the parallel 新文豐 line head, on demand
    assert reader.r_button.isVisibleTo(reader)
    row = reader.model.row_of[coord]
    line = reader.model.lines[row]
    assert line.r == full_pack.line(coord).r and line.r.startswith("R")
    narrow = reader.delegate.margin_width()
    QTest.mouseClick(reader.r_button, Qt.MouseButton.LeftButton)
    assert reader.show_r and reader.delegate.margin_width() > narrow
    assert coords.r_human(line.r) in reader.model.index(row).data(Qt.ItemDataRole.ToolTipRole)
    # find in the fascicle, traditional text found from simplified input
    reader.find_edit.setFocus()
    reader.find_edit.insert("含注戒本")        # what an input method commits
    assert reader.hit_list, "nothing found"
    QTest.keyClick(reader.find_edit, Qt.Key.Key_Return)
    hit_row = reader.hit_list[0][0]
    assert reader.view.currentIndex().row() == hit_row
    assert reader.row_visible(hit_row)
    assert "1 / " in reader.find_status.text()


def test_reader_font_size_and_rare_characters(qtbot, window, full_pack):
    found = None
    for ch, info in full_pack.gaiji().items():
        if is_private_use(ch) and (info["normal"] or info["unicode"]):
            row = full_pack.db.execute("SELECT coord FROM lines WHERE instr(text, ?) > 0 LIMIT 1", (ch,)).fetchone()
            if row:
                found = (ch, info, row[0])
                break
    assert found, "the pack has no private-use character with a known form"
    ch, info, coord = found
    window.open_coord(coord)
    reader = window.current_reader()
    row = reader.model.row_of[coord]
    original = full_pack.line(coord).text
    assert reader.model.index(row).data() == original            # the text itself is unchanged
    shown = reader.model.shown(row).text
    form = window.session.forms[ch].form
    assert ch not in shown and form in shown
    assert form in (info["unicode"], info["normal"], info["composition"])
    assert drawable(form) or form == info["composition"]        # never a box where a form exists
    assert info["composition"] in reader.model.index(row).data(Qt.ItemDataRole.ToolTipRole)
    reader.view.setCurrentIndex(reader.model.index(row))
    reader.copy_line()
    assert QApplication.clipboard().text() == original          # copies are CBETA's characters
    size = reader.point_size()
    QTest.mouseClick(reader.larger, Qt.MouseButton.LeftButton)
    assert reader.point_size() == pytest.approx(size + 1)
    assert window.userdata.get("reader_font_delta") == 1.0


# -- presentation and font scaling ----------------------------------------------------------------

def test_font_scaling_and_presentation_mode(qtbot, answered, full_pack):
    window, _ = answered
    window.open_coord("T40n1804_p0021a15")
    reader = window.current_reader()
    window.tabs.setCurrentWidget(window.ask_page)
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    pane_font = lambda: window.panes["vinaya"].view.document().defaultFont().pointSizeF()  # noqa: E731
    base, reader_base = pane_font(), reader.point_size()
    QTest.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert pane_font() > base and reader.point_size() > reader_base
    QTest.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(window, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert pane_font() < base
    QTest.keyClick(window, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert pane_font() == pytest.approx(base) and reader.point_size() == pytest.approx(reader_base)
    assert window.userdata.get("font_scale") == 1.0

    QTest.keyClick(window, Qt.Key.Key_F11)
    assert window.presenting and window.windowState() & Qt.WindowState.WindowFullScreen
    assert not window.toolbar.isVisible() and not window.statusBar().isVisible()
    assert not window.menuBar().isVisible() and not window.answer_view.isVisible()
    three = [window.panes[k] for k in ("vinaya", "daoxuan", "yuanzhao")]
    assert all(p.isVisible() for p in three)
    xs = [p.mapTo(window, p.rect().topLeft()).x() for p in three]
    assert xs == sorted(xs) and len(set(xs)) == 3                      # side by side
    assert pane_font() == pytest.approx(base * PRESENTATION_ZOOM)
    assert QApplication.instance().styleSheet() == stylesheet("high_contrast") != stylesheet("standard")
    QTest.keyClick(window, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert pane_font() > base * PRESENTATION_ZOOM
    QTest.keyClick(window, Qt.Key.Key_Escape)
    assert not window.presenting and not window.windowState() & Qt.WindowState.WindowFullScreen
    assert window.toolbar.isVisible() and window.statusBar().isVisible() and window.answer_view.isVisible()
    assert QApplication.instance().styleSheet() == stylesheet("standard")


# -- export ------------------------------------------------------------------------------------------

def all_coords(result) -> list[str]:
    cits = list(result.answer.citations) + [c for cs in result.answer.panes.values() for c in cs]
    return sorted({c.coord for c in cits if c.coord})


def test_export_html_and_pdf_carry_every_coordinate(qtbot, answered, tmp_path, gui_fonts):
    window, result = answered
    html_path = window.handouts.export_html(tmp_path / "handout.html")
    html = html_path.read_text(encoding="utf-8")
    wanted = all_coords(result)
    assert wanted
    for coord in wanted:
        assert coord in html
        assert coords.parse(coord).cbeta() in html
    assert EXPEL in html and 'charset="utf-8"' in html
    unverified = [c for cs in result.answer.panes.values() for c in cs if c.level == "unverified"]
    if unverified:
        assert "此处出处未通过核验" in html

    pdf = tmp_path / "handout.pdf"
    with qtbot.waitSignal(window.handouts.exported, timeout=TIMEOUT):
        assert window.handouts.export_pdf(pdf)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and b"%%EOF" in data[-64:] and len(data) > 10_000
    from app.handout import handout_document
    printed = handout_document(result, window.session, gui_fonts).toPlainText()
    for coord in wanted:
        assert coord in printed
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
        for coord in wanted:
            assert coord in text


# -- user data ---------------------------------------------------------------------------------------

def test_bookmarks_round_trip(qtbot, make_window, user_dirs, full_pack):
    window = make_window()
    coord = "T40n1805_p0345b14"
    window.open_coord(coord)
    reader = window.current_reader()
    QTest.mouseClick(reader.bookmark_button, Qt.MouseButton.LeftButton)
    assert window.bookmarks.isVisible()
    row = window.bookmarks.row_of(coord)
    assert row >= 0
    note_item = window.bookmarks.table.item(row, 1)
    note_item.setText("人非人想：偷蘭遮")
    saved = json.loads((user_dirs[0] / "bookmarks.json").read_text(encoding="utf-8"))
    assert saved[0]["coord"] == coord and saved[0]["note"] == "人非人想：偷蘭遮"
    assert saved[0]["text"] == full_pack.line(coord).text
    window.close()

    again = make_window()
    assert [(b.coord, b.note) for b in again.userdata.bookmarks] == [(coord, "人非人想：偷蘭遮")]
    table = again.bookmarks.table
    assert table.item(0, 0).text() == coord and table.item(0, 1).text() == "人非人想：偷蘭遮"
    again.bookmarks.show()
    qtbot.waitExposed(again.bookmarks)
    cell = table.visualItemRect(table.item(0, 0)).center()
    QTest.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, cell)
    QTest.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, cell)
    assert_line_shown(again, coord, full_pack)
    again.bookmarks.remove_selected()
    assert UserData().bookmarks == []


def test_corrupt_history_is_moved_aside_and_reported(qtbot, make_window, user_dirs):
    data, _ = user_dirs
    data.mkdir(parents=True)
    garbage = "{ this is not json \x00"
    (data / "history.json").write_text(garbage, encoding="utf-8")
    window = make_window()
    assert window.messages.isVisible() and window.messages.kind == "error"
    assert "history.json" in window.messages.text() and "已将原文件移到" in window.messages.text()
    aside = list(data.glob("history.json.corrupt-*"))
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == garbage
    assert str(aside[0]) in window.messages.text()
    assert window.question_bar.history() == []
    ask(qtbot, window, EXPEL)                              # and the app goes on
    assert json.loads((data / "history.json").read_text(encoding="utf-8")) == [EXPEL]
    assert "history.json" in window.messages.text()      # the notice stays until the user closes it


def test_settings_survive_a_restart(qtbot, make_window):
    window = make_window()
    window.zoom_in()
    window.set_theme("high_contrast")
    window.close()
    again = make_window()
    assert again.font_scale == pytest.approx(1.1)
    assert again.theme == "high_contrast" and again.act_contrast.isChecked()
    assert again.userdata.get("geometry")
    assert again.userdata.get("last_pack") is None or Path(again.userdata.get("last_pack")).exists()
    again.set_theme("standard")


# -- processes -----------------------------------------------------------------------------------------

def app_env(tmp_path) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "NANSHAN_DATA_DIR": str(tmp_path / "data"), "NANSHAN_CONFIG_DIR": str(tmp_path / "config")}
    env.pop("NANSHAN_PACK", None)
    return env


def test_selftest_exits_zero(full_pack, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "app.main", "--selftest", "--pack", str(full_pack.path)],
                          cwd=ROOT, env=app_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("selftest ok: ") and lines[0].endswith(" shown · no network")
    coord = lines[0].split()[2]
    assert full_pack.line(coord).coord == coord


def test_selftest_without_pack_exits_one(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "app.main", "--selftest", "--pack", str(tmp_path / "none")],
                          cwd=ROOT, env=app_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1
    assert proc.stdout.startswith("selftest failed: ") and "找不到语料包" in proc.stdout


def test_open_argument_starts_at_the_line(qtbot, qapp, full_pack, user_dirs):
    from app.main import launch, parse_args
    window, reason = launch(parse_args(["--pack", str(full_pack.path), "--open", "CBETA, T22, no. 1428, p. 577b6"]),
                            qapp)
    assert reason is None
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.current_reader() is not None and window.current_reader().target_visible())
    assert_line_shown(window, "T22n1428_p0577b06", full_pack)


def test_bench_gui_prints_one_json_line(full_pack, tmp_path):
    proc = subprocess.run([sys.executable, "-m", "app.bench_gui", "--pack", str(full_pack.path), "--clicks", "3"],
                          cwd=ROOT, env=app_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == 1
    data = json.loads(lines[0])
    assert data["click_to_line_ms"] > 0 and data["cold_start_ms"] > data["click_to_line_ms"] / 10
    assert data["clicks"] == 3


def test_one_enter_asks_once_and_says_nothing_of_a_previous_question(open_window, qtbot):
    """An editable combo box hands one Enter to the window twice; the reader must not read
    「上一个问题还在检索中」 about the very question they just asked."""
    w = open_window()
    ask(qtbot, w, "比丘可以喝酒吗？")
    qtbot.wait(200)
    assert "上一个问题" not in w.statusBar().currentMessage()
    assert w.userdata.history[:2] != ["比丘可以喝酒吗？", "比丘可以喝酒吗？"]
