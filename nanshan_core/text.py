"""Character classes and sentence cutting for classical Chinese as CBETA prints it.

The T40 commentaries are punctuated mostly with 。, the X combined editions
hardly at all, and the Vinaya texts fully; so a "sentence" is cut at strong
punctuation where there is some and at clause length where there is none.
Characters outside the BMP (絺 becomes 𫄨 under t2s) are ordinary characters
here: Python strings index code points, never UTF-16 units.
"""
from __future__ import annotations

import functools
import re
import unicodedata

SENTENCE_END = set("。；？！;?!")
FULL_STOP = set("。？！?!")          # a quotation ends only here (a ； leaves the thought open)
CLAUSE_END = set("，、：,:；;")
CLOSERS = set("」』）)】〉》”’")


# Characters of modern phrasing (function words, pronouns, measure words, time and degree):
# a bigram made only of these says nothing about the topic (一次 多久 一样 当初 人要).
FUNCTION_CHARS = set("的了是在有不没要能可以会吗呢吧啊就都也还又再很太最更一二两个这那些什么怎么样为因所如果但而且"
                     "与和及或把被给让对向从到自己别人们他她它我你您当初以后之前时候次多久少几点儿得地着过来去上下中里"
                     "外前后左右大小好坏算该应当需须得想说做用拿回起看到成像")


def is_content_bigram(b: str) -> bool:
    """A bigram of a modern question that can say something about its topic."""
    return not (b[0] in FUNCTION_CHARS and b[1] in FUNCTION_CHARS)


# Han characters (the CJK blocks, their extensions and compatibility forms): what the canon is written in
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def has_han(text: str) -> bool:
    """Does a text hold a Han character?  Without one nothing in it can meet the canon's words."""
    return _HAN.search(text) is not None


def is_word_char(ch: str) -> bool:
    """Letters, digits and private-use glyphs (unresolved CBETA gaiji) are text; the rest is punctuation."""
    cat = unicodedata.category(ch)
    return cat[0] in "LN" or cat == "Co"


@functools.lru_cache(maxsize=8)
def _stop_pattern(stops: frozenset) -> re.Pattern:
    """A stop and the closing marks (」 ）…) that follow it: the end of a sentence."""
    chars = "".join(sorted(stops))
    return re.compile(f"[{re.escape(chars)}][{re.escape(''.join(sorted(CLOSERS)))}]*")


def sentence_spans(text: str, start: int = 0, end: int | None = None,
                   max_len: int = 60, stops=SENTENCE_END) -> list[tuple[int, int]]:
    """[start, end) spans of sentences; runs longer than max_len without a stop are cut at clauses or length."""
    end = len(text) if end is None else end
    spans: list[tuple[int, int]] = []
    s = start
    for m in _stop_pattern(frozenset(stops)).finditer(text, start, end):
        spans.append((s, m.end()))          # a stop and the closing marks after it
        s = m.end()
    if s < end:
        spans.append((s, end))
    out: list[tuple[int, int]] = []
    for a, b in spans:
        out.extend(_cut_long(text, a, b, max_len))
    return [(a, b) for a, b in out if text[a:b].strip()]


def _cut_long(text: str, a: int, b: int, max_len: int) -> list[tuple[int, int]]:
    if b - a <= max_len:
        return [(a, b)]
    pieces: list[tuple[int, int]] = []
    s = a
    last_clause = None
    for i in range(a, b):
        if text[i] in CLAUSE_END:
            last_clause = i + 1
        if i + 1 - s >= max_len:
            cut = last_clause if last_clause and last_clause - s >= max_len // 3 else i + 1
            pieces.append((s, cut))
            s = cut
            last_clause = None
    if s < b:
        if pieces and b - s < max_len // 4:
            pieces[-1] = (pieces[-1][0], b)
        else:
            pieces.append((s, b))
    return pieces


PASSAGE_TARGET = 480   # characters: a passage the reader can take in at a glance
PASSAGE_LIMIT = 720


def chunk_spans(text: str, target: int = PASSAGE_TARGET, limit: int = PASSAGE_LIMIT) -> list[tuple[int, int]]:
    """Cut a record into passages of readable size at sentence ends (whole record if short)."""
    if len(text) <= limit:
        return [(0, len(text))]
    chunks: list[tuple[int, int]] = []
    s = 0
    cur_end = 0
    for a, b in sentence_spans(text, max_len=target // 2):
        if b - s > target and cur_end > s:
            chunks.append((s, cur_end))
            s = cur_end
        cur_end = b
    if cur_end > s:
        if chunks and cur_end - s < target // 4:
            chunks[-1] = (chunks[-1][0], cur_end)
        else:
            chunks.append((s, cur_end))
    if chunks and chunks[-1][1] < len(text):
        chunks[-1] = (chunks[-1][0], len(text))
    return chunks


def cjk_count(text: str) -> int:
    return sum(1 for ch in text if unicodedata.category(ch) in ("Lo", "Co"))


# Characters that steer a terminal or reorder text rather than show it: C0/C1 controls (ESC
# starts a colour or cursor sequence, U+009B is a one-character CSI) and the bidi overrides
# and isolates (U+202E turns the rest of a line around).
BIDI_CONTROLS = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
LAYOUT_WHITESPACE = set("\t\n\r\v\f\x85\u2028\u2029")


def _steers(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc" or ch in BIDI_CONTROLS


def clean_question(text: str) -> str:
    """A question as the engine and a model may see it: line breaks and tabs become spaces,
    terminal controls and bidi overrides are dropped, runs of spaces shrink to one.  Nothing
    else is touched: private-use and supplementary-plane characters are CBETA's own."""
    out = []
    for ch in text:
        if ch in LAYOUT_WHITESPACE:
            out.append(" ")
        elif not _steers(ch):
            out.append(ch)
    return " ".join("".join(out).split())


def one_line(text: str, limit: int = 40) -> str:
    """What a user typed, quoted back in a one-line message: cleaned like a question, cut short."""
    t = clean_question(text)
    return t if len(t) <= limit else t[:limit] + "…"


_ESCAPES: dict[int, str] = {}


def terminal_safe(text: str, keep: str = "\n\t\r") -> str:
    """Text for a terminal: every control or bidi character shown as a \\uXXXX escape
    (valid inside JSON strings too), except the layout characters in ``keep``."""
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch not in keep and _steers(ch):
            out.append(_ESCAPES.setdefault(ord(ch), f"\\u{ord(ch):04x}"))
        else:
            out.append(ch)
    return "".join(out)

