"""``nanshan-gui --selftest``: prove on this machine that the whole chain works.

Asks a fixed question, opens the first verified coordinate of the answer in
the reader, and checks — on the pixels actually painted — that the line is
highlighted and inside the visible viewport.  One line of output; the exit
status says whether it held.
"""
from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QEventLoop

SELFTEST_QUESTION = "什么情况下会被赶出僧团？"


def wait_for(predicate, timeout_s: float) -> bool:
    """Run the event loop until ``predicate()`` holds or the time is up."""
    deadline = time.perf_counter() + timeout_s
    while not predicate():
        if time.perf_counter() > deadline:
            return False
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.002)
    return True


def ask_and_wait(window, question: str, timeout_s: float = 120.0):
    """(result, None) or (None, reason); the event loop keeps running meanwhile, as it would for a user."""
    box: dict = {}
    window.resultShown.connect(lambda r: box.setdefault("result", r))
    window.askFailed.connect(lambda m: box.setdefault("error", m))
    if not window.ask(question):
        return None, window.messages.text() or "问题未能提交"
    if not wait_for(lambda: box, timeout_s):
        return None, f"{timeout_s:.0f} 秒内没有得到答案"
    return box.get("result"), box.get("error")


def first_coordinate(result) -> str | None:
    """The first line-level coordinate of the answer (then of the panes): the one a reader checks first."""
    cits = list(result.answer.citations) + [c for cs in result.answer.panes.values() for c in cs]
    return next((c.coord for c in cits if c.level == "line" and c.coord), None)


def run_selftest(window, question: str = SELFTEST_QUESTION) -> tuple[bool, str]:
    """The chain, with every network connection refused and recorded (none may be tried)."""
    from nanshan_core.offline import no_network
    with no_network() as tried:
        ok, message = _run_selftest(window, question)
    if ok and tried:
        return False, f"selftest failed: 程序试图联网 {len(tried)} 次：{tried[0]}"
    return ok, message + (" · no network" if ok else "")


def _run_selftest(window, question: str) -> tuple[bool, str]:
    # The pack's checksums are verified before the index is used: a damaged pack fails here.
    if not wait_for(lambda: window.ready or window.pack_error, 120.0):
        return False, "selftest failed: 语料包在 120 秒内未能就绪"
    if window.pack_error:
        return False, f"selftest failed: {window.pack_error}"
    result, error = ask_and_wait(window, question)
    if result is None:
        return False, f"selftest failed: {error}"
    if result.refused:
        return False, f"selftest failed: 问题被拒答：{result.selection.refusal.reply}"
    coord = first_coordinate(result)
    if coord is None:
        return False, "selftest failed: 答案中没有行级坐标"
    if window.open_coord(coord) is None:
        return False, f"selftest failed: 无法打开 {coord}：{window.messages.text()}"
    reader = window.current_reader()
    if reader is None or reader.target_coord != coord:
        return False, f"selftest failed: 阅读器没有定位到 {coord}"
    if not wait_for(lambda: reader.target_visible() and reader.target_painted_highlighted(), 10.0):
        return False, f"selftest failed: {coord} 不在可见区域内或没有高亮"
    return True, f"selftest ok: {coord} shown"
