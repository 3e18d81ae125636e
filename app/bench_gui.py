"""``python -m app.bench_gui --pack DIR``: the GUI's speed, measured offscreen.

Prints one JSON line:
  cold_start_ms     process start (the first line of this module, before Qt
                    is imported) until the main window is shown, the pack
                    open and checked, and the engine warm enough to answer;
  click_to_line_ms  median over several coordinate links in the answer
                    panes, from a real mouse click on the link until the
                    reader has painted the target line in its viewport.
Extra fields say what the figures are made of.  Called by ``nanshan bench``
(nanshan_core/tools/bench.py, gui_figures) in a separate process, so Qt never
enters the engine package.
"""
import time

T0 = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

QUESTION = "什么情况下会被赶出僧团？"
CLICKS = 9


def main(argv=None) -> int:
    args = argparse.ArgumentParser(prog="app.bench_gui")
    args.add_argument("--pack")
    args.add_argument("--clicks", type=int, default=CLICKS)
    a = args.parse_args(argv)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    tmp = tempfile.mkdtemp(prefix="nanshan-bench-")
    os.environ["NANSHAN_DATA_DIR"] = os.path.join(tmp, "data")      # never the user's own data
    os.environ["NANSHAN_CONFIG_DIR"] = os.path.join(tmp, "config")

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from nanshan_core.errors import NanshanError

    from .fonts import install_fonts
    from .main import make_app
    from .selftest import ask_and_wait, wait_for
    from .session import open_session
    from .window import MainWindow

    try:
        app = make_app()
        fonts = install_fonts(app)
        window = MainWindow(open_session(a.pack), fonts)
        window.show()
        QTest.qWaitForWindowExposed(window, 5000)
        shown_ms = (time.perf_counter() - T0) * 1000
        if not wait_for(lambda: window.ready, 60):
            raise NanshanError(window.messages.text() or "语料包未能就绪")
        cold_ms = (time.perf_counter() - T0) * 1000
        result, error = ask_and_wait(window, QUESTION)
        if result is None:
            raise NanshanError(error)
        times = click_times(window, a.clicks, Qt, QTest, wait_for)
    except NanshanError as exc:
        print(f"错误：{exc}", file=sys.stderr)
        return 2
    if not times:
        print("错误：答案中没有可点击的坐标", file=sys.stderr)
        return 2
    print(json.dumps({"click_to_line_ms": round(statistics.median(times), 1),
                      "cold_start_ms": round(cold_ms, 1),
                      "window_shown_ms": round(shown_ms, 1),
                      "engine_warm_ms": round(window.warm_ms or 0.0, 1),
                      "clicks": len(times)}))
    window.close()
    return 0


def click_times(window, n: int, Qt, QTest, wait_for) -> list[float]:
    """Click different coordinate links of the panes, one after another; milliseconds each."""
    links = []
    for pane in window.panes.values():
        links += [(pane, h) for h in pane.view.link_targets("coord")]
    chosen, seen = [], set()
    for pane, h in _interleave(links):
        if h not in seen:
            seen.add(h)
            chosen.append((pane, h))
        if len(chosen) >= n:
            break
    times = []
    for pane, h in chosen:
        window.tabs.setCurrentWidget(window.ask_page)
        point = pane.view.link_point(h)
        wait_for(lambda: False, 0.05)
        painted: list[str] = []
        window.linePainted.connect(painted.append)
        t = time.perf_counter()
        QTest.mouseClick(pane.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
        ok = wait_for(lambda: painted, 10)
        dt = (time.perf_counter() - t) * 1000
        window.linePainted.disconnect(painted.append)
        if ok and painted[0] == h.split(":", 1)[1]:
            times.append(dt)
    return times


def _interleave(links):
    by_pane: dict = {}
    for pane, h in links:
        by_pane.setdefault(pane, []).append((pane, h))
    queues = list(by_pane.values())
    while any(queues):
        for q in queues:
            if q:
                yield q.pop(0)


if __name__ == "__main__":
    sys.exit(main())
