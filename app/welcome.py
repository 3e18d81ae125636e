"""The first screen: what the answer area shows before there is an answer.

An empty box teaches nothing, so the empty answer area shows what can be asked
(one or two questions per category the engine knows, each a link that asks
it), what this reader asked lately (same links), and how to read the
coordinates every answer is built on.  Every link is an ``ask:`` or
``coord:`` address the window already handles, so a click here does exactly
what the same click does in an answer.

The examples live in resources/examples.json, not in code: tests ask each one
through the real engine, so a corpus or engine change that spoils one shows.
Only relative font sizes are used, so the page scales with the zoom like an
answer does.

In 繁體 the labels and the coordinate paragraph come from the translator; the
example questions and their categories are the file's 简体 words, localized
when drawn, and a click asks what the reader sees (the engine folds the script,
so 比丘說謊要犯什麼罪？ finds the same terms and answer as the 简体 form).  The
history is the reader's own words and is shown as typed.  The window draws the
page again on a language switch (i18n.rerender_window → _show_current).
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from nanshan_core.corpus import coords
from nanshan_core.errors import NanshanError
from nanshan_core.i18n import localize
from nanshan_core.paths import load_resource_json

from .answer_html import attr, coord_link, esc
from .citations import LEVEL_LABELS, href, label
from .theme import Palette

EXAMPLES_FILE = "examples.json"
HISTORY_SHOWN = 6
HISTORY_CHARS = 40          # a long question is cut in the list; the link still asks all of it
EXAMPLES_HEAD = QT_TRANSLATE_NOOP("welcome", "可以这样问")
EXAMPLES_HINT = QT_TRANSLATE_NOOP("welcome", "点一下即提问")
HISTORY_HEAD = QT_TRANSLATE_NOOP("welcome", "最近问过")
COLUMNS = {"a": QT_TRANSLATE_NOOP("welcome", "上栏"), "b": QT_TRANSLATE_NOOP("welcome", "中栏"),
           "c": QT_TRANSLATE_NOOP("welcome", "下栏"), "d": QT_TRANSLATE_NOOP("welcome", "第四栏")}
translate = QCoreApplication.translate


@dataclass(frozen=True)
class Example:
    category: str
    question: str


def load_examples() -> list[Example]:
    """The example questions in the file's order (categories as the file groups them)."""
    data = load_resource_json(EXAMPLES_FILE)
    return [Example(e["category"], e["question"]) for e in data["examples"]]


def sample_coord() -> str:
    """The coordinate the first screen explains: a line of the 四分律 itself."""
    return load_resource_json(EXAMPLES_FILE)["coordinate"]


def coord_reading(coord: str) -> str:
    """T22n1428_p0568c05 spelt out as a reader finds it in the printed 大正藏 (in the interface language)."""
    c = coords.parse(coord)
    column = translate("welcome", COLUMNS[c.col]) if c.col in COLUMNS else c.col
    return translate("welcome", "大正藏第{vol}册、第{work}号、第{page}页{column}（{col}）第{line}行").format(
        vol=c.vol, work=int(c.work), page=c.page, column=column, col=c.col, line=c.line)


def _heading(text: str, pal: Palette, hint: str = "") -> str:
    """``text`` and ``hint`` are marked source strings, translated here."""
    hint_html = f'　<span style="color:{pal.muted};">{esc(translate("welcome", hint))}</span>' if hint else ""
    return (f'<p style="margin-top:4px; margin-bottom:4px; color:{pal.text};">'
            f'<b>{esc(translate("welcome", text))}</b>{hint_html}</p>')


def _ask_link(question: str, pal: Palette) -> str:
    shown = question if len(question) <= HISTORY_CHARS else question[:HISTORY_CHARS] + "…"
    return (f'<a href="{attr(href("ask", question))}" style="color:{pal.link};" title="{attr(question)}">'
            f'{esc(shown)}</a>')


def examples_html(examples: list[Example], pal: Palette) -> str:
    """The examples as a two-column list: the category in the margin, its questions beside it
    (both localized: in 繁體 a click asks the 繁體 wording shown)."""
    by_category: dict[str, list[str]] = {}
    for e in examples:
        by_category.setdefault(localize(e.category), []).append(localize(e.question))
    gap = f'<span style="color:{pal.muted};">　·　</span>'
    rows = "".join(
        f'<tr><td style="padding-right:10px; color:{pal.muted};"><nobr>{esc(cat)}</nobr></td>'
        f'<td>{gap.join(_ask_link(q, pal) for q in qs)}</td></tr>'
        for cat, qs in by_category.items())
    return _heading(EXAMPLES_HEAD, pal, EXAMPLES_HINT) + f'<table cellspacing="0" cellpadding="1">{rows}</table>'


def history_html(history: list[str], pal: Palette) -> str:
    """The latest questions, newest first; nothing at all before the first question."""
    recent = [q for q in history if q.strip()][:HISTORY_SHOWN]
    if not recent:
        return ""
    rows = "".join(f'<tr><td>{_ask_link(q, pal)}</td></tr>' for q in recent)
    return _heading(HISTORY_HEAD, pal) + f'<table cellspacing="0" cellpadding="1">{rows}</table>'


def coordinates_html(coord: str, pal: Palette) -> str:
    """How to read a coordinate (the example opens its printed line) and what 行级 / 段级 say."""
    try:
        reading = coord_reading(coord)
    except (NanshanError, ValueError, TypeError):
        return ""
    line = f'<span style="color:{pal.ok}; font-weight:bold;">〔{esc(label(LEVEL_LABELS, "line"))}〕</span>'
    para = f'<span style="color:{pal.paragraph}; font-weight:bold;">〔{esc(label(LEVEL_LABELS, "paragraph"))}〕</span>'
    head = esc(translate("welcome", "坐标怎么读"))
    how = esc(translate("welcome", "答案只引 CBETA 原文，每处引文都附坐标，如 {coord} ＝ {reading}，点它即打开原书那一行。"))
    levels = esc(translate("welcome", "引文后标{line}的已逐字核对到这一行；标{paragraph}的只核对到所在段落，坐标是段首一行。"))
    return (f'<p style="margin-top:8px;"><b>{head}</b>　{how.format(coord=coord_link(coord, pal), reading=esc(reading))}'
            f'<span style="color:{pal.muted};">{levels.format(line=line, paragraph=para)}</span></p>')


def welcome_html(history: list[str], pal: Palette, examples: list[Example] | None = None,
                 coord: str | None = None) -> str:
    """The whole first screen: examples and history side by side (the area is short), then coordinates.

    A missing or broken examples file leaves the rest of the page, not an error: the page teaches,
    it is not needed to ask."""
    try:
        examples = load_examples() if examples is None else examples
        coord = sample_coord() if coord is None else coord
    except (NanshanError, KeyError, TypeError):
        examples, coord = examples or [], coord or ""
    recent = history_html(history, pal)
    left = examples_html(examples, pal) if examples else ""
    columns = (f'<table width="100%" cellspacing="0" cellpadding="0"><tr>'
               f'<td valign="top" width="58%">{left}</td>'
               f'<td valign="top" style="padding-left:24px;">{recent}</td></tr></table>')
    return columns + coordinates_html(coord, pal)
