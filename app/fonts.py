"""CJK fonts for corpus text and interface.

The corpus is traditional Chinese and the interface simplified, and the two
want different regional glyph shapes: the Noto CJK TC cut for CBETA text (a
serif, like the printed page), the SC cut for the interface.  A frozen build
ships its own font in resources/fonts/; when that folder holds fonts they win
over whatever the system has, so the app looks the same on every machine.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase, QFontMetricsF
from PySide6.QtWidgets import QApplication

from nanshan_core.paths import resource_path

FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")
TEXT_CANDIDATES = ("Noto Serif CJK TC", "Source Han Serif TC", "Noto Sans CJK TC", "Source Han Sans TC",
                   "PMingLiU", "MingLiU", "Noto Serif CJK SC", "Noto Sans CJK SC", "SimSun")
UI_CANDIDATES = ("Noto Sans CJK SC", "Source Han Sans SC", "Microsoft YaHei", "PingFang SC",
                 "Noto Sans CJK TC", "WenQuanYi Micro Hei")
MONO_CANDIDATES = ("DejaVu Sans Mono", "Noto Sans Mono", "Liberation Mono", "Consolas", "Menlo")
UI_POINT_SIZE = 10.5


@dataclass(frozen=True)
class Fonts:
    ui: str
    text: str
    mono: str

    def text_font(self, point_size: float) -> QFont:
        f = QFont(self.text)
        f.setPointSizeF(point_size)
        return f

    def mono_font(self, point_size: float) -> QFont:
        f = QFont(self.mono)
        f.setStyleHint(QFont.StyleHint.Monospace)
        f.setPointSizeF(point_size)
        return f


def load_bundled_fonts(folder: Path | None = None) -> list[str]:
    """Families of the fonts shipped in resources/fonts/ (none in a source checkout)."""
    folder = Path(folder) if folder else resource_path("fonts")
    families: list[str] = []
    if not folder.is_dir():
        return families
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in FONT_SUFFIXES:
            fid = QFontDatabase.addApplicationFont(str(path))
            if fid >= 0:
                families += [f for f in QFontDatabase.applicationFontFamilies(fid) if f not in families]
    return families


def _first_available(candidates, available: set[str], fallback: str) -> str:
    return next((c for c in candidates if c in available), fallback)


def _pick(bundled: list[str], candidates, available: set[str], fallback: str) -> str:
    """A bundled family named like a candidate first, then any bundled family, then the system's."""
    for c in candidates:
        if c in bundled:
            return c
    return bundled[0] if bundled else _first_available(candidates, available, fallback)


_FONTS: Fonts | None = None


def install_fonts(app: QApplication) -> Fonts:
    """Choose the families once per process and make the UI one the application default."""
    global _FONTS
    if _FONTS is not None:
        return _FONTS
    bundled = load_bundled_fonts()
    available = set(QFontDatabase.families())
    default = app.font().family()
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
    _FONTS = Fonts(ui=_pick(bundled, UI_CANDIDATES, available, default),
                   text=_pick(bundled, TEXT_CANDIDATES, available, default),
                   mono=_first_available(MONO_CANDIDATES, available, fixed))
    ui = QFont(_FONTS.ui)
    ui.setPointSizeF(UI_POINT_SIZE)
    app.setFont(ui)
    return _FONTS


@functools.lru_cache(maxsize=None)
def _metrics():
    return [QFontMetricsF(QFont(family)) for family in dict.fromkeys((_FONTS.text, _FONTS.ui))]


def drawable(text: str) -> bool:
    """Can the corpus or interface font draw every character of ``text``?  Before fonts are
    installed (no GUI), assume yes."""
    if _FONTS is None:
        return True
    return all(any(m.inFontUcs4(ord(ch)) for m in _metrics()) for ch in text)


def fonts() -> Fonts:
    if _FONTS is None:
        raise RuntimeError("install_fonts() must run first")
    return _FONTS
