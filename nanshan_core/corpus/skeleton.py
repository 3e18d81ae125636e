"""The topic skeleton: every precept, 犍度 and 篇, found where each text treats it.

A question is about a topic of the Vinaya — a precept of the 四分律, a chapter
(犍度) or one of its procedures, a 篇 of 行事鈔 — and each layer treats that
topic in a place of its own: 四分律 states the rule and its 不犯 clause, 含注戒本
and 行事鈔 head their treatment with the rule's name, 戒本疏 follows the 【律】
words it explains and 行宗記 follows the 疏, 資持記 explains the 鈔 in order.
Built once at pack time, the skeleton records these places, so retrieval can go
straight to a topic's own passages instead of the passages that merely repeat
its words.

Everything here is derived from what the XML gives:
* the precepts, their classes and numbers from the 戒本 (T1429 比丘, T1431 比丘尼:
  each class opens with 「是…法，半月半月說」 and each rule ends with its class's
  formula), read from the CBETA tree even when the 戒本 is not in the pack;
* the rules' names and their places from the numbered headings of 含注戒本
  (「二大盜戒　」), 戒本疏 (「【律】十八畜錢寶戒。」) and 行事鈔 (「畜錢寶戒十八。」), and
  比丘尼鈔's unnumbered 「言人戒具四緣」 by the rules' names, in their order;
* 四分律's statement of each rule by aligning the 戒本 text with the chapter
  CBETA's table of contents (``cb:mulu``) gives for its class;
* 犍度 and 篇 from the table of contents; 資持記 from the commentary links.
Only what the structure cannot give — a 犍度's main procedures, a 篇's main
sections (resources/skeleton.json), the nuns' rule names (resources/topics/nuns.json) — is hand-written data,
located in the texts here and checked against the pack by the tests.
"""
from __future__ import annotations

import bisect
import collections
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import CorpusError
from ..paths import load_resource_json
from ..text import is_word_char
from .links import rare_index, shared_with
from .tei import read_file
from .works import find_work_files, work_info

# class code, name in the 戒本 headers, the formula that ends each of its rules
CLASSES = (("pr", "波羅夷", "波羅夷"), ("sa", "僧殘", "僧伽婆尸沙"), ("ai", "不定", "不定"),
           ("np", "捨墮", "尼薩耆"), ("pc", "單提", "波逸提"), ("pd", "提舍尼", "悔過"),
           ("sk", "眾學", "應當學"), ("as", "滅諍", "應與"))
CLASS_NAME = {c: n for c, n, _ in CLASSES}
CLASS_ORDER = [c for c, _, _ in CLASSES]
# The 戒本 of each order, and the 四分律 chapters (table-of-contents labels) that state its rules.
JIEBEN = {"m": "T1429", "n": "T1431"}
EXPECTED = {"m": {"pr": 4, "sa": 13, "ai": 2, "np": 30, "pc": 90, "pd": 4, "sk": 100, "as": 7},
            "n": {"pr": 8, "sa": 17, "np": 30, "pc": 178, "pd": 8, "sk": 100, "as": 7}}
ALIGN_MIN = 0.5          # share of a rule's bigrams a passage must hold to be its statement
OTHER_MIN = 0.5          # the same, for a rule in another Vinaya's translation (its formula left out)
OTHER_CHAIN_MIN = 0.2    # … where the rules follow 四分律's order (SHARED_ORDER), placed as a chain
SHARED_ORDER = ("pr", "sa")
MIN_CONTENT = 2          # bigrams a rule must have beyond its class's formula to be looked for
SAME_RULE = 0.5          # bigram overlap (Jaccard) at which a nuns' rule is the monks' rule reworded
ADMONITION_SPAN = 400     # characters within which a 諫's 疏 and 記 follow its heading
NAME_LEAST = 0.15        # name likeness (Jaccard of characters and bigrams) below which a heading is not the rule
NUMERALS = "初一二三四五六七八九十百"
CHAO_BY_NAME = ("ai", "pd", "sk")   # classes 行事鈔's 隨戒釋相篇 treats by name, not number
# a note there opens a clause with the rule's words: 「初不定中。」「學家過受戒。」「以次食者。」「又腰者」
CHAO_NOTE = rf"(?<=[。\n])(?P<num>[{NUMERALS}]+)?(?:戒名)?(?P<name>[^。\n]{{2,12}}?)(?=者|戒|也|中。)"
# … and 資持記 glosses it by name or number: 「次食戒譏言」「五十三衣纏頸。」
# (「九十三携手在道由携手在道遮他男女遭譏」: a numbered gloss runs on; its first words name it)
JI_NOTE = (rf"(?<=[。\n])(?P<num>[{NUMERALS}]+)?(?P<name>[^。\n]{{2,12}}?)(?=者|戒|。)",
           rf"(?<=[。\n])(?P<num>[{NUMERALS}]+)(?P<name>[^。\n]{{2,6}})")
NUMBER_AGREES = 0.5      # what a heading's number that is the rule's adds to the likeness of its name
CHAO_NAME_LEAST = 0.3    # name likeness at which such a clause is a rule's note (0.15 took 不犯者)
RULE_FORMULA = ("不得", "應當學", "入白衣舍", "白衣舍", "比丘", "若")
SEKHIYA_GROUP_MAX = 30   # a 眾學 group's 疏 larger than this speaks of no rule in it
CITED_VINAYAS = ("T1428", "T1421", "T1425", "T1435")   # 四分律, and 五分, 僧祇, 十誦 that 道宣 quotes beside it
PARALLEL_LEAST = 6       # rare 3-grams another Vinaya's passage shares with a section to be quoted there
CITED_KEEP = 6           # 四分律 passages a 行事鈔 section's quotations give it (its 律本 places)
CITED_RARE = 3           # a 3-gram is a quotation's evidence only in at most this many 四分律 passages
CITED_LEAST = 2          # … and a 鈔 passage shares at least this many with the 律 passage it quotes
CITED_SPAN = 60          # 鈔 passages of a section read for its quotations (as retrieval's SECTION_MAX)
QUOTING_KEEP = 3         # 行事鈔 passages quoting a 犍度 procedure's 律 that become its 道宣 places
QUOTING_LEAST = 3        # … each sharing at least this many rare 3-grams with the procedure's 律 passages
QUOTING_SPAN = 6         # … of the first passages of its section (where its own subject is ruled on)
KARMA_LIST_MIN = 10      # numbered 疏 headings rising this long are 羯磨疏's list of the 僧法羯磨, not a 疏's points
KARMA_FORM = ("并解", "羯磨", "毘尼", "法")   # what names a karma's form (and its revoking), not its subject
KARMA_FORM_EDGE = r"^(?:與|差人|差)|[白和]$"   # 「與依止」 gives it, 「差人行籌」 appoints to it, 「論法白」 announces it
KARMA_NAME_LEAST = 0.4   # likeness of a listed karma's name to a topic's name (every character of it in the name)
_NUM = "(?:[二三四五]?十)?[一二三四五六七八九]?"


@dataclass
class Anchor:
    layer: str
    work: str
    role: str            # rule / exempt / heading / treatment / explains / chapter / section / cited / group
    offset: int          # in the work's stream
    line: int = 0        # printed line id
    end_line: int | None = None   # where the treatment ends (the next sibling's place), if known
    col: int = 0         # where on its line it begins (a line may end one passage and open the next)


@dataclass(eq=False)
class Topic:
    id: str              # m.pc.37, n.sa.4, k.06, k.06.upasampada, p.14, p.14.s2
    cls: str             # pr … as / khandhaka / procedure / pian / section / class
    num: int
    names: list[str] = field(default_factory=list)
    text: str = ""       # the rule as the 戒本 states it
    nun: bool = False
    parent: str | None = None
    same_as: str | None = None
    anchors: list[Anchor] = field(default_factory=list)

    def add_name(self, name: str) -> None:
        name = name.strip()
        if name and name not in self.names:
            self.names.append(name)


# -- numbers -----------------------------------------------------------------------

_DIGIT = {c: i for i, c in enumerate("零一二三四五六七八九")}


def chinese_number(s: str) -> int | None:
    """初 → 1, 十八 → 18, 一百七十八 → 178, 第二 → 2; None for anything else."""
    s = s.lstrip("第")
    if s == "初":
        return 1
    if not s or any(c not in "零一二三四五六七八九十百" for c in s):
        return None
    total, cur = 0, 0
    for c in s:
        if c == "百":
            total += (cur or 1) * 100
            cur = 0
        elif c == "十":
            total += (cur or 1) * 10
            cur = 0
        else:
            cur = _DIGIT[c]
    return total + cur


# -- a work as one searchable string ---------------------------------------------------

class Stream:
    """One work's records as one folded string, with the way back to printed lines.

    Folding keeps every character's position (see normalize), so an offset
    found in the folded text is an offset in the text CBETA prints."""

    def __init__(self, db, work: str, fold: Callable[[str], str]):
        self.work = work
        self.fold = fold
        rows = db.execute("SELECT r.id, r.text, r.lines, r.layer FROM records r JOIN fascicles f "
                          "ON r.fascicle=f.id WHERE f.work=? ORDER BY r.id", (work,)).fetchall()
        parts, self.starts, self.records, self.tables, self.layers = [], [], [], [], []
        pos = 0
        line_first: dict[int, int] = {}
        for rid, text, lines, layer in rows:
            table = json.loads(lines)
            self.starts.append(pos)
            self.records.append(rid)
            self.tables.append(table)
            self.layers.append(layer)
            for off, lid in table:
                line_first.setdefault(lid, pos + off)
            parts.append(text)
            pos += len(text) + 1
        self.raw = "\n".join(parts)
        self.text = fold(self.raw)
        self._line_keys = sorted(line_first)
        self._line_offs = [line_first[k] for k in self._line_keys]

    def _rec(self, offset: int) -> int:
        return max(0, bisect.bisect_right(self.starts, offset) - 1)

    def line_at(self, offset: int) -> int:
        k = self._rec(offset)
        table, local = self.tables[k], offset - self.starts[k]
        return table[max(0, bisect.bisect_right(table, local, key=lambda r: r[0]) - 1)][1]

    def layer_at(self, offset: int) -> str:
        return self.layers[self._rec(offset)]

    def record_at(self, offset: int) -> tuple[int, int]:
        k = self._rec(offset)
        return self.records[k], offset - self.starts[k]

    def offset_of_line(self, line_id: int) -> int:
        """The first character on a printed line (or on the next line that has text)."""
        i = bisect.bisect_left(self._line_keys, line_id)
        return self._line_offs[i] if i < len(self._line_offs) else len(self.text)

    def find(self, phrase: str, start: int = 0, end: int | None = None) -> int:
        """First place of ``phrase`` in [start, end); it may run across a record boundary
        (a heading 「釋足數篇」 and the text after it are two records)."""
        end = len(self.text) if end is None else end
        folded = self.fold(phrase)
        off = self.text.find(folded, start, end)
        if off >= 0 or len(folded) < 2:
            return off
        m = re.compile("\n?".join(re.escape(c) for c in folded)).search(self.text, start, end)
        return m.start() if m else -1

    def next_layer(self, layer: str, start: int, end: int) -> int:
        """Offset of the first record of ``layer`` at or after ``start`` (before ``end``), or -1."""
        k = self._rec(start)
        if self.layers[k] == layer and start < end:
            return start
        for j in range(k + 1, len(self.starts)):
            if self.starts[j] >= end:
                break
            if self.layers[j] == layer:
                return self.starts[j]
        return -1


