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
"""
from __future__ import annotations

from dataclasses import dataclass

from nanshan_core.corpus import coords
from nanshan_core.errors import NanshanError
from nanshan_core.paths import load_resource_json

from .answer_html import attr, coord_link, esc
from .citations import LEVEL_LABELS, href
from .theme import Palette

EXAMPLES_FILE = "examples.json"
HISTORY_SHOWN = 6
HISTORY_CHARS = 40          # a long question is cut in the list; the link still asks all of it
EXAMPLES_HEAD = "可以这样问"
EXAMPLES_HINT = "点一下即提问"
HISTORY_HEAD = "最近问过"


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
    """T22n1428_p0568c05 spelt out as a reader finds it in the printed 大正藏 (simplified script)."""
    c = coords.parse(coord)
    column = {"a": "上栏", "b": "中栏", "c": "下栏", "d": "第四栏"}.get(c.col, c.col)
    return f"大正藏第{c.vol}册、第{int(c.work)}号、第{c.page}页{column}（{c.col}）第{c.line}行"


def _heading(text: str, pal: Palette, hint: str = "") -> str:
    hint_html = f'　<span style="color:{pal.muted};">{esc(hint)}</span>' if hint else ""
    return f'<p style="margin-top:4px; margin-bottom:4px; color:{pal.text};"><b>{esc(text)}</b>{hint_html}</p>'


def _ask_link(question: str, pal: Palette) -> str:
    shown = question if len(question) <= HISTORY_CHARS else question[:HISTORY_CHARS] + "…"
    return (f'<a href="{attr(href("ask", question))}" style="color:{pal.link};" title="{attr(question)}">'
            f'{esc(shown)}</a>')


def examples_html(examples: list[Example], pal: Palette) -> str:
    """The examples as a two-column list: the category in the margin, its questions beside it."""
    by_category: dict[str, list[str]] = {}
    for e in examples:
        by_category.setdefault(e.category, []).append(e.question)
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
    line, para = LEVEL_LABELS["line"], LEVEL_LABELS["paragraph"]
    return (f'<p style="margin-top:8px;"><b>坐标怎么读</b>　答案只引 CBETA 原文，每处引文都附坐标，如 '
            f'{coord_link(coord, pal)} ＝ {esc(reading)}，点它即打开原书那一行。'
            f'<span style="color:{pal.muted};">引文后标<span style="color:{pal.ok}; font-weight:bold;">〔{line}〕</span>'
            f'的已逐字核对到这一行；标<span style="color:{pal.paragraph}; font-weight:bold;">〔{para}〕</span>'
            f'的只核对到所在段落，坐标是段首一行。</span></p>')


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
