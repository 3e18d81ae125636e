"""Line coordinates of the printed canon.

A coordinate names one printed line: ``T40n1805_p0345b14`` is 大正藏 volume 40,
work No. 1805, page 345, middle column (b), line 14.  Everything the app shows
a reader ends in one of these, so parsing is lenient about the forms people
paste (CBETA citations, 「大正藏 40 345b14」) but strict about what it accepts:
anything it cannot read fully is refused with a message that says what was
expected, never guessed.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import CoordError
from ..text import one_line

CANON_NAMES = {"T": "大正藏", "X": "卍續藏", "R": "新文豐版卍續藏"}
# Columns: Taishō and Xuzangjing pages have three (上中下); T1900 even a fourth.
COLUMN_NAMES = {"a": "上欄", "b": "中欄", "c": "下欄", "d": "第四欄"}
R_COLUMN_NAMES = {"a": "上段", "b": "下段"}

_CANON_ALIASES = {
    "T": "T", "大正藏": "T", "大正新脩大藏經": "T", "大正新修大藏經": "T", "大正": "T",
    "X": "X", "卍續藏": "X", "卍续藏": "X", "卍新續藏": "X", "卍新续藏": "X",
    "卍新纂續藏經": "X", "卍新纂续藏经": "X", "續藏經": "X", "续藏经": "X", "續藏": "X", "续藏": "X",
}


@dataclass(frozen=True, order=True)
class Coord:
    """One printed line; ``work`` is None when a citation named only volume and page."""

    canon: str
    vol: int
    work: str | None
    page: int
    col: str
    line: int
    line_end: int | None = None  # last line of a cited range ("p. 279a7-23")

    # -- formatting ---------------------------------------------------------
    def __str__(self) -> str:
        return self.canonical()

    def canonical(self) -> str:
        if self.canon == "R":           # 新文豐 lines are named by volume alone: R062_p0309a01
            return f"R{self.vol:03d}_p{self.page:04d}{self.col}{self.line:02d}"
        if self.work is None:
            raise CoordError(f"坐标 {self.short()} 缺少经号，无法写成标准形式")
        return f"{self.canon}{self.vol:02d}n{self.work}_p{self.page:04d}{self.col}{self.line:02d}"

    def short(self) -> str:
        """The line head printed in the margin: 0345b14."""
        return f"{self.page:04d}{self.col}{self.line:02d}"

    @property
    def work_id(self) -> str:
        """Work id without the volume: T1805, X0714."""
        return f"{self.canon}{self.work}"

    @property
    def column_key(self) -> tuple:
        return (self.canon, self.vol, self.page, self.col)

    def human(self) -> str:
        """「大正藏 第40冊 第345頁 中欄 第14行」: the form a reader checks a printed volume with."""
        cols = R_COLUMN_NAMES if self.canon == "R" else COLUMN_NAMES
        name = CANON_NAMES.get(self.canon, self.canon)
        text = f"{name} 第{self.vol}冊 第{self.page}頁 {cols.get(self.col, self.col)} 第{self.line}行"
        if self.line_end and self.line_end != self.line:
            text += f"至第{self.line_end}行"
        return text

    def cbeta(self, edition: str | None = None) -> str:
        """CBETA's own citation string: ``CBETA, T40, no. 1805, p. 345b14``."""
        if self.canon == "R":
            rng = f"-{self.line_end}" if self.line_end and self.line_end != self.line else ""
            return f"R{self.vol}, p. {self.page}, {self.col}{self.line}{rng}"
        if self.work is None:
            raise CoordError(f"坐标 {self.short()} 缺少经号，无法写成 CBETA 引用格式")
        num = self.work.lstrip("0") or "0"
        rng = f"-{self.line_end}" if self.line_end and self.line_end != self.line else ""
        head = f"CBETA {edition}" if edition else "CBETA"
        return f"{head}, {self.canon}{self.vol:02d}, no. {num}, p. {self.page}{self.col}{self.line}{rng}"

    def with_work(self, work: str) -> "Coord":
        return replace(self, work=work)

    def start(self) -> "Coord":
        """The first line of a range (coordinates in the pack are single lines)."""
        return replace(self, line_end=None)


_WORK = r"(?P<work>\d{1,4}(?:[A-Za-z](?![0-9]))?)"
_LINE = r"(?P<page>\d{1,4})\s*[,，]?\s*(?P<col>[a-dA-D])\s*(?P<line>\d{1,2})(?:\s*[-–~]\s*(?P<end>\d{1,2}))?"

# T40n1805_p0345b14, T40n1805p0345b14, T40n1805_0345b14
_CANONICAL = re.compile(
    rf"^(?P<canon>[TX])(?P<vol>\d{{1,3}})n{_WORK}_?p?{_LINE}$", re.IGNORECASE)
# CBETA 2024.R1, T40, no. 1805, p. 345b14 (also without the CBETA prefix)
_CBETA = re.compile(
    rf"^(?:CBETA(?:\s+[\w.]+)?\s*[,，]\s*)?(?P<canon>[TX])\s*(?P<vol>\d{{1,3}})\s*[,，]\s*"
    rf"no\.?\s*{_WORK}\s*[,，]\s*pp?\.?\s*{_LINE}$", re.IGNORECASE)
# 新文豐 (R) lines, as CBETA gives them beside X texts: R062_p0309a03, R62, p. 309, a3
_R_CANONICAL = re.compile(r"^R(?P<vol>\d{1,3})_?p?(?P<page>\d{4})(?P<col>[a-dA-D])(?P<line>\d{1,2})$", re.IGNORECASE)
_R_CBETA = re.compile(rf"^(?:CBETA(?:\s+[\w.]+)?\s*[,，]\s*)?R\s*(?P<vol>\d{{1,3}})\s*[,，]\s*pp?\.?\s*{_LINE}$",
                      re.IGNORECASE)
