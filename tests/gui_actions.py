"""What a user does in the window, for the GUI tests: type a question and press Enter, click a link."""
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest


def ask_by_typing(qtbot, w, question: str, timeout: int = 60_000):
    """Type the question and press Enter, as a user does; the shown result."""
    edit = w.question_bar.box.lineEdit()
    edit.setText(question)
    with qtbot.waitSignal(w.resultShown, timeout=timeout) as blocker:
        QTest.keyClick(edit, Qt.Key.Key_Return)
    return blocker.args[0]


def click_link(view, target: str) -> None:
    """A mouse click on the link ``target`` where the view draws it."""
    point = view.link_point(target)
    assert point is not None, f"no link {target}"
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
