"""Render the desktop app offscreen to PNG files, for review and for the docs.

    .venv/bin/python build_scripts/screenshots.py [OUT_DIR] [--pack DIR]

Writes main.png (an answer with its three layers), reader.png (a fascicle at
a line), locator.png (the page locator), presentation.png (presentation
mode).  The output directory defaults to ./screenshots (git-ignored).  User
data goes to a temporary directory, never the real one.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1600, 1000
QUESTION = "什么情况下会被赶出僧团？"


def offscreen_screen(tmp: Path) -> None:
    """An offscreen screen as large as a projector, so full screen is a realistic size."""
    cfg = tmp / "screen.json"
    cfg.write_text(json.dumps({"screens": [{"name": "projector", "x": 0, "y": 0, "width": WIDTH,
                                            "height": HEIGHT, "logicalDpi": 96, "logicalBaseDpi": 96,
                                            "dpr": 1}]}))
    os.environ["QT_QPA_PLATFORM"] = f"offscreen:configfile={cfg}"


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("out", nargs="?", default="screenshots")
    p.add_argument("--pack")
    args = p.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix="nanshan-shots-"))
    os.environ["NANSHAN_DATA_DIR"] = str(tmp / "data")
    os.environ["NANSHAN_CONFIG_DIR"] = str(tmp / "config")
    os.environ.setdefault("LANG", "C.UTF-8")
    offscreen_screen(tmp)
    sys.path.insert(0, str(ROOT))
    from PySide6.QtCore import QRect

    from app.fonts import install_fonts
    from app.main import make_app
    from app.selftest import ask_and_wait, first_coordinate, wait_for
    from app.session import open_session
    from app.window import MainWindow

    app = make_app()
    fonts = install_fonts(app)
    window = MainWindow(open_session(args.pack), fonts)
    window.resize(WIDTH, HEIGHT)
    window.show()
    result, error = ask_and_wait(window, QUESTION)
    if result is None:
        print(f"无法生成截图：{error}", file=sys.stderr)
        return 1
    window.show_material(result.materials[0].n)
    wait_for(lambda: False, 0.3)
    saved = []

    def shot(widget, name, rect=None):
        wait_for(lambda: False, 0.2)
        path = out / name
        (widget.grab(rect) if rect is not None else widget.grab()).save(str(path))
        saved.append(path)

    shot(window, "main.png")
    coord = first_coordinate(result)
    window.open_coord(coord)
    reader = window.current_reader()
    reader.find_edit.setText("擯")
    reader.model.set_current_hit(None)
    wait_for(reader.target_visible, 5)
    shot(window, "reader.png")
    reader.splitter.setSizes([WIDTH - 380, 380])
    wait_for(lambda: False, 0.2)
    loc = reader.locator
    bottom = max(w.geometry().bottom() for w in (loc.diagram, loc.caption, loc.r_text) if w.isVisible())
    shot(loc, "locator.png", QRect(0, 0, loc.width(), min(loc.height(), bottom + 12)))
    window.tabs.setCurrentWidget(window.ask_page)
    window.set_presentation(True)
    window.resize(WIDTH, HEIGHT)
    shot(window, "presentation.png")
    window.set_presentation(False)
    window.close()
    for path in saved:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