@dataclass
class TocRange:
    level: int | None
    label: str
    start: int       # offset in the stream
    end: int


def toc_ranges(db, stream: Stream) -> list[TocRange]:
    """The work's table of contents as stream ranges (a heading runs to the next at its level or above)."""
    rows = db.execute("SELECT level, label, line FROM toc WHERE work=? AND continued=0 AND label<>'' "
                      "AND type<>'卷' ORDER BY id", (stream.work,)).fetchall()
    out = []
    for i, (level, label, line) in enumerate(rows):
        end = len(stream.text)
        for lv2, _, line2 in rows[i + 1:]:
            if (lv2 or 99) <= (level or 99):
                end = stream.offset_of_line(line2)
                break
        out.append(TocRange(level, label, stream.offset_of_line(line), end))
    return out


# -- the 戒本: which rules there are ---------------------------------------------------

_HEADER = re.compile(r"(?:是|此)(.{1,12}?)法[，,]?半月半月說")


# Words that name a class in headers and chapter titles, across the Vinayas' translations.
_CLASS_WORDS = (("np", ("尼薩耆", "捨墮", "三十事")), ("pr", ("波羅夷",)), ("sa", ("僧伽婆尸沙", "僧殘")),
                ("ai", ("不定",)), ("pd", ("提舍尼", "悔過")), ("pc", ("波逸提", "波夜提", "單提", "墮法")),
                ("sk", ("眾學", "式叉迦羅尼")), ("as", ("滅諍",)))


def _class_of(header: str) -> str | None:
    """The class a header or chapter title names (捨墮 is tested before 墮, 提舍尼 before 波逸提)."""
    for code, words in _CLASS_WORDS:
        if any(w in header for w in words):
            return code
    return None


def _names_nuns(title: str) -> bool:
    """Does a title speak of nuns (比丘尼, 尼戒法, 尼律)?  提舍尼, 迦羅尼, 尼薩耆 are not nuns."""
    for word in ("提舍尼", "迦羅尼", "尼薩耆"):
        title = title.replace(word, "")
    return "尼" in title


def class_chapters(ranges: list["TocRange"], nun: bool) -> dict[str, list["TocRange"]]:
    """A Vinaya's chapters of the rules by class, for monks or for nuns.

    Chapters of the nuns' rules carry 尼 in their own title or in a heading above
    them (分, 誦, 尼律); a chapter naming a class is a chapter of rules unless it
    is one of the procedures (犍度, 揵度, 法 of the later parts named after 滅諍).
    The monks' rules come first in every Vinaya: a class named after the nuns' rules
    (十誦律's questions of 優波離: 波羅夷法, 波夜提事) is a later part asking about them."""
    out: dict[str, list[TocRange]] = collections.defaultdict(list)
    above: dict[int, str] = {}
    seen_nuns = False
    for r in ranges:
        if r.level is None:
            continue
        above = {lv: lab for lv, lab in above.items() if lv < r.level}
        above[r.level] = r.label
        if r.level < 2 or "度" in r.label:
            continue
        cls = _class_of(r.label)
        if cls is None:
            continue
        nuns = _names_nuns("".join(above.values()))
        seen_nuns = seen_nuns or nuns
        if nuns != nun or (not nun and seen_nuns):
            continue
        if out and cls in out and out[cls][-1].end < r.start and cls == "as":
            continue            # 滅諍 once among the rules; later 滅諍法 is the procedure
        out[cls].append(r)
    return out


@dataclass
class Rule:
    order: str           # m / n
    cls: str
    num: int
    text: str


def jieben_rules(cbeta: Path, order: str) -> list[Rule]:
    """The rules of a 戒本, class by class, each ending with its class's formula."""
    wf = find_work_files(cbeta, JIEBEN[order])
    rules: list[Rule] = []
    counts: collections.Counter = collections.Counter()
    for path in wf.files:
        parsed = read_file(path, work_info(JIEBEN[order]).rules())
        cls = None
        for fasc in parsed.fascicles:
            for rec in fasc.records:
                m = _HEADER.search(rec.text[:40])
                if m:
                    cls = _class_of(m.group(1))
                    continue
                if "我已說" in rec.text[:10]:
                    cls = None
                    continue
                formula = dict((c, f) for c, _, f in CLASSES).get(cls or "")
                if cls and rec.kind == "p" and formula in rec.text:
                    counts[cls] += 1
                    rules.append(Rule(order, cls, counts[cls], rec.text.strip("「」 ")))
    return rules


# -- aligning a rule with the place a text states it -------------------------------------

def _words(text: str) -> tuple[str, list[int]]:
    """The text's word characters and where each stands in it."""
    keep = [i for i, c in enumerate(text) if is_word_char(c)]
    return "".join(text[i] for i in keep), keep


def _bigrams(s: str) -> set[str]:
    return {s[i:i + 2] for i in range(len(s) - 1)}


def _name_grams(name: str) -> set[str]:
    """A name's characters and bigrams: what two names of one thing share (食䔉 / 食蒜)."""
    return _bigrams(name) | set(name)


