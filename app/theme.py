"""The two looks of the app: standard, and high contrast for projectors.

A theme is a Qt style sheet in resources/styles/ for the widgets plus a small
palette for what the style sheet cannot reach: the HTML of answers and cards
and the painted reader lines.  Both halves are chosen together so that a
highlight never ends up unreadable on the other theme's background.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import QApplication

from nanshan_core.paths import resource_path

DEFAULT_THEME = "standard"
PRESENTATION_THEME = "high_contrast"


@dataclass(frozen=True)
class Palette:
    name: str
    label: str
    text: str
    background: str
    muted: str
    link: str
    term_bg: str
    term_fg: str
    quote_bg: str
    quote_line: str
    target_bg: str
    target_bar: str
    match_bg: str
    match_fg: str
    current_match_bg: str
    note_fg: str
    rare_fg: str
    ok: str
    paragraph: str
    unverified: str
    card_bg: str
    card_border: str
    focus_border: str
    clue: str
    link_source: str
    margin_fg: str


THEMES = {
    "standard": Palette(
        name="standard", label=QT_TRANSLATE_NOOP("theme", "标准"), text="#1d1b16", background="#ffffff", muted="#6b665c",
        link="#0b57a4", term_bg="#ffe98a", term_fg="#1d1b16", quote_bg="#dcebff", quote_line="#0b57a4",
        target_bg="#ffd98c", target_bar="#c25400", match_bg="#fff59d", match_fg="#1d1b16",
        current_match_bg="#ffab40", note_fg="#7a5230", rare_fg="#8e24aa", ok="#1b6e2a",
        paragraph="#8a5a00", unverified="#b3261e", card_bg="#fbfaf6", card_border="#d6d0c2",
        focus_border="#0b57a4", clue="#6a1b9a", link_source="#00695c", margin_fg="#8a8577"),
    "high_contrast": Palette(
        name="high_contrast", label=QT_TRANSLATE_NOOP("theme", "高对比度"), text="#ffffff", background="#000000",
        muted="#e0e0e0",
        link="#8fd8ff", term_bg="#ffd600", term_fg="#000000", quote_bg="#0d3b73", quote_line="#ffd600",
        target_bg="#6b4e00", target_bar="#ffd600", match_bg="#ffd600", match_fg="#000000",
        current_match_bg="#ff9100", note_fg="#ffcc80", rare_fg="#ea80fc", ok="#9cff9c",
        paragraph="#ffd27f", unverified="#ff8a80", card_bg="#0a0a0a", card_border="#ffffff",
        focus_border="#ffd600", clue="#e1bee7", link_source="#a7ffeb", margin_fg="#cfcfcf"),
}


def palette(name: str) -> Palette:
    return THEMES.get(name, THEMES[DEFAULT_THEME])


def stylesheet(name: str) -> str:
    path = resource_path("styles", f"{palette(name).name}.qss")
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""     # a missing style sheet leaves Qt's own look: ugly, never broken


def apply_theme(app: QApplication, name: str) -> Palette:
    pal = palette(name)
    app.setStyleSheet(stylesheet(pal.name))
    return pal
