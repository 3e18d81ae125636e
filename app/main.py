"""Entry point: ``nanshan-gui [--pack DIR] [--open COORD] [--model FILE.gguf] [--selftest]``.

Qt reads QT_QPA_PLATFORM when it loads, so --selftest sets it to offscreen
before anything from PySide6 is imported; that is why the Qt imports below
live inside functions.
"""
from __future__ import annotations

import argparse
import os
import sys


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    from nanshan_core.i18n import localize as L          # before Qt: the help follows LANG, as the CLI's does
    p = argparse.ArgumentParser(prog="nanshan-gui", description=L("南山问律桌面程序"))
    p.add_argument("--pack", help=L("语料包目录（默认：NANSHAN_PACK 或内置/已生成的语料包）"))
    p.add_argument("--open", metavar="COORD", help=L("启动后在阅读器中打开这一行"))
    p.add_argument("--model", metavar="FILE.gguf", help=L("启动后在后台加载这个本地模型（并记住它）"))
    p.add_argument("--selftest", action="store_true", help=L("离屏自检：提问、打开第一个坐标、检查高亮，输出一行"))
    return p.parse_args(argv)


def make_app():
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication
    from nanshan_core.paths import resource_path
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("南山问律")           # a name for the system, not shown: never translated
    app.setOrganizationName("nanshan")
    app.setApplicationDisplayName(QCoreApplication.translate("main", "南山问律"))
    app.setWindowIcon(QIcon(str(resource_path("icons", "nanshan.svg"))))
    return app


def remembered_pack(userdata) -> str | None:
    """The pack used last time, when neither --pack, NANSHAN_PACK nor a default pack says otherwise."""
    from nanshan_core.paths import default_pack_dir
    last = userdata.get("last_pack", "")
    if os.environ.get("NANSHAN_PACK") or (default_pack_dir() / "manifest.json").exists() or not last:
        return None
    return last if os.path.exists(os.path.join(last, "manifest.json")) else None


def open_or_build(pack: str | None, interactive: bool, userdata=None):
    """The session, after a first-run build if there is no pack; (None, reason) when there is none."""
    from nanshan_core.errors import PackError
    from nanshan_core.userdata import UserData
    from .session import open_session
    userdata = userdata or UserData()
    if not pack:          # 文件 → 语料包 remembers the wider pack; a broken one falls back with a note
        from .pack_choice import open_remembered
        session, note = open_remembered(userdata)
        if session is not None:
            return session, None
        if note:
            userdata.messages.append(note)       # the window shows these in its message line
    pack = pack or remembered_pack(userdata)
    try:
        return open_session(pack, userdata), None
    except PackError as exc:
        if not interactive:
            return None, str(exc)
        from pathlib import Path
        from .firstrun import FirstRunDialog
        dialog = FirstRunDialog(str(exc), out=Path(pack) if pack else None)
        if dialog.exec() != dialog.DialogCode.Accepted:
            return None, QCoreApplication.translate("main", "没有语料包，程序退出。")
        try:
            return open_session(dialog.out, userdata), None
        except PackError as exc2:
            return None, str(exc2)


def launch(args: argparse.Namespace, app):
    """The shown main window (at --open's line), or (None, reason) when there is no pack."""
    from nanshan_core.userdata import UserData
    from . import i18n
    from .fonts import install_fonts
    from .window import MainWindow
    fonts = install_fonts(app)
    i18n.install(i18n.default_language(UserData()))       # before the first dialog: 简体 or 繁體
    session, reason = open_or_build(args.pack, interactive=not args.selftest)
    if session is None:
        return None, reason
    # the self-test checks the program's own chain: no remembered model joins in
    window = MainWindow(session, fonts, model_path=args.model, autoload_model=not args.selftest)
    window.show()
    if args.open:
        window.open_coord(args.open)
    return window, None


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.selftest:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = make_app()
    window, reason = launch(args, app)
    if window is None:
        from nanshan_core.i18n import localize
        print(f"selftest failed: {reason}" if args.selftest else localize(f"错误：{reason}"),
              file=sys.stdout if args.selftest else sys.stderr)
        return 1
    if args.selftest:
        from .selftest import run_selftest
        ok, line = run_selftest(window)
        print(line)
        window.close()
        return 0 if ok else 1
    return app.exec()


if __name__ == "__main__":
    sys.exit(main())
