"""書庫 and 检索 in the window (pytest-qt, offscreen), used as a reader uses them."""
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from nanshan_core.library.concordance import plain_count

pytestmark = pytest.mark.fullpack
TIMEOUT = 60_000


@pytest.fixture
def window(open_window):
    return open_window()


def _find_item(model, text, parent=None):
    from PySide6.QtCore import QModelIndex
    parent = parent or QModelIndex()
    for r in range(model.rowCount(parent)):
        idx = model.index(r, 0, parent)
        if text in (idx.data() or ""):
            return idx
        hit = _find_item(model, text, idx)
        if hit is not None:
            return hit
    return None


def test_library_groups_every_work_and_filters_with_ctrl_l(qtbot, window):
    lib = window.library
    assert lib.isVisible()
    groups = [lib.model.item(r).text() for r in range(lib.model.rowCount())]
    assert [g.split("（")[0] for g in groups] == ["四律", "五論", "道宣", "元照", "合編"]
    assert sum(lib.model.item(r).rowCount() for r in range(lib.model.rowCount())) == 21
    QTest.keyClick(window, Qt.Key.Key_L, Qt.KeyboardModifier.ControlModifier)
    assert lib.filter_edit.hasFocus()
    QTest.keyClicks(lib.filter_edit, "1804")
    proxy = lib.proxy
    kept = [proxy.index(r, 0).data() for r in range(proxy.rowCount())]
    assert len(kept) == 1 and kept[0].startswith("道宣")
    works = [proxy.index(r, 0, proxy.index(0, 0)).data() for r in range(proxy.rowCount(proxy.index(0, 0)))]
    assert len(works) == 1 and "行事鈔" in works[0]


def test_a_contents_entry_opens_the_reader_there_and_the_tree_follows(qtbot, window):
    lib = window.library
    idx = _find_item(lib.proxy, "隨戒釋相篇")
    assert idx is not None
    with qtbot.waitSignal(window.linePainted, timeout=TIMEOUT) as blocker:
        lib._activated(idx)
    line = window.session.pack.line(blocker.args[0])
    assert line.coord == "T40n1804_p0050a16"
    # the tree follows the reader by itself: the section of the line opened, though the view
    # shows a few lines of the section before above it
    qtbot.waitUntil(lambda: "隨戒釋相篇" in (lib.tree.currentIndex().data() or ""), timeout=5000)
    reader = window.current_reader()
    assert reader.row_visible(reader.model.target_row)
    assert "隨戒釋相篇" in lib.locate(reader.model.fascicle.id, line.id)


def test_concordance_tab_counts_opens_and_exports(qtbot, window, full_pack, tmp_path):
    tab = window.search_tab
    QTest.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert window.tabs.currentWidget() is tab and tab.phrase_edit.hasFocus()
    tab.phrase_edit.insert("摩那埵")          # typed (QTest.keyClicks takes ASCII only)
    with qtbot.waitSignal(tab.searched, timeout=TIMEOUT) as blocker:
        QTest.keyClick(tab.phrase_edit, Qt.Key.Key_Return)
    assert blocker.args[0] == plain_count(full_pack, "摩那埵") > 100
    assert "摩那埵" in tab.counts.text() and str(blocker.args[0]) in tab.counts.text()
    assert tab.model.rowCount() == 100 and tab.next_button.isEnabled()
    tab.next_button.click()
    assert tab.page == 1 and tab.model.item(0, 4).text() in ("摩那埵",)
    coord = tab.model.item(0, 2).text()
    with qtbot.waitSignal(window.linePainted, timeout=TIMEOUT):
        tab._open_row(tab.model.index(0, 0))
    reader = window.current_reader()
    assert reader.target_coord == coord and reader.find_edit.text() == "摩那埵"
    assert tab.export_csv(str(tmp_path / "m.csv")) == blocker.args[0]


def test_the_jump_box_opens_an_r_coordinate_at_its_x_line(qtbot, window):
    window.jump_edit.setText("R64, p. 50, a2")
    with qtbot.waitSignal(window.linePainted, timeout=TIMEOUT) as blocker:
        QTest.keyClick(window.jump_edit, Qt.Key.Key_Return)
    assert blocker.args[0] == "X40n0724_p0706a05"