# 大正藏 40 345b14, 大正藏第40冊 345b14, T40 345b14
_VOL_PAGE = re.compile(
    rf"^(?P<canon>[^\d\s,，]+?)\s*第?\s*(?P<vol>\d{{1,3}})\s*[冊册卷]?\s*[,，]?\s*(?:第|p\.?\s*)?{_LINE}$",
    re.IGNORECASE)
# 大正藏 第40冊 第345頁 中欄 第14行 (the human form, also simplified)
_HUMAN = re.compile(
    r"^(?P<canon>[^\d\s]+?)\s*第\s*(?P<vol>\d{1,3})\s*[冊册]\s*(?:No\.?\s*(?P<work>\d{1,4}[A-Za-z]?)\s*)?"
    r"第\s*(?P<page>\d{1,4})\s*[頁页]\s*(?P<col>[上中下])\s*[欄栏]\s*第\s*(?P<line>\d{1,2})\s*行$",
    re.IGNORECASE)
_HUMAN_COLS = {"上": "a", "中": "b", "下": "c"}


def _canon(token: str) -> str:
    key = token.strip().rstrip("經经")
    for cand in (token.strip(), key, key.upper()):
        if cand in _CANON_ALIASES:
            return _CANON_ALIASES[cand]
    raise CoordError(f"不认识的藏经名「{token.strip()}」：目前支持大正藏 (T) 与卍續藏 (X)")


def _work(raw: str | None, canon: str) -> str | None:
    if raw is None:
        return None
    digits = re.match(r"\d+", raw).group(0)
    suffix = raw[len(digits):].lower()
    return f"{int(digits):04d}{suffix}"


def _build(canon: str, vol: str, work: str | None, page: str, col: str, line: str,
           end: str | None, text: str) -> Coord:
    v, p, ln = int(vol), int(page), int(line)
    if v < 1 or p < 1 or ln < 1:
        raise CoordError(f"坐标「{text}」中的册、页、行号必须从 1 起算")
    e = int(end) if end else None
    if e is not None and e < ln:
        raise CoordError(f"坐标「{text}」的行范围倒置：{ln} 到 {e}")
    return Coord(canon, v, _work(work, canon), p, col.lower(), ln, e)


def parse(text: str) -> Coord:
    """Read any supported coordinate or citation form; raise CoordError with advice otherwise."""
    if text is None or not str(text).strip():
        raise CoordError("请输入坐标，例如 T40n1805_p0345b14 或 CBETA, T40, no. 1805, p. 345b14")
    raw = str(text).strip()
    if len(raw) > 200:
        raise CoordError("输入过长，不像一个坐标")
    s = raw.strip("()（）[]【】「」<> \t").replace("\u3000", " ")
    s = re.sub(r"\s+", " ", s)
    if "//" in s:
        # CBETA cites an X text with its other editions: X78, no. 1553, p. 420, a4-5 // Z … // R135, …
        parts = [p.strip() for p in s.split("//") if p.strip()]
        for part in parts:
            try:
                return parse(part)
            except CoordError:
                continue
        raise CoordError(f"无法识别的引用「{one_line(raw)}」：其中没有能读出的 T、X 或 R 坐标")
    m = _R_CANONICAL.match(s) or _R_CBETA.match(s)
    if m:
        return _build("R", m["vol"], None, m["page"], m["col"], m["line"], m.groupdict().get("end"), raw)
    m = _CANONICAL.match(s)
    if m:
        return _build(m["canon"].upper(), m["vol"], m["work"], m["page"], m["col"], m["line"], m["end"], raw)
    m = _CBETA.match(s)
    if m:
        return _build(m["canon"].upper(), m["vol"], m["work"], m["page"], m["col"], m["line"], m["end"], raw)
    m = _HUMAN.match(s)
    if m:
        return _build(_canon(m["canon"]), m["vol"], m["work"], m["page"], _HUMAN_COLS[m["col"]], m["line"], None, raw)
    m = _VOL_PAGE.match(s)
    if m:
        return _build(_canon(m["canon"]), m["vol"], None, m["page"], m["col"], m["line"], m["end"], raw)
    raise CoordError(
        f"无法识别的坐标「{one_line(raw)}」。可用的写法如：T40n1805_p0345b14、"
        "CBETA, T40, no. 1805, p. 345b14、大正藏 40 345b14、X39n0714_p0710a23、R62, p. 309, a3")


def parse_lb(canon: str, vol: int, work: str, n: str) -> Coord:
    """The coordinate of an ``<lb n="0377c23">`` of a given work; malformed n raises."""
    m = re.fullmatch(r"(\d{4})([a-d])(\d{2,3})", n or "")
    if not m:
        raise CoordError(f"行号格式不对：<lb n=\"{n}\">")
    return Coord(canon, vol, work, int(m[1]), m[2], int(m[3]))


def r_coord(ed: str, n: str) -> str:
    """The parallel 新文豐 line of an X text (``ed="R062"``) as R062_p0309a01."""
    return f"{ed}_p{n}"


def r_human(rc: str) -> str:
    m = re.fullmatch(r"R(\d+)_p(\d{4})([a-d])(\d+)", rc)
    if not m:
        return rc
    return f"新文豐版 第{int(m[1])}冊 第{int(m[2])}頁 {R_COLUMN_NAMES.get(m[3], m[3])} 第{int(m[4])}行"
