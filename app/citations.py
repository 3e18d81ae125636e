"""Words and formats the window shares: link addresses, labels, citation strings.

Every link in the answer and the cards is an address of our own
(``coord:T40n1805_p0345b14``, ``mat:5``, ``copy:5``) handled by the window,
never opened by Qt as a URL, so a click can only ever open the reader, move
to a card or copy a citation.
"""
from __future__ import annotations

from urllib.parse import quote, unquote

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from nanshan_core.corpus import coords

# Marked for translation here, translated where shown (``label``), so a language switch needs no reload.
SOURCE_LABELS = {"glossary": QT_TRANSLATE_NOOP("citations", "词表"), "question": QT_TRANSLATE_NOOP("citations", "问句"),
                 "map": QT_TRANSLATE_NOOP("citations", "词对照"),
                 "offence": QT_TRANSLATE_NOOP("citations", "罪名"), "user": QT_TRANSLATE_NOOP("citations", "自定"),
                 "model": QT_TRANSLATE_NOOP("citations", "模型"), "topic": QT_TRANSLATE_NOOP("citations", "主题")}
LEVEL_LABELS = {"line": QT_TRANSLATE_NOOP("citations", "行级"), "paragraph": QT_TRANSLATE_NOOP("citations", "段级"),
                "unverified": QT_TRANSLATE_NOOP("citations", "此处出处未通过核验")}
MATERIAL_SOURCE_LABELS = {"clue": QT_TRANSLATE_NOOP("citations", "线索"), "link": QT_TRANSLATE_NOOP("citations", "注释对应"),
                          "search": QT_TRANSLATE_NOOP("citations", "检索"), "topic": QT_TRANSLATE_NOOP("citations", "主题")}
LAYER_TITLES = {"vinaya": QT_TRANSLATE_NOOP("citations", "律本"), "daoxuan": QT_TRANSLATE_NOOP("citations", "道宣"),
                "yuanzhao": QT_TRANSLATE_NOOP("citations", "元照"), "other": QT_TRANSLATE_NOOP("citations", "其他")}


def label(table: dict, key: str) -> str:
    """One of the tables above, in the interface language."""
    return QCoreApplication.translate("citations", table.get(key, key))


def href(kind: str, value) -> str:
    """A link of ours; the value is percent-encoded so a question (「…？」) survives as a link."""
    return f"{kind}:{quote(str(value), safe='')}"


def parse_href(url: str) -> tuple[str, str]:
    kind, _, value = url.partition(":")
    return kind, unquote(value)


def cbeta_ref(coord: str | None) -> str | None:
    """``CBETA, T40, no. 1805, p. 345b14`` for a canonical coordinate."""
    if not coord:
        return None
    return coords.parse(coord).cbeta()


def cbeta_citation(quote: str, coord: str | None, level: str = "line", r: str | None = None) -> str:
    """「quote」(CBETA, T40, no. 1805, p. 345b14) — the form a handout or an essay quotes; an X
    text's citation also names its 新文豐 (R) line, as CBETA cites: … // R64, p. 50, a2."""
    q = "".join((quote or "").split())
    if level == "unverified" or not coord:
        return f"「{q}」" + QCoreApplication.translate("citations", "（此处出处未通过核验）")
    r_part = f" // {coords.parse(r).cbeta()}" if r else ""
    ref = f"({cbeta_ref(coord)}{r_part})"
    if level == "paragraph":
        ref += QCoreApplication.translate("citations", "（段级：坐标为该段起始行）")
    return f"「{q}」{ref}"


def human(coord: str) -> str:
    return coords.parse(coord).human()