def align_rules(rule_texts: list[str], stream: Stream, start: int, end: int,
                ordered: bool = True, minimum: float = ALIGN_MIN,
                common: frozenset[str] = frozenset(),
                accept: Callable[[int], bool] | None = None) -> list[tuple[int, float] | None]:
    """Where each rule is stated in stream[start:end): (offset, share of its bigrams held) or None.

    A rule is usually stated more than once (first as made, then as amended); the
    statement holding most of the 戒本's wording is the final one.  With
    ``ordered`` the statements must follow the 戒本's order (the same Vinaya), else
    each rule is placed on its own (another Vinaya orders them differently).
    ``common``: bigrams that do not tell one rule from another (若比丘 … 波逸提, see
    formula_bigrams); they count neither for nor against a place.  ``accept(offset)``: whether
    a place may hold a statement at all."""
    words, where = _words(stream.text[start:end])
    grams_at: dict[str, list[int]] = collections.defaultdict(list)
    for i in range(len(words) - 1):
        grams_at[words[i:i + 2]].append(i)
    candidates: list[list[tuple[int, float]]] = []
    for rt in rule_texts:
        core, _ = _words(stream.fold(rt))
        grams = _bigrams(core) - common
        if len(grams) < MIN_CONTENT:
            candidates.append([])
            continue
        # the rarest bigrams the passage range holds (one absent from it casts no vote: in another
        # translation most of the 戒本's rarest bigrams are absent); ties in the rule's own order,
        # so that a pack built twice is the same pack (a set's order changes with the hash seed)
        rare = sorted({g for g in grams if g in grams_at},
                      key=lambda g: (len(grams_at[g]), core.find(g)))[:8]
        votes: collections.Counter = collections.Counter()
        for g in rare:
            k = core.find(g)
            for p in grams_at.get(g, ())[:400]:
                votes[max(0, p - k) // 4] += 1
        scored = []
        for bucket, _ in votes.most_common(12):
            best = (0.0, 0)
            for s in range(max(0, bucket * 4 - 4), bucket * 4 + 8):
                window = _bigrams(words[s:s + len(core) + 8])
                share = len(grams & window) / len(grams)
                if share > best[0] or (share == best[0] and words[s:s + 2] == core[:2]):
                    best = (share, s)
            if best[0] >= minimum and (accept is None or accept(start + where[best[1]])):
                scored.append((best[1], best[0]))
        candidates.append(sorted(set(scored)))
    picks = _best_chain(candidates) if ordered else [max(c, key=lambda x: x[1]) if c else None
                                                    for c in candidates]
    return [None if p is None else (start + where[p[0]], p[1]) for p in picks]


_LAST_EXEMPT = "最初未制戒"      # every rule of 四分律 closes: 「不犯者，最初未制戒，癡狂、心亂、痛惱所纏。」


def _story_opening(text: str, previous: int, statement: int) -> int | None:
    """Where a rule's own section opens in 四分律: the line after the previous rule's closing
    「不犯者，最初未制戒……」.  The story before the statement (學家羯磨 before 受學家食戒,
    須提那 before the first 波羅夷) belongs to the rule, not to the rule before it."""
    k = text.find(_LAST_EXEMPT, previous, statement)
    if k < 0:
        return None
    line_end = text.find("\n", k, statement)
    return line_end + 1 if 0 <= line_end < statement - 1 else None


def _own_bigrams(rule_texts: list[str], fold: Callable[[str], str]) -> list[set[str]]:
    """Each rule's bigrams that no other rule of its class has."""
    grams = [_bigrams(_words(fold(rt))[0]) for rt in rule_texts]
    counts = collections.Counter(g for gs in grams for g in gs)
    return [{g for g in gs if counts[g] == 1} for gs in grams]


def formula_bigrams(rule_texts: list[str], fold: Callable[[str], str], share: float = 0.2) -> frozenset[str]:
    """Bigrams found in at least ``share`` of a class's rules: its formula (若比丘, 波逸提), which
    every statement of every rule of the class holds and so tells nothing of which rule it is."""
    counts: collections.Counter = collections.Counter()
    for rt in rule_texts:
        counts.update(_bigrams(_words(fold(rt))[0]))
    return frozenset(g for g, n in counts.items() if n >= max(2, share * len(rule_texts)))


def _best_chain(candidates: list[list[tuple[int, float]]]) -> list[tuple[int, float] | None]:
    """One candidate per rule (or none), positions increasing, total share as high as possible."""
    # state: best total ending with (rule i, candidate j); a rule may be skipped
    best: list[tuple[float, int, tuple]] = []      # (total, position, choices)
    frontier = [(0.0, -1, ())]
    for cands in candidates:
        nxt = [(t, p, ch + (None,)) for t, p, ch in frontier]
        for pos, share in cands:
            prior = [f for f in frontier if f[1] < pos]
            if prior:
                t, _, ch = max(prior, key=lambda f: f[0])
                nxt.append((t + share, pos, ch + ((pos, share),)))
        # keep the frontier small: for each position the best total, and dominated states dropped
        nxt.sort(key=lambda f: (f[1], -f[0]))
        frontier, top = [], -1.0
        for f in nxt:
            if f[0] > top:
                frontier.append(f)
                top = f[0]
        best = frontier
    return list(max(best, key=lambda f: f[0])[2]) if best else [None] * len(candidates)


# -- numbered headings: 「二大盜戒　」「【律】十八畜錢寶戒。」「畜錢寶戒十八。」 -----------

@dataclass
class Heading:
    offset: int
    cls: str | None
    num: int | None
    name: str            # as printed (original characters)


def class_marks(stream: Stream, start: int = 0, end: int | None = None) -> list[tuple[int, str]]:
    """Where each class's recitation opens (「是十三僧伽婆尸沙法半月半月說」)."""
    rx = re.compile(stream.fold(r"(?:是|此)(.{1,12}?)法[，,。]?半月半月說"))
    out = []
    for m in rx.finditer(stream.text, start, len(stream.text) if end is None else end):
        cls = _class_of(stream.raw[m.start(1):m.end(1)])
        if cls:
            out.append((m.start(), cls))
    return out


def headings(stream: Stream, pattern: str, start: int, end: int,
             marks: list[tuple[int, str]] | None = None) -> list[Heading]:
    """Rule headings matching ``pattern`` (groups 'num' and 'name'), each given the class of the
    recitation it stands in (``marks``) when known."""
    rx = re.compile(stream.fold(pattern))
    out = []
    mark_pos = [p for p, _ in marks or []]
    for m in rx.finditer(stream.text, start, end):
        num = chinese_number(m.group("num")) if m.group("num") else None
        k = bisect.bisect_right(mark_pos, m.start("name")) - 1     # a mark may open the heading
        cls = marks[k][1] if marks and k >= 0 else None
        name = stream.raw[m.start("name"):m.end("name")]
        out.append(Heading(m.start(), cls, num, name))
    return out


def ji_headings(s: Stream, start: int, end: int) -> list[Heading]:
    """資持記's rule headings in its 隨戒釋相 篇: the number and the place the rule was made
    (「十八佛在羅閱城」), the first ten of a class with 第 (「第九佛在舍衛」: without it 單提 8 and 9
    had taken 7's gloss), or, opening a paragraph, 第 and the story when the rule was made where
    the one before it was (「第二迦留陀夷以佛制前戒」), or the number and 亦因 / 因前 (「四十五亦因
    迦留陀夷與女露坐」, 「六十九因前作舉」).  A class's title (「釋十三僧殘」) marks the headings after it: none
    of them is an earlier class's rule (the 波羅夷 have no such headings, and 僧殘's 「第一戒佛在」
    had gone to 婬戒; assign_by_order)."""
    titles = [(m.start(), cls) for m in re.compile(s.fold(r"(?<=\n)釋[^\n]{1,8}(?=\n)")).finditer(s.text, start, end)
              if (cls := _class_of(s.raw[m.start():m.end()]))]
    heads = headings(s, rf"(?<=[。\n])第?(?P<num>初(?=戒)|[{NUMERALS}]{{1,4}})(?P<name>戒?[^。\n佛]{{0,8}}?)佛在",
                     start, end, titles)
    for pattern in (rf"(?<=\n)第(?P<num>[{NUMERALS}]{{1,3}})(?P<name>)",
                    rf"(?<=\n)(?P<num>[{NUMERALS}]{{1,4}})(?P<name>)(?=亦因|因前|佛)"):
        seen = {h.offset for h in heads}
        heads += [h for h in headings(s, pattern, start, end, titles) if h.offset not in seen]
    return sorted(heads, key=lambda h: h.offset)


def by_number(heads: list[Heading], counts: dict[str, int]) -> dict[tuple[str, int], Heading]:
    """(class, number) -> heading, keeping per class the longest run in which numbers rise
    with the text (a misprinted number out of sequence is dropped)."""
    out: dict[tuple[str, int], Heading] = {}
    for cls, n in counts.items():
        seq = [h for h in heads if h.cls == cls and h.num and 1 <= h.num <= n]
        unnumbered = [h for h in heads if h.cls == cls and not h.num]
        if not seq and len(unnumbered) == n:          # 二不定: named, not numbered
            for i, h in enumerate(unnumbered, 1):
                out[(cls, i)] = h
            continue
        for h in _rising(seq):
            out.setdefault((cls, h.num), h)
    return out


def _rising(seq: list[Heading]) -> list[Heading]:
    """Longest subsequence with strictly rising numbers (patience sorting)."""
    tails: list[int] = []
    tail_idx: list[int] = []
    prev = [-1] * len(seq)
    for i, h in enumerate(seq):
        k = bisect.bisect_left(tails, h.num)
        if k == len(tails):
            tails.append(h.num)
            tail_idx.append(i)
        else:
            tails[k] = h.num
            tail_idx[k] = i
        prev[i] = tail_idx[k - 1] if k else -1
    out, i = [], tail_idx[-1] if tail_idx else -1
    while i != -1:
        out.append(seq[i])
        i = prev[i]
    return out[::-1]


def _rising_runs(heads: list[Heading]) -> list[list[Heading]]:
    """The headings cut where their numbers stop rising (a numbered list ends, another begins)."""
    runs: list[list[Heading]] = []
    for h in heads:
        if runs and h.num > runs[-1][-1].num:
            runs[-1].append(h)
        else:
            runs.append([h])
    return runs


def _karma_named(core: str, known: list[tuple["Topic", list[str], bool]]) -> list["Topic"]:
    """The topics a listed karma's name (its ``core``, form words set aside) names: the likest by
    name, each of its characters in the topic's name (懺白衣 is not 白衣法); of equals, those known
    as a 羯磨 (依止 the punishment, not the teacher one lives by).  ``known``: (topic, its names'
    cores, whether it is known as a 羯磨)."""
    if len(core) < 2:
        return []
    cg = _name_grams(core)
    scored = []
    for t, cores, karma in known:
        grams = (_name_grams(n) for n in cores if set(core) <= set(n))
        w = max((len(cg & g) / len(cg | g) for g in grams), default=0.0)
        if w >= KARMA_NAME_LEAST:
            scored.append((w, karma, t))
    if not scored:
        return []
    best = max(scored, key=lambda x: x[:2])[:2]
    return [t for w, karma, t in scored if (w, karma) == best]


def assign_by_order(heads: list[Heading], topics: list["Topic"], stream: Stream) -> dict[tuple[str, int], Heading]:
    """Give numbered headings their rule when the text has no recitation headers (行事鈔, 資持記).

    The headings' numbers, in the order they stand, are matched against the rules'
    numbers in the 戒本's order (4 波羅夷, 13 僧殘 … each counting from 1): the heaviest
    common subsequence, where a match weighs more when the words after the heading
    share the rule's words (a number alone cannot tell 單提 20 from 眾學 20).  A class
    begins where the numbers start again, and a number out of sequence (a misprint,
    「比丘尼別戒九十九」) is left out."""
    heads = [h for h in heads if h.num]
    n, m = len(heads), len(topics)
    docs = [_bigrams(_words(stream.fold(t.text + "".join(t.names)))[0]) for t in topics]
    snips = [_bigrams(_words(stream.text[h.offset:h.offset + 40])[0]) for h in heads]

    def weight(i: int, j: int) -> float:
        if heads[i].num != topics[j].num:
            return 0.0
        if heads[i].cls and CLASS_ORDER.index(heads[i].cls) > CLASS_ORDER.index(topics[j].cls):
            return 0.0          # after a later class's title (ji_headings)
        return 1.0 + 3.0 * len(snips[i] & docs[j]) / max(1, min(len(docs[j]), 12))

    return {(topics[j].cls, topics[j].num): heads[i] for i, j in _heaviest_chain(n, m, weight)}


def _heaviest_chain(n: int, m: int, weight: Callable[[int, int], float]) -> list[tuple[int, int]]:
    """Pairs (i, j), both rising, of the heaviest common subsequence of n headings and m rules."""
    dp = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = dp[i], dp[i + 1]
        for j in range(m - 1, -1, -1):
            w = weight(i, j)
            row[j] = max(below[j], row[j + 1], below[j + 1] + w if w else 0.0)
    out = []
    i = j = 0
    while i < n and j < m:
        w = weight(i, j)
        if w and dp[i][j] == dp[i + 1][j + 1] + w:
            out.append((i, j))
            i += 1
            j += 1
        elif dp[i][j] == dp[i][j + 1]:
            j += 1
        else:
            i += 1
    return out


def assign_by_names(heads: list[Heading], topics: list["Topic"], fold: Callable[[str], str],
                    least: float = NAME_LEAST, names: Callable[["Topic"], list[str]] | None = None,
                    numbered: bool = False) -> dict["Topic", Heading]:
    """Give unnumbered headings their rule by name (比丘尼鈔's 「言人戒具四緣」), keeping the rules'
    order: the heaviest chain of name likeness, so a weak likeness (「食䔉戒」 for 食蒜戒) counts
    only where its neighbours put it.  ``names``: what a rule is known by (its names);
    ``numbered``: a heading's number, where it has one, is the rule's number in its class."""
    def grams(name: str) -> set[str]:
        return _name_grams(fold(name).replace(fold("戒"), ""))
    hg = [grams(h.name) for h in heads]
    tg = [[grams(nm) for nm in (names(t) if names else t.names)] for t in topics]

    def weight(i: int, j: int) -> float:
        # a heading's number, where it has one (「五十三衣纏頸」), must be the rule's, and then
        # confirms the likeness (「八十二向塔」 is not 向塔舒脚, 84)
        num = heads[i].num if numbered else None
        if num is not None and num != topics[j].num:
            return 0.0
        w = max((len(hg[i] & g) / len(hg[i] | g) for g in tg[j] if g), default=0.0)
        if num is not None and w >= min(least, NAME_LEAST):
            return w + NUMBER_AGREES
        return w if w >= least else 0.0

    return {topics[j]: heads[i] for i, j in _heaviest_chain(len(heads), len(topics), weight)}


def _rule_core(text: str) -> str:
    """A rule's own words: its 戒本 statement without the class's formula and the setting every
    rule of a run repeats (不得反抄衣入白衣舍，應當學 → 反抄衣)."""
    core = re.sub(r"[一二三四五六七八九十百]+$", "", re.sub(r"[，、。；：]", "", text))   # 「應當學二十」
    for w in RULE_FORMULA:
        core = core.replace(w, "")
    return core


def _runs(order: list["Topic"], wanted: Callable[["Topic"], bool]) -> list[list["Topic"]]:
    """The runs of consecutive rules (in ``order``) that are ``wanted``."""
    runs: list[list[Topic]] = []
    for i, t in enumerate(order):
        if not wanted(t):
            continue
        if runs and i and order[i - 1] is runs[-1][-1]:
            runs[-1].append(t)
        else:
            runs.append([t])
    return runs


def _headings_of(s: Stream, patterns: tuple[str, ...], start: int, end: int) -> list[Heading]:
    """Headings of any of ``patterns``, in the text's order; where two start at one place, the
    first pattern's."""
    at: dict[int, Heading] = {}
    for p in patterns:
        for h in headings(s, p, start, end):
            at.setdefault(h.offset, h)
    return sorted(at.values(), key=lambda h: h.offset)


def _sitting_twin(t: "Topic", order: list["Topic"], found: dict) -> "Topic | None":
    """The 眾學 rule next to ``t`` it pairs with, going into a house and sitting there (反抄衣入白衣舍
    / …入白衣舍坐), if that one was ``found``."""
    if t.cls != "sk":
        return None
    bare = _rule_core(t.text).replace("坐", "")
    return next((u for u in order if u.cls == "sk" and abs(u.num - t.num) == 1 and u in found
                 and _rule_core(u.text).replace("坐", "") == bare), None)


def _find_name(s: Stream, names: list[str], start: int, end: int) -> int:
    """First place in [start, end) naming the rule: one of its names, or the name without the
    verb or measure that opens it (畜長衣過限戒 → 長衣過限戒)."""
    tries = []
    for n in names:
        tries += [n, n[1:]] if len(n) >= 3 else [n]
    for n in tries:
        off = s.find(n, start, end)
        if off >= 0:
            return off
    return -1


# -- putting it together -------------------------------------------------------------------

class Builder:
    """Derives the topics from a freshly written pack database."""

    def __init__(self, db, fold: Callable[[str], str], cbeta: Path, works: list[str],
                 hand: dict | None = None):
        self.db = db
        self.fold = fold
        self.cbeta = Path(cbeta)
        self.works = set(works)
        self.hand = hand if hand is not None else load_resource_json("skeleton.json")
        self._streams: dict[str, Stream] = {}
        self.topics: dict[str, Topic] = {}
        self.notes: list[str] = []
        self._pian_cache: tuple | None = None
        self._chao_psg: list[tuple[int, str, str]] | None = None
        self._monk_names: dict | None = None
        self._grams_cache: dict[str, tuple] = {}
        self._quotes_cache: dict[str, tuple] = {}

    def stream(self, work: str) -> Stream | None:
        if work not in self.works:
            return None
        if work not in self._streams:
            self._streams[work] = Stream(self.db, work, self.fold)
        return self._streams[work]

    def _chapter(self, work: str, label: str) -> tuple[Stream, "TocRange"] | None:
        """A work's stream and the range of its chapter whose table-of-contents label holds ``label``."""
        s = self.stream(work)
        part = next((r for r in toc_ranges(self.db, s) if label in r.label), None) if s is not None else None
        return (s, part) if part is not None else None

    def anchor(self, topic: Topic, work: str, role: str, offset: int, layer: str | None = None) -> None:
        s = self.stream(work)
        if s is None or offset < 0:
            return
        line = s.line_at(offset)
        topic.anchors.append(Anchor(layer or s.layer_at(offset), work, role, offset, line,
                                    col=offset - s.offset_of_line(line)))

    def build(self) -> list[Topic]:
        for order in ("m", "n"):
            self.precepts(order)
        self.admonitions()
        self.khandhakas()
        self.karma_list()
        self.pian()
        self.close_sections()
        self.quoted_vinaya()
        self.quoting_chao()
        return list(self.topics.values())

    # precepts ---------------------------------------------------------------------------
    def precepts(self, order: str) -> None:
        try:
            rules = jieben_rules(self.cbeta, order)
        except CorpusError as exc:
            self.notes.append(f"{JIEBEN[order]} 未找到，{'比丘' if order == 'm' else '比丘尼'}戒条从略：{exc}")
            return
        got = collections.Counter(r.cls for r in rules)
        if dict(got) != EXPECTED[order]:
            self.notes.append(f"{JIEBEN[order]} 戒条数 {dict(got)} 与预期 {EXPECTED[order]} 不同")
        topics = []
        for cls in CLASS_ORDER:
            if cls not in got:
                continue
            head = Topic(f"{order}.{cls}", "class", 0, [], nun=order == "n")
            head.add_name(("比丘尼" if order == "n" else "") + CLASS_NAME[cls])
            self.topics[head.id] = head
        for r in rules:
            t = Topic(f"{order}.{r.cls}.{r.num}", r.cls, r.num, text=r.text, nun=order == "n",
                      parent=f"{order}.{r.cls}")
            self.topics[t.id] = t
            topics.append(t)
        self.sifenlu(order, topics)
        if order == "m":
            self.hanzhu(topics)
            self.jiebenshu(topics)
            self.sekhiya_groups(topics)
            self.miezheng(topics)
            self.xingshichao(topics)
            self.other_vinayas(topics)
        else:
            self.same_rules(topics)
            self.nun_chao(topics)
        self.zichiji(topics)
        self.class_openings(order, topics)

    def class_openings(self, order: str, topics: list[Topic]) -> None:
        """A class (the 僧殘, the 單提 …) opens in each work where its first placed rule stands."""
        for cls in CLASS_ORDER:
            head = self.topics.get(f"{order}.{cls}")
            if head is None:
                continue
            have = {a.work for a in head.anchors}
            for t in (t for t in topics if t.cls == cls):
                for a in t.anchors:
                    if a.work not in have and a.role != "exempt":
                        head.anchors.append(Anchor(a.layer, a.work, "chapter", a.offset, a.line))
                        have.add(a.work)

    def same_rules(self, nun_rules: list[Topic]) -> None:
        """A nuns' rule worded as the monks' rule of the same class is that rule (same_as): the
        commentaries treat it there."""
        def grams(text: str) -> set[str]:
            return _bigrams(_words(self.fold(text.replace("比丘尼", "比丘").replace("大姊", "大德")))[0])
        monks = [t for t in self.topics.values() if t.id.startswith("m.") and t.text]
        monk_grams = {t.id: grams(t.text) for t in monks}
        for t in nun_rules:
            g = grams(t.text)
            best, score = None, 0.0
            for m in monks:
                if m.cls != t.cls:
                    continue
                mg = monk_grams[m.id]
                j = len(g & mg) / max(1, len(g | mg))
                if j > score:
                    best, score = m, j
            if best is not None and score >= SAME_RULE:
                t.same_as = best.id
                for n in best.names:
                    t.add_name(n)

    def nun_chao(self, topics: list[Topic]) -> None:
        """比丘尼鈔 (X0724) 隨戒篇: 道宣's own treatment of the nuns' rules, 「言人戒具四緣…」, class by
        class (「第二篇十七僧伽婆尸沙簡要釋」); it explains about a hundred of the 348, unnumbered."""
        found = self._chapter("X0724", "隨戒篇")
        if found is None:
            return
        s, part = found
        marks = [(m.start(), _class_of(s.raw[m.start(1):m.end(1)]) or "")
                 for m in re.compile(s.fold(rf"第[{NUMERALS}]篇[^。\n]{{0,12}}?(波羅夷|僧伽婆尸沙|尼薩耆|波逸提|提舍尼|眾學)"))
                 .finditer(s.text, part.start, part.end)]
        heads = headings(s, rf"(?<=[。\n])(?P<num>)(?P<name>[^。\n]{{1,14}}?戒)(?:具|此戒|[{NUMERALS}]+緣)",
                         part.start, part.end, [(part.start, "pr")] + marks)
        names = load_resource_json("topics/nuns.json")      # the nuns' rule names are hand-written
        for t in topics:
            for n in names.get(t.id, {}).get("names", []):
                t.add_name(n)
        placed = {}
        for cls in dict.fromkeys(h.cls for h in heads):
            placed.update(assign_by_names([h for h in heads if h.cls == cls],
                                          sorted((t for t in topics if t.cls == cls), key=lambda t: t.num), self.fold))
        for t, h in placed.items():
            t.add_name(h.name)
            self.anchor(t, "X0724", "treatment", h.offset, layer="daoxuan")

    def admonitions(self) -> None:
        """羯磨疏 / 濟緣記 (X0728) explain the thirteen 諫 procedures by the rule each admonishes
        against (「八諫隨舉比丘尼者…」, the 記 after it), monks' rules then nuns'; placed by name,
        in that order."""
        s = self.stream("X0728")
        if s is None:
            return
        heads = headings(s, rf"(?<=[。\n])(?P<num>{NUMERALS[0]}|[{NUMERALS[1:]}]+)諫(?P<name>[^者。\n]{{1,10}})者",
                         0, len(s.text))
        # the rules named for an admonition (違諫); among them a weak likeness is enough, the order
        # decides (「五諫惡邪法」 is 惡見違諫戒, 「十二諫發諍」 the nuns' 發諍謗僧違諫戒, not 發四諍戒)
        rules = [t for t in self.topics.values() if t.cls in CLASS_NAME and any("諫" in n for n in t.names)]
        placed = sorted(assign_by_names(heads, rules, self.fold, least=0.05).items(), key=lambda th: th[1].offset)
        bounds = [h.offset for _, h in placed[1:]] + [len(s.text)]
        for (t, h), nxt in zip(placed, bounds):
            self._shu_and_ji(t, s, h.offset, min(nxt, h.offset + ADMONITION_SPAN), "X0728")

    def karma_list(self) -> None:
        """羯磨疏 (X0728) goes through the 僧法羯磨 that 隨機羯磨 counts in its first 篇 (單白 39, 白二 57,
        白四 38) one by one, each under its number and name, 濟緣記 after it: 「十七十八訶責并解者…」,
        「三十二與本日治者…」, 「三十六不癡者…」.  A procedure or 滅諍 named by such a heading has there
        its 疏 and 記, where no hand phrase placed it in X0728 already (admonitions() places the 諫)."""
        found = self._chapter("X0728", "集法緣成篇")
        if found is None:
            return
        s, part = found
        heads = [h for h in headings(s, rf"(?<=[\n。也])(?P<num>{_NUM})(?:及?{_NUM})(?P<name>[^者。\n也]{{1,10}}?)者",
                                     part.start, part.end) if h.num and s.layer_at(h.offset) == "daoxuan"]
        listed = [h for run in _rising_runs(heads) if len(run) >= KARMA_LIST_MIN for h in run]
        opens = [h.offset for h in listed if s.record_at(h.offset)[1] == 0] + [part.end]
        # each candidate's names with their form words set aside, once for all headings
        known = [(t, [n for n in map(self._karma_core, t.names) if n], any(n.endswith("羯磨") for n in t.names))
                 for t in self.topics.values() if t.cls in ("procedure", "as")]
        placed: set[str] = set()
        for h in listed:
            if h.name.startswith("諫"):
                continue
            for t in _karma_named(self._karma_core(h.name), known):
                t = self.topics.get(t.same_as, t) if t.same_as else t
                # a topic's place is the first karma naming it (與覆鉢, not 解覆鉢 after it)
                if t.id in placed or any(a.work == "X0728" for a in t.anchors):
                    continue
                placed.add(t.id)
                self._shu_and_ji(t, s, h.offset, next(o for o in opens if o > h.offset), "X0728")

    def _karma_core(self, name: str) -> str:
        """A karma's name without the words of its form (與依止并解 → 依止, 依止羯磨 → 依止)."""
        x = self.fold(name)
        for w in KARMA_FORM:
            x = x.replace(self.fold(w), "")
        return re.sub(self.fold(KARMA_FORM_EDGE), "", x)

    def sifenlu(self, order: str, topics: list[Topic]) -> None:
        """四分律: each rule's final statement inside its 分's chapters of the rules, then its 不犯."""
        s = self.stream("T1428")
        if s is None:
            return
        chapters = sorted((c for cs in class_chapters(toc_ranges(self.db, s), order == "n").values() for c in cs),
                          key=lambda c: c.start)
        if not chapters:
            self.notes.append("四分律目录中找不到戒条各章")
            return
        start, end = chapters[0].start, max(c.end for c in chapters)
        found = align_rules([t.text for t in topics], s, start, end, ordered=True)
        placed = [(t, hit[0]) for t, hit in zip(topics, found) if hit]
        for k, (t, off) in enumerate(placed):
            self.anchor(t, "T1428", "rule", off)
            nxt = placed[k + 1][1] if k + 1 < len(placed) else end
            ex = s.find("不犯者", off, nxt)
            if ex >= 0:
                self.anchor(t, "T1428", "exempt", ex)
            if k:
                story = _story_opening(s.text, placed[k - 1][1], off)
                if story is not None:
                    self.anchor(t, "T1428", "story", story)
        for cls in {t.cls for t in topics}:
            first = next((off for t, off in placed if t.cls == cls), None)
            if first is not None:
                self.anchor(self.topics[f"{order}.{cls}"], "T1428", "chapter",
                            next((c.start for c in chapters if c.start <= first < c.end), first))

    def hanzhu(self, topics: list[Topic]) -> None:
        """含注戒本: 「初大婬戒　」 — 道宣's name of each rule, where his notes on it begin."""
        s = self.stream("T1806")
        if s is None:
            return
        heads = headings(s, rf"(?:(?P<num>初|[{NUMERALS}]+)|(?<=[\n。　]))(?P<name>(?:(?!半月)[^　。，\n]){{1,16}}?戒)　",
                         0, len(s.text), class_marks(s))
        self._place(topics, heads, "T1806", "heading")

    def jiebenshu(self, topics: list[Topic]) -> None:
        """戒本疏 / 行宗記 (X0714): 「【律】十八畜錢寶戒。【疏】…」, the 記 after the 疏."""
        s = self.stream("X0714")
        if s is None:
            return
        # the first rule of a class may follow the recitation's opening in the same 【律】:
        # 「【律】諸大德是二不定法半月半月說戒經中來屏處不定戒。」
        heads = headings(s, rf"【律】(?:[^【。\n]{{0,30}}?戒經中來)?(?P<num>初|第?[{NUMERALS}]+)?"
                            rf"(?P<name>[^【。\n]{{1,16}}?戒)(?=[。【])",
                         0, len(s.text), class_marks(s))
        placed = self._place(topics, heads, "X0714", "heading", layer="vinaya")
        bounds = sorted(h.offset for h in placed.values()) + [len(s.text)]
        for t, h in placed.items():
            self._shu_and_ji(t, s, h.offset, bounds[bisect.bisect_right(bounds, h.offset)])

    def sekhiya_groups(self, topics: list[Topic]) -> None:
        """戒本疏 treats the hundred 眾學 by groups, saying which: 「三從不得佛塔中止宿下至安佛在下
        房來有二十六戒明敬佛威儀行…」, 「四從人坐己立下十五戒…」, 「五十二下有二十戒皆是非儀輙為說
        法…」 (行宗記 after it: 「從五十二至五十九有八戒又從八十六至九十二…」).  Forty-six rules are
        stated only by number, 「…式叉迦羅尼如上」, and have no note of their own: a group's 疏
        (and the 記 on it) is their treatment, and stands beside the 註 of a rule that has one.
        A group is taken only when its first and last rule, found by their words, span as many
        rules as it says."""
        s = self.stream("X0714")
        rules = {t.num: t for t in topics if t.cls == "sk"}
        if s is None or not rules:
            return
        marks = class_marks(s)
        start = next((off for off, cls in marks if cls == "sk"), None)
        if start is None:
            return
        end = next((off for off, cls in marks if off > start), len(s.text))
        for off, nums in self._sekhiya_group_spans(s, rules, start, end):
            k = s._rec(off)
            ji = s.starts[k + 1] if k + 1 < len(s.starts) and s.layers[k + 1] == "yuanzhao" else None
            for n in nums:
                t = rules[n]
                if any(a.work == "X0714" and a.offset == off for a in t.anchors):
                    continue            # the group's 疏 follows this rule: its own treatment already
                self.anchor(t, "X0714", "group", off, layer="daoxuan")
                if ji is not None:
                    self.anchor(t, "X0714", "group", ji, layer="yuanzhao")

    def _sekhiya_group_spans(self, s: Stream, rules: dict[int, Topic], start: int,
                             end: int) -> list[tuple[int, list[int]]]:
        """(offset of the 【疏】, the rules' numbers) of each group 戒本疏 names, in the order a rule
        of several groups takes them."""
        num = "[一二三四五六七八九十百兩]+"
        out = []
        for para in re.finditer(r"【疏】[^【]*", s.raw[start:end]):
            off, text = start + para.start(), para.group(0)
            # by the rules' words: 從A(下)至B來有N戒 / 從A下N戒 (A may be 始, the first rule)
            for m in re.finditer(rf"(?:從|(?<=[初二三四五六]))(?P<a>[^，。；【\n從]{{1,16}}?)(?:下?(?:訖|至)"
                                 rf"(?P<b>[^，。；【\n]{{2,16}}?)來|下)有?(?P<n>{num})戒", text):
                first = 1 if m.group("a") == "始" else self._rule_named(rules, m.group("a"))
                count = chinese_number(m.group("n").replace("兩", "二"))
                if first is None or not count:
                    continue
                last = self._rule_named(rules, m.group("b"), last=True) if m.group("b") else first + count - 1
                if last is not None and last - first + 1 == count and last in rules:
                    out.append((1, off, list(range(first, last + 1))))
            # by number: 「五十二下有二十戒」, the 記 after it (no mark of its own, so still in
            # ``text``) naming the runs 「從五十二至五十九…」
            m = re.match(rf"【疏】(?P<first>{num})下有(?P<n>{num})戒", text)
            if m:
                runs = [(chinese_number(a), chinese_number(b)) for a, b in re.findall(rf"從({num})至({num})", text)]
                nums = [n for a, b in runs if a and b for n in range(a, b + 1)]
                if nums and len(nums) == chinese_number(m.group("n")) and all(n in rules for n in nums):
                    out.append((0, off, nums))
        # a group treated among its rules (「五十二下…」, after rule 52) before the opening's survey
        # of the class, the narrowest first; the first of the four (「初從始至不得立便利來有五十一戒」)
        # is half the class: its words are about all of it, no rule's own
        return [(off, nums) for _, off, nums in sorted(out, key=lambda g: (g[0], len(g[2])))
                if len(nums) <= SEKHIYA_GROUP_MAX]

    def _rule_named(self, rules: dict[int, Topic], words: str, last: bool = False) -> int | None:
        """The rule whose 戒本 text or names hold most of ``words`` (half of its bigrams at least);
        of rules holding them alike, the first (a group's first rule) or the ``last``."""
        want = _bigrams(self.fold(words))
        if not want:
            return None
        best, score = None, 0.0
        for n, t in sorted(rules.items()):
            have = _bigrams(self.fold(t.text + "".join(t.names)))
            share = len(want & have) / len(want)
            if share >= 0.5 and (share > score or (last and share == score)):
                best, score = n, share
        return best

    def _shu_and_ji(self, t: Topic, s: Stream, statement: int, nxt: int, work: str = "X0714") -> None:
        """戒本疏 (X0714) after a rule's 【律】 statement: the first 疏 (道宣) and the first 記 (元照)
        after it, before the next rule's statement (and so in 羯磨疏, X0728)."""
        shu = s.next_layer("daoxuan", statement, nxt)
        if shu >= 0:
            self.anchor(t, work, "treatment", shu)
            ji = s.next_layer("yuanzhao", shu, nxt)
            if ji >= 0:
                self.anchor(t, work, "explains", ji)

    def miezheng(self, topics: list[Topic]) -> None:
        """The seven 滅諍 have no 「…戒」 heading: 含注戒本 and 戒本疏 state each as the 戒本 does
        (「應與現前毘尼當與現前毘尼」, 戒本疏 after 【律】), in the rules' order; the 疏 and 記 on each
        follow its statement."""
        rules = sorted((t for t in topics if t.cls == "as"), key=lambda t: t.num)
        statement = self.fold("應與") + f"[^{self.fold('當')}。\n　]{{2,6}}" + self.fold("當與")     # streams are folded
        for work, pattern in (("T1806", statement), ("X0714", "【律】" + statement)):
            s = self.stream(work)
            if s is None or not rules:
                continue
            offs = [m.start() for m in re.finditer(pattern, s.text)]
            if len(offs) != len(rules):
                self.notes.append(f"{work}：七滅諍的条文找到 {len(offs)} 处，未定位")
                continue
            for t, off, nxt in zip(rules, offs, offs[1:] + [len(s.text)]):
                if work == "T1806":
                    self.anchor(t, work, "heading", off)
                    continue
                self.anchor(t, work, "heading", off, layer="vinaya")
                self._shu_and_ji(t, s, off, nxt)

    def xingshichao(self, topics: list[Topic]) -> None:
        """行事鈔 隨戒釋相篇: 「畜錢寶戒十八。」 heads each rule's treatment."""
        found = self._chapter("T1804", "隨戒釋相篇")
        if found is None:
            return
        s, part = found
        # 「第二盜戒」 for the 波羅夷, 「摩觸女人戒第二。」 for the 僧殘, 「畜錢寶戒十八。」 after them
        patterns = (rf"(?<=[。\n])第(?P<num>[{NUMERALS}]+)(?P<name>[^。\n]{{1,10}}?戒)",
                    rf"(?<=[。\n])(?P<name>[^。\n]{{1,14}}?戒)第(?P<num>[{NUMERALS}]+)[。]",
                    rf"(?<=[。\n])(?P<name>[^。\n]{{1,14}}?戒)(?P<num>[{NUMERALS}]+)。")
        heads = sorted((h for p in patterns for h in headings(s, p, part.start, part.end)), key=lambda h: h.offset)
        numbered = [t for t in topics if t.cls not in CHAO_BY_NAME]
        placed = self._place(numbered, heads, "T1804", "treatment", gaps=(part.start, part.end), by_order=True)
        named = self._named_runs(s, topics, {t: h.offset for t, h in placed.items()}, part.start, part.end, (CHAO_NOTE,))
        for t, off in named.items():
            self.anchor(t, "T1804", "treatment", off)

    def _named_runs(self, s: Stream, topics: list[Topic], placed: dict[Topic, int], start: int, end: int,
                    patterns: tuple[str, ...]) -> dict[Topic, int]:
        """The classes 行事鈔 treats without numbers (二不定, 四提舍尼, 眾學), and 資持記 after it, name
        each rule they note by its words: 「初不定中。」, 「學家過受戒。」, 「以次食者。非謂鉢中處處取食食
        也」, 「次食戒譏言」.  Each run of such rules not yet ``placed`` is looked for between the
        placed rules around it, as a chain of name likeness in the rules' order; a rule is known
        by its names and by its 戒本 words without the class's formula (「不得視比坐鉢中」 → 視比座者).
        The 眾學 note a rule of going into a house shares with its rule of sitting there
        (「四反抄坐戒。文相可知。已後約略而解不復記數」) is both rules' place."""
        if self._monk_names is None:       # the names the 鈔 uses are often these hand-written ones
            self._monk_names = load_resource_json("topics/monks.json")
        hand = self._monk_names

        def known_by(t: Topic) -> list[str]:
            return t.names + hand.get(t.id, {}).get("names", []) + [_rule_core(t.text)]

        # 「二不定中」「四提舍尼」「眾學戒中」 (a count and the class's name) open a class, no rule
        opening = re.compile(s.fold(rf"[一二三四五六七八九十百]*(?:{'|'.join(CLASS_NAME[c] for c in CHAO_BY_NAME)})"))
        order = sorted(topics, key=lambda t: (CLASS_ORDER.index(t.cls), t.num))
        found: dict[Topic, int] = {}
        for run in _runs(order, lambda t: t.cls in CHAO_BY_NAME and t not in placed):
            k = order.index(run[0])
            lo = next((placed[u] + 1 for u in reversed(order[:k]) if u in placed), start)
            hi = next((placed[u] for u in order[k + len(run):] if u in placed), end)
            heads = [h for h in _headings_of(s, patterns, lo, hi)
                     if not any(opening.fullmatch(s.text, h.offset, h.offset + len(h.name) + x) for x in (0, 1))]
            table = assign_by_names(heads, run, self.fold, least=CHAO_NAME_LEAST, names=known_by, numbered=True)
            found.update((t, h.offset) for t, h in table.items())
        for t in order:
            twin = _sitting_twin(t, order, found) if t not in found and t not in placed else None
            if twin is not None:
                found[t] = found[twin]
        return found

    def _place(self, topics: list[Topic], heads: list[Heading], work: str, role: str,
               layer: str | None = None, gaps: tuple[int, int] | None = None,
               by_order: bool = False) -> dict[Topic, Heading]:
        """Anchor each rule at its numbered heading (by class marks, or ``by_order`` where the
        text has none); with ``gaps``, a rule whose heading was not numbered is looked for by
        its names between its neighbours' headings."""
        if by_order:
            table = assign_by_order(heads, topics, self.stream(work))
        else:
            table = by_number(heads, collections.Counter(t.cls for t in topics))
        placed = {}
        for t in topics:
            h = table.get((t.cls, t.num))
            if h is not None:
                t.add_name(re.sub(rf"^(第?[{NUMERALS}]+|初)", "", h.name))
                placed[t] = h
        if gaps is not None:
            s = self.stream(work)
            for i, t in enumerate(topics):
                if t in placed or not t.names:
                    continue
                lo = next((placed[u].offset for u in reversed(topics[:i]) if u in placed), gaps[0])
                hi = next((placed[u].offset for u in topics[i + 1:] if u in placed), gaps[1])
                off = _find_name(s, t.names, lo, hi)
                if off >= 0:
                    placed[t] = Heading(off, t.cls, t.num, t.names[0])
        for t, h in placed.items():
            self.anchor(t, work, role, h.offset, layer)
        return placed

    def other_vinayas(self, topics: list[Topic]) -> None:
        """五分律, 僧祇律, 十誦律 where they state the same rule, searched in their chapter of the
        same class.  The 波羅夷 and 僧殘 follow one order in every Vinaya, so there the
        statements are placed as a chain; the later classes differ in order and each rule is
        placed on its own, only at a statement (若比丘 …) and one rule per statement.  The
        class's formula bigrams (若比丘, 波逸提) are left out of the comparison: in a short rule
        (嫌罵者，波逸提) they would otherwise be most of what matches."""
        for work in ("T1421", "T1425", "T1435"):
            s = self.stream(work)
            if s is None:
                continue
            chapters = class_chapters(toc_ranges(self.db, s), nun=topics[0].nun)

            def statement(off: int, text: str = s.text) -> bool:
                return "若比丘" in text[max(0, off - 4):off + 6]

            def holds(words: set[str], off: int, length: int, text: str = s.text) -> bool:
                return bool(words & _bigrams(_words(text[off:off + length + 12])[0]))

            for cls, ranges in chapters.items():
                picks = [t for t in topics if t.cls == cls and cls not in ("sk", "as")]
                if not picks:
                    continue
                common = formula_bigrams([t.text for t in picks], self.fold)
                own = _own_bigrams([t.text for t in picks], self.fold)
                ordered = cls in SHARED_ORDER and len(ranges) == 1
                found = []
                for r in ranges:
                    hits = align_rules([t.text for t in picks], s, r.start, r.end, ordered=ordered,
                                       minimum=OTHER_CHAIN_MIN if ordered else OTHER_MIN, common=common,
                                       accept=None if ordered else statement)
                    # a short rule (與未受大戒人共誦, 不受諫) shares most of its words with a
                    # neighbour (共宿, 不受食): only its own words tell its statement from theirs
                    found += [(hit[1], t, hit[0]) for t, mine, hit in zip(picks, own, hits)
                              if hit and (ordered or holds(mine, hit[0], len(t.text)))]
                # one statement per rule and one rule per statement, surest pairs first: two
                # rules alike in wording (共宿 and 同誦 with the unordained) must not share a place
                used: list[int] = []
                done: set[str] = set()
                for share, t, off in sorted(found, key=lambda x: -x[0]):
                    if t.id in done or any(abs(off - u) < 30 for u in used):
                        continue
                    done.add(t.id)
                    used.append(off)
                    self.anchor(t, work, "rule", off)

    def zichiji(self, topics: list[Topic]) -> None:
        """資持記 explains 行事鈔 in order: for each treatment the passage the commentary links tie
        to it, inside 資持記's 篇 of the same number, keeping only explanations that follow one
        another in the 鈔's order (a link to a far place is a shared quotation, not the gloss)."""
        s, chao = self.stream("T1805"), self.stream("T1804")
        if s is None or chao is None:
            return
        ji_pian = self._numbered_pian()[1]
        # 資持記 opens each rule with its number (ji_headings)
        part = ji_pian.get("14")
        placed: dict[Topic, int] = {}
        if part and not topics[0].nun:
            table = assign_by_order(ji_headings(s, *part), topics, s)
            placed = {t: table[(t.cls, t.num)].offset for t in topics if (t.cls, t.num) in table}
            placed.update(self._named_runs(s, topics, placed, part[0], part[1], JI_NOTE))
        # the rest by name (「婬戒佛在毘舍離國」), else through the commentary links, kept in
        # order between the placed ones
        order = sorted(((a.offset, t) for t in topics for a in t.anchors if a.work == "T1804"),
                       key=lambda x: x[0])
        for i, (off, t) in enumerate(order):
            if t in placed:
                continue
            lo, hi = self._ji_span(off)
            # after the rule before it, never on its gloss: a rule 資持記 gives no heading of its
            # own had been anchored there (單提 45 on 44's)
            lo = next((placed[u] + 1 for _, u in reversed(order[:i]) if u in placed), lo)
            hi = next((placed[u] for _, u in order[i + 1:] if u in placed), hi)
            hit = _find_name(s, [n + "佛在" for n in t.names], lo, hi)
            if hit < 0:
                hit = self._linked("T1804", off, "T1805", lo, hi)
            if hit is not None and hit >= 0:
                placed[t] = hit
        for t, off in placed.items():
            self.anchor(t, "T1805", "explains", off)

    def _numbered_pian(self) -> tuple[list[tuple[int, int, str]], dict[str, tuple[int, int]]]:
        """行事鈔's 篇 as (start, end, number) and 資持記's 「N 釋…篇」 by number: 資持記 explains
        each 篇 in a 篇 of the same number."""
        if self._pian_cache is None:
            chao, ji = self.stream("T1804"), self.stream("T1805")
            self._pian_cache = (
                [(r.start, r.end, m.group(1)) for r in toc_ranges(self.db, chao)
                 if r.level == 1 and (m := re.match(r"(\d+)\s", r.label))],
                {m.group(1): (r.start, r.end) for r in toc_ranges(self.db, ji)
                 if r.level == 1 and (m := re.match(r"(\d+)\s", r.label))})
        return self._pian_cache

    def _ji_span(self, chao_offset: int) -> tuple[int, int]:
        """The range of 資持記 that explains the 行事鈔 篇 holding ``chao_offset``."""
        chao_pian, ji_pian = self._numbered_pian()
        num = next((n for a, b, n in chao_pian if a <= chao_offset < b), None)
        return ji_pian.get(num, (0, len(self.stream("T1805").text)))

    def _linked(self, work: str, offset: int, target: str, lo: int = 0, hi: int | None = None) -> int | None:
        """Offset in ``target`` (within [lo, hi)) of the best-linked explanation of the passage
        at ``offset``."""
        s = self.stream(work)
        rid, roff = s.record_at(offset)
        row = self.db.execute('SELECT passage FROM passage_of_record WHERE record=? AND start<=? AND "end">? ',
                              (rid, roff, roff)).fetchone()
        if row is None:
            return None
        for pid in (row[0], row[0] + 1, row[0] + 2):
            links = self.db.execute("SELECT dst, weight FROM links WHERE src=? ORDER BY weight DESC, dst",
                                    (pid,)).fetchall()
            for dst, _ in links:
                seg = self.db.execute("SELECT segments FROM passages WHERE id=?", (dst,)).fetchone()
                rec, start, _ = json.loads(seg[0])[0]
                t = self.stream(target)
                k = bisect.bisect_left(t.records, rec)
                if k < len(t.records) and t.records[k] == rec:
                    off = t.starts[k] + start
                    if lo <= off < (len(t.text) if hi is None else hi):
                        return off
        return None

    # chapters and 篇 ----------------------------------------------------------------------
    def khandhakas(self) -> None:
        s = self.stream("T1428")
        if s is None:
            return
        hand = {k["label"]: k for k in self.hand.get("khandhakas", [])}
        chapters: list[TocRange] = []
        for r in toc_ranges(self.db, s):
            if r.level == 2 and "揵度" in r.label:
                label = re.sub(r"^\d+\s*|第$|[上下]$", "", r.label)
                if chapters and re.sub(r"^\d+\s*|第$|[上下]$", "", chapters[-1].label) == label:
                    chapters[-1].end = r.end            # 自恣揵度上 / 下 are one chapter
                    continue
                chapters.append(TocRange(r.level, label, r.start, r.end))
        self.other_chapters(s, len(chapters))
        for i, ch in enumerate(chapters, 1):
            t = Topic(f"k.{i:02d}", "khandhaka", i)
            t.add_name(ch.label)
            t.add_name(ch.label.replace("揵度", "犍度"))
            info = hand.get(ch.label, {})
            for n in info.get("names", []):
                t.add_name(n)
            self.topics[t.id] = t
            self.anchor(t, "T1428", "chapter", ch.start)
            ranges = {"T1428": (ch.start, ch.end)}
            ranges.update(self._pian_ranges(info.get("pian", []), "T1804"))
            ranges.update(self._pian_ranges(info.get("pian", []), "T1805"))
            ranges.update(self._karma_ranges(info.get("karma", [])))
            for work, (a, _) in ranges.items():
                if work != "T1428":
                    self._anchor_range_start(t, work, a)
            # a 篇 that treats only one of the chapter's procedures among other things (隨戒釋相篇
            # explains 破僧違諫戒 among all the precepts) is searched for that procedure but is no
            # treatment of the chapter: its opening would stand for every 破僧 question
            for work in ("T1804", "T1805"):
                if work not in ranges:
                    ranges.update(self._pian_ranges(info.get("find_in", []), work))
            for j, proc in enumerate(info.get("procedures", []), 1):
                p = Topic(f"{t.id}.{proc['key']}", "procedure", j, parent=t.id)
                for n in proc.get("names", []):
                    p.add_name(n)
                self.topics[p.id] = p
                self._find_all(p, proc.get("find", {}), ranges)

    def other_chapters(self, s: Stream, after: int) -> None:
        """The chapters of 四分律's fourth part that are not 犍度 — the councils (集法毘尼五百人,
        七百集法毘尼), 調部, 毘尼增一 — are topics too (a reader asks who recited the Vinaya)."""
        k = after
        for r in toc_ranges(self.db, s):
            if r.level == 2 and "揵度" not in r.label and _class_of(r.label) is None:
                k += 1
                t = Topic(f"k.{k:02d}", "chapter", k)
                t.add_name(re.sub(r"^\d+\s*", "", r.label))
                self.topics[t.id] = t
                self.anchor(t, "T1428", "chapter", r.start)

    def pian(self) -> None:
        s = self.stream("T1804")
        if s is None:
            return
        hand = {re.sub(r"\(.*\)$", "", p["label"]): p for p in self.hand.get("pian", [])}
        for r in toc_ranges(self.db, s):
            m = re.match(r"(\d+)\s*(.+?篇)", r.label)
            if r.level != 1 or not m:
                continue
            num = int(m.group(1))
            t = Topic(f"p.{num:02d}", "pian", num)
            t.add_name(m.group(2))
            info = hand.get(f"{num} {m.group(2)}", {})
            for n in info.get("names", []):
                t.add_name(n)
            self.topics[t.id] = t
            self.anchor(t, "T1804", "chapter", r.start)
            ranges = {"T1804": (r.start, r.end)}
            ranges.update(self._pian_ranges([r.label], "T1805"))
            if "T1805" in ranges:
                self._anchor_range_start(t, "T1805", ranges["T1805"][0])
            for j, sec in enumerate(info.get("sections", []), 1):
                p = Topic(f"{t.id}.{sec['key']}", "section", j, parent=t.id)
                for n in sec.get("names", []):
                    p.add_name(n)
                self.topics[p.id] = p
                self._find_all(p, sec.get("find", {}), ranges)

    def _pian_ranges(self, labels: list[str], work: str) -> dict[str, tuple[int, int]]:
        """行事鈔 篇 (by number) -> its range in T1804, or in 資持記's 「N 釋…篇」."""
        s = self.stream(work)
        if s is None or not labels:
            return {}
        nums = {int(m.group(1)) for lab in labels if (m := re.match(r"(\d+)", lab))}
        spans = [(r.start, r.end) for r in toc_ranges(self.db, s)
                 if r.level == 1 and (m := re.match(r"(\d+)\s", r.label)) and int(m.group(1)) in nums]
        return {work: (min(a for a, _ in spans), max(b for _, b in spans))} if spans else {}

    def _karma_ranges(self, labels: list[str]) -> dict[str, tuple[int, int]]:
        """隨機羯磨 T1808 「N 名篇(…)」 and X0728 「名篇第N」 by the 篇's name."""
        out = {}
        names = {re.sub(r"^\d+\s*|\(.*\)$|第[一二三四五六七八九十]+$", "", lab) for lab in labels}
        for work in ("T1808", "X0728"):
            s = self.stream(work)
            if s is None or not names:
                continue
            spans = [(r.start, r.end) for r in toc_ranges(self.db, s)
                     if re.sub(r"^\d+\s*|\(.*\)$|第[一二三四五六七八九十]+$", "", r.label) in names]
            if spans:
                out[work] = (min(a for a, _ in spans), max(b for _, b in spans))
        return out

    def _anchor_range_start(self, t: Topic, work: str, start: int) -> None:
        """The opening of a chapter in a commentary: in X0728 the 疏 (daoxuan) and the 記 after it."""
        s = self.stream(work)
        if work == "X0728":
            shu = s.next_layer("daoxuan", start, len(s.text))
            if shu >= 0:
                self.anchor(t, work, "chapter", shu)
                ji = s.next_layer("yuanzhao", shu, len(s.text))
                if ji >= 0:
                    self.anchor(t, work, "explains", ji)
        else:
            self.anchor(t, work, "chapter", start)

    def _find_all(self, t: Topic, finds: dict, ranges: dict) -> None:
        for work, phrase in finds.items():
            if work not in ranges or self.stream(work) is None:
                continue
            a, b = ranges[work]
            off = self.stream(work).find(phrase, a, b)
            if off < 0:
                self.notes.append(f"{t.id}: 「{phrase}」 不在 {work} 的相应篇章中")
                continue
            role = "section" if work in ("T1428", "T1804", "T1808") else "explains"
            if work == "X0728":
                role = "section" if self.stream(work).layer_at(off) == "daoxuan" else "explains"
            self.anchor(t, work, role, off)

    # ends ----------------------------------------------------------------------------------
    def close_sections(self) -> None:
        """Each anchor's treatment runs to the next anchor of the same kind in the same work (a
        rule's 四分律 statement to the next rule's story, the story to its own statement)."""
        groups: dict[tuple, list[Anchor]] = collections.defaultdict(list)
        for t in self.topics.values():
            kind = "class" if t.cls == "class" else ("chapter" if t.cls in ("khandhaka", "pian") else "item")
            for a in t.anchors:
                if a.role != "exempt":
                    groups[(a.work, kind)].append(a)
        for anchors in groups.values():
            anchors.sort(key=lambda a: a.offset)
            for i, a in enumerate(anchors):
                a.end_line = next((b.line for b in anchors[i + 1:] if b.line > a.line), None)
        # the last of its kind in a work (眾學, the last class 行事鈔 and 資持記 treat) ran one
        # passage; its treatment runs to the end of the chapter holding it (隨戒釋相篇)
        for (work, kind), anchors in groups.items():
            chapters = groups.get((work, "chapter"), []) if kind != "chapter" else []
            for a in anchors:
                if a.end_line is None:
                    a.end_line = next((c.end_line for c in reversed(chapters)
                                       if c.line <= a.line and c.end_line and a.line < c.end_line), None)

    def quoted_vinaya(self) -> None:
        """A 行事鈔 section's 律本 places: the 四分律 passages it quotes (role cited), and the
        五分律, 僧祇律 and 十誦律 passages it quotes beside them (role parallel).

        道宣 treats a section of practice (依止, 受欲, 瞻病) by quoting the 律 where it
        says so, scattered over the 犍度 and rules (「律云…」, 「四分…」, abridged).  The
        四分律 passages holding most of the section's rare 3-grams are those quotations;
        the best few become the section's places in the 律本 layer, which it had none of
        (with retrieval taking only those the question points to: tune sets +6 gold, nothing
        lost, two zero-hit questions fewer, dev +1).  「五分云…」「僧祇…」 quote the other Vinayas'
        rulings on the same practice (a 維那's 唱, an old man's going forth): those passages are
        raised in the search, without a slot of their own (retrieve._topic_picks; as slots they
        pushed out 四分律's passages: tune sets −1, raised only +3, none lost).  Built after
        close_sections: a quotation is a single passage, with no treatment to close."""
        chao = self.stream("T1804")
        for work in CITED_VINAYAS:
            lu = self.stream(work)
            if lu is None or chao is None:
                continue
            lu_psg = self._vinaya_grams(work)[0]
            chao_psg, quotes = self._chao_quotes(work)
            chao_starts = [off for off, _, _ in chao_psg]
            for t in self.topics.values():
                a = next((a for a in t.anchors if a.work == "T1804"), None) if t.cls == "section" else None
                if a is None:
                    continue
                end = chao.offset_of_line(a.end_line) if a.end_line else len(chao.text)
                found = _quoted_in(chao_starts, a.offset, end, CITED_SPAN, quotes.__getitem__)
                own = work == CITED_VINAYAS[0]
                for i, w in sorted(found.items(), key=lambda iw: (-iw[1], iw[0]))[:CITED_KEEP]:
                    if not own and w < PARALLEL_LEAST:
                        break
                    self.anchor(t, work, "cited" if own else "parallel", _first_line_start(lu, lu_psg[i][0]),
                                layer="vinaya")

    def quoting_chao(self) -> None:
        """A 犍度 procedure's 道宣 and 元照 places when the hand data names none: the 行事鈔
        passages that quote its 律 section (quoted_vinaya the other way round), and the 資持記
        passage the commentary links tie to each.

        道宣 treats the 雜揵度's and 房舍揵度's rulings (杖絡囊, 畜狗, 私房) where they bear on a
        practice, in whatever 篇 that is, by quoting them (「四分…不應…」); the 鈔 passages
        holding most of the section's rare 3-grams are those quotations.  Built last: a
        quotation is a single passage, with no treatment to close."""
        lu, chao = self.stream("T1428"), self.stream("T1804")
        if lu is None or chao is None:
            return
        lu_psg = self._vinaya_grams()[0]
        lu_starts = [off for off, _, _ in lu_psg]
        chao_psg, quotes = self._chao_quotes()
        quoted_by: dict[int, list[tuple[int, int]]] = collections.defaultdict(list)
        for j, quoted in enumerate(quotes):
            if chao_psg[j][2] == "daoxuan":
                for i, w in quoted.items():
                    quoted_by[i].append((j, w))
        for t in self.topics.values():
            a = next((a for a in t.anchors if a.work == "T1428" and a.role == "section"), None)
            if t.cls != "procedure" or a is None or any(b.work == "T1804" for b in t.anchors):
                continue
            end = lu.offset_of_line(a.end_line) if a.end_line else len(lu.text)
            found = _quoted_in(lu_starts, a.offset, end, QUOTING_SPAN, lambda i: dict(quoted_by.get(i, ())))
            for j, w in sorted(found.items(), key=lambda jw: (-jw[1], jw[0]))[:QUOTING_KEEP]:
                if w < QUOTING_LEAST:
                    break
                off = _first_line_start(chao, chao_psg[j][0])
                self.anchor(t, "T1804", "cited", off, layer="daoxuan")
                ji = self._linked("T1804", off, "T1805", *self._ji_span(off))
                if ji is not None and ji >= 0 and not any(b.work == "T1805" and b.offset == ji for b in t.anchors):
                    self.anchor(t, "T1805", "cited", ji, layer="yuanzhao")

    def _vinaya_grams(self, work: str = "T1428") -> tuple[list[tuple[int, str, str]], dict[str, list[int]]]:
        """A Vinaya's passages and their rare 3-grams (the evidence of a quotation), read once for
        both directions of quoting."""
        if work not in self._grams_cache:
            lu_psg = [p for p in self._passages(self.stream(work)) if p[2] == "vinaya"]
            self._grams_cache[work] = (lu_psg, rare_index([text for _, text, _ in lu_psg], CITED_RARE, 3))
        return self._grams_cache[work]

    def _chao_quotes(self, work: str = "T1428") -> tuple[list[tuple[int, str, str]], list[dict[int, int]]]:
        """行事鈔's passages, and for each the passages of a Vinaya (四分律 unless said) it quotes
        (index -> rare 3-grams shared, at least CITED_LEAST), read and scored once for both
        directions of quoting."""
        if work not in self._quotes_cache:
            inverted = self._vinaya_grams(work)[1]
            if self._chao_psg is None:         # read once for every Vinaya it quotes
                self._chao_psg = self._passages(self.stream("T1804"))
            chao_psg = self._chao_psg
            self._quotes_cache[work] = (chao_psg, [{i: w for i, w in shared_with(text, inverted, 3).items()
                                                    if w >= CITED_LEAST} for _, text, _ in chao_psg])
        return self._quotes_cache[work]

    def _passages(self, s: Stream) -> list[tuple[int, str, str]]:
        """(offset in the stream, folded text, layer) of each retrieval passage of the work."""
        rows = self.db.execute("SELECT p.segments, p.layer FROM passages p JOIN fascicles f ON p.fascicle=f.id "
                               "WHERE f.work=? ORDER BY p.id", (s.work,)).fetchall()
        out = []
        for segs, layer in rows:
            spans = [(s.starts[bisect.bisect_left(s.records, rid)] + a, b - a) for rid, a, b in json.loads(segs)]
            out.append((spans[0][0], "".join(s.text[o:o + n] for o, n in spans), layer))
        return out


def _quoted_in(starts: list[int], start: int, end: int, span: int,
               quoted: Callable[[int], dict[int, int]]) -> collections.Counter:
    """What one section's passages quote, summed: from the passage holding ``start``, at most
    ``span`` passages and none at or after ``end``; ``quoted(k)`` is passage k's {quoted: weight}."""
    first = max(bisect.bisect_right(starts, start) - 1, 0)
    found: collections.Counter = collections.Counter()
    for k in range(first, min(first + span, len(starts))):
        if starts[k] >= end:
            break
        found.update(quoted(k))
    return found


def _first_line_start(s: Stream, offset: int) -> int:
    """The first printed line that begins inside a passage starting at ``offset`` (a passage is cut
    at a sentence, mostly inside a line, and a place is found again by its line)."""
    line = s.line_at(offset)
    return offset if s.offset_of_line(line) >= offset else s.offset_of_line(line + 1)


SCHEMA_SQL = """
CREATE TABLE topics(id TEXT PRIMARY KEY, ord INTEGER, cls TEXT, num INTEGER, nun INTEGER, parent TEXT,
                    names TEXT, text TEXT, same_as TEXT);
CREATE TABLE topic_anchors(topic TEXT, layer TEXT, work TEXT, role TEXT, line INTEGER, end_line INTEGER,
                           col INTEGER);
CREATE INDEX topic_anchors_topic ON topic_anchors(topic);
"""


def write(db, topics: list[Topic]) -> None:
    db.executescript(SCHEMA_SQL)
    db.executemany("INSERT INTO topics VALUES(?,?,?,?,?,?,?,?,?)",
                   [(t.id, k, t.cls, t.num, int(t.nun), t.parent, json.dumps(t.names, ensure_ascii=False),
                     t.text, t.same_as) for k, t in enumerate(topics)])
    db.executemany("INSERT INTO topic_anchors VALUES(?,?,?,?,?,?,?)",
                   [(t.id, a.layer, a.work, a.role, a.line, a.end_line, a.col) for t in topics for a in t.anchors])
