"""Concordance: every occurrence of a phrase in the pack, in context, with its coordinate.

The daily tool of a teacher preparing a class: where does 「突吉羅」 occur, in which works,
on which printed lines.  Matching is exact on the folded text (insensitive to 繁/简 and
the pack's variant folding, so 捉錢 finds 捉钱 and the text's own 捉錢), within one
paragraph; several phrases may be required together, optionally within N characters
of the first.  Results come in canon order with counts per layer and per work.

Speed comes from the Whoosh index: a phrase of two or more word characters is found
through its bigram positions, which are character offsets, so the count is exact without
reading the text; only the rows a reader looks at (a page, an export) are read from the
pack.  Decoding positions has a price per occurrence, though, and a phrase as common as
比丘尼 or 突吉羅 costs more that way than counting it in every passage: a small planner
compares the two (the index knows how often the phrase's rarest part occurs and how many
characters the pack holds) and counts in the folded passages, kept in memory once the
检索 tab has been opened, when that is cheaper.  A phrase the index cannot hold (punctuation inside) is
always scanned.  Both ways give the same answer.
"""
from __future__ import annotations

import bisect
import csv
import functools
import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from ..ask.retrieve import Retriever
from ..corpus.build import UNSEARCHED_KINDS
from ..corpus.works import LAYER_NAMES
from ..errors import NanshanError
from ..text import is_word_char

CONTEXT = 24
MAX_PHRASE = 40
RECENT = 64             # phrases whose positions are kept
# The planner's costs in microseconds, measured on the default and the whole-律部 pack
# (2 shared cores; 25 phrases from 捉錢 to 比丘, each way forced):
POSITION_US = 2.5       # one position of the leading bigram decoded and kept
FOLLOW_US = 5.0         # one more bigram checked in one of the leading bigram's passages
FETCH_US = 40.0         # one passage read from the pack and folded (a single character)
SCAN_CHAR_US = 0.002    # one character of folded text counted in memory
SCAN_HIT_US = 0.2       # one occurrence found by the scan
BOUNDARY = "\0"         # between records in the in-memory text; never in a phrase


class SearchError(NanshanError):
    """A phrase that cannot be searched as given."""


class Occurrence(NamedTuple):
    """A named tuple, not a dataclass: a frequent phrase has tens of thousands of them."""

    doc: int            # passage docnum (canon order)
    offset: int         # of the first phrase in the passage's text
    length: int


@dataclass
class Row:
    """One KWIC line: where, and the phrase with its context (text as CBETA has it)."""

    work: str
    title: str
    layer: str
    juan: int
    coord: str
    left: str
    match: str
    right: str

    def to_json(self) -> dict:
        return self.__dict__.copy()


@dataclass
class Concordance:
    """Occurrences are kept per passage and spelled out a page at a time: a count and its
    per-layer figures are what most searches need, and 比丘尼 occurs 12,000 times.  A
    passage found by a scan may hold only its count until a page needs the offsets."""

    phrases: list[str]
    hits: list[tuple[int, list[int] | int]]     # (docnum, offsets or count), canon order
    length: int                                 # of the first phrase
    by_layer: dict[str, int] = field(default_factory=dict)
    by_work: dict[str, int] = field(default_factory=dict)
    resolve: Callable[[int], list[int]] | None = field(default=None, repr=False, compare=False)

    @functools.cached_property
    def count(self) -> int:
        return sum(_size(v) for _, v in self.hits)

    @property
    def occurrences(self) -> list[Occurrence]:
        return self.page(0, self.count)

    def page(self, start: int, count: int) -> list[Occurrence]:
        out, seen = [], 0
        for d, v in self.hits:
            n = _size(v)
            if seen + n > start:
                offs = v if isinstance(v, list) else self.resolve(d)
                out += [Occurrence(d, o, self.length) for o in offs[max(0, start - seen):]]
                if len(out) >= count:
                    return out[:count]
            seen += n
        return out


def _size(v: list[int] | int) -> int:
    return v if isinstance(v, int) else len(v)


def _overlaps_itself(phrase: str) -> bool:
    """「阿阿」 in 「阿阿阿」 is there twice; str.count would say once."""
    return any(phrase[:k] == phrase[-k:] for k in range(1, len(phrase)))


class Searcher:
    """Concordance over one pack (shares the retriever's passage table and Whoosh searcher)."""

    def __init__(self, retriever: Retriever):
        self.retriever = retriever
        self.pack = retriever.pack

    # -- finding --------------------------------------------------------------------
    def search(self, phrases: list[str], layer: str | None = None, works: list[str] | None = None,
               within: int | None = None) -> Concordance:
        phrases = [p.strip() for p in phrases if p and p.strip()]
        if not phrases:
            raise SearchError("请输入要检索的词句，例如：突吉羅")
        for p in phrases:
            if len(p) > MAX_PHRASE:
                raise SearchError(f"检索词过长（{len(p)} 字），请少于 {MAX_PHRASE} 字")
        if within is not None and within < 1:
            raise SearchError("「相距」须为正整数（字数）")
        folded = [self.pack.normalizer.fold_query(p) for p in phrases]
        first = self._find(folded[0])
        if len(folded) > 1:
            first = {d: self._offsets(d, folded[0], v) for d, v in first.items()}
            others = [self._find(f) for f in folded[1:]]
            first = {d: offs for d, offs in first.items() if all(d in o for o in others)}
            others = [{d: self._offsets(d, f, o[d]) for d in first} for f, o in zip(folded[1:], others)]
            if within is not None:
                first = {d: [o for o in offs if all(any(abs(x - o) <= within for x in other[d]) for other in others)]
                         for d, offs in first.items()}
        chunks, length = self.retriever.chunks, len(phrases[0])
        hits, by_layer, by_work = [], Counter(), Counter()
        for d in sorted(first):
            c = chunks[d]
            if (layer and c.layer != layer) or (works and c.work not in works):
                continue
            v = first[d]
            n = _size(v)
            if n:
                hits.append((d, v))
                by_layer[c.layer] += n
                by_work[c.work] += n
        return Concordance(phrases, hits, length, dict(by_layer), dict(by_work),
                           resolve=functools.partial(self._offsets_in_corpus, folded=folded[0]))

    def _find(self, folded: str) -> dict[int, list[int] | int]:
        """docnum -> start offsets of ``folded`` in the passage's text, within one paragraph,
        or only their number when a scan counted them (kept for the session's recent
        phrases: paging and changing filters search again)."""
        cache = self.__dict__.setdefault("_recent", {})
        if folded in cache:
            cache[folded] = cache.pop(folded)           # most recent last
            return cache[folded]
        out = self._find_uncached(folded)
        cache[folded] = out
        while len(cache) > RECENT:
            cache.pop(next(iter(cache)))
        return out

    def _find_uncached(self, folded: str) -> dict[int, list[int] | int]:
        hits = self.retriever.stored_starts(folded)       # a word of the app's vocabulary: kept
        if hits is None:
            if not self._index_is_cheaper(folded):
                return self._scan_all(folded)
            hits = self.retriever.phrase_starts(folded) if len(folded) >= 2 else self._scan_docs(folded)
        out = {}
        for d, offs in hits.items():
            starts = self._bounds(d)
            if len(starts) > 1:
                offs = [o for o in offs if self._one_record(starts, o, len(folded))]
            if offs:
                out[d] = offs
        return out

    def _offsets(self, doc: int, folded: str, v: list[int] | int) -> list[int]:
        return v if isinstance(v, list) else self._offsets_in_corpus(doc, folded)

    def _index_is_cheaper(self, folded: str) -> bool:
        """The query plan: the index costs what its rarest bigram's positions cost (plus a
        check of each other bigram in those passages); a scan costs the pack's size.  A
        phrase with punctuation is not in the index at all."""
        if not folded or not all(is_word_char(c) for c in folded):
            return False
        searcher = self.retriever.searcher
        if len(folded) == 1:
            freq = searcher.frequency("uni", folded)
            index = FETCH_US * searcher.doc_frequency("uni", folded)
        else:
            grams = {folded[k:k + 2] for k in range(len(folded) - 1)}
            lead = min(grams, key=lambda g: searcher.frequency("bi", g))
            freq = searcher.frequency("bi", lead)
            index = POSITION_US * freq + FOLLOW_US * searcher.doc_frequency("bi", lead) * (len(grams) - 1)
        return index <= SCAN_CHAR_US * self._pack_chars() + SCAN_HIT_US * freq

    def _pack_chars(self) -> int:
        chars = getattr(self, "_chars", None)
        if chars is None:
            chars = self._chars = int(self.retriever.searcher.field_length("uni")) or 1
        return chars

    def _scan_docs(self, char: str) -> dict[int, list[int]]:
        """One rare character: the passages the index says hold it, read from the pack."""
        from whoosh import query as wq
        m = wq.Term("uni", char).matcher(self.retriever.searcher)
        docs = []
        while m.is_active():
            docs.append(m.id())
            m.next()
        return self._scan_texts(char, ((d, self.retriever.folded_text(d)) for d in docs))

    def _scan_all(self, folded: str) -> dict[int, list[int] | int]:
        """Every passage in memory, counted (str.count, as fast as reading gets); a record
        boundary is a character no phrase holds, so no match spans two paragraphs.  A phrase
        that overlaps itself is located instead, since a count skips overlaps."""
        corpus = self.folded_corpus()
        if _overlaps_itself(folded):
            return {d: offs for d in range(len(corpus)) if (offs := self._offsets_in_corpus(d, folded))}
        return {d: n for d, text in enumerate(corpus) if (n := text.count(folded))}

    def _offsets_in_corpus(self, doc: int, folded: str) -> list[int]:
        """Start offsets in the passage's own text (the boundary marks taken out)."""
        text, out = self.folded_corpus()[doc], []
        pos = text.find(folded)
        while pos != -1:
            out.append(pos - text.count(BOUNDARY, 0, pos))
            pos = text.find(folded, pos + 1)
        return out

    @staticmethod
    def _scan_texts(folded: str, texts) -> dict[int, list[int]]:
        out: dict[int, list[int]] = {}
        for d, text in texts:
            pos = text.find(folded)
            if pos == -1:
                continue
            offs = []
            while pos != -1:
                offs.append(pos)
                pos = text.find(folded, pos + 1)
            out[d] = offs
        return out

    def folded_corpus(self) -> list[str]:
        """Every passage's folded text by docnum, a BOUNDARY between its records.  Read in two
        queries the first time it is needed (about a second on the default pack; the GUI
        warms it in the background), then kept: about 2 bytes a character."""
        cache = getattr(self, "_corpus", None)
        if cache is None:
            records = dict(self.pack.db.execute("SELECT id, text FROM records"))
            fold = self.pack.normalizer.fold
            cache = self._corpus = [
                BOUNDARY.join(fold(records[r][a:b]) for r, a, b in json.loads(segs))
                for _, segs in self.pack.db.execute("SELECT id, segments FROM passages ORDER BY id")]
            self._bounds(0)                 # and the record bounds, which the index path needs
        return cache

    def _bounds(self, doc: int) -> list[int]:
        """Offsets in a passage's text where a new record (paragraph) begins (read once for all)."""
        cache = getattr(self, "_bounds_cache", None)
        if cache is None:
            cache = {}
            for pid, segs in self.pack.db.execute("SELECT id, segments FROM passages"):
                if segs.count("[") > 2:             # more than one record: keep its boundaries
                    starts, base = [], 0
                    for _, a, b in json.loads(segs):
                        starts.append(base)
                        base += b - a
                    cache[pid - 1] = starts
            self._bounds_cache = cache
        return cache.get(doc, [0])

    @staticmethod
    def _one_record(starts: list[int], offset: int, length: int) -> bool:
        """A match must lie inside one paragraph (a passage may join several short ones)."""
        k = bisect.bisect_right(starts, offset)
        return k >= len(starts) or offset + length <= starts[k]

    # -- showing --------------------------------------------------------------------------
    def rows(self, result: Concordance, start: int = 0, count: int = 50, context: int = CONTEXT) -> list[Row]:
        """KWIC rows for occurrences [start, start+count) (a page; or all, for an export)."""
        out = []
        psg_cache: dict = {}
        for o in result.page(start, count):
            psg = psg_cache.get(o.doc) or psg_cache.setdefault(o.doc, self.pack.passage(o.doc + 1))
            c = self.retriever.chunks[o.doc]
            text = psg.text
            coord = self.pack.coord_of_line(psg.line_id_at(o.offset))
            title = self.pack.works[c.work]["short"]
            out.append(Row(c.work, title, c.layer, c.juan, coord,
                           text[max(0, o.offset - context):o.offset], text[o.offset:o.offset + o.length],
                           text[o.offset + o.length:o.offset + o.length + context]))
        return out

    def export_csv(self, result: Concordance, path) -> int:
        """All rows to a CSV a spreadsheet opens (UTF-8 with BOM); returns the row count."""
        rows = self.rows(result, 0, result.count)
        with open(path, "w", encoding="utf-8-sig", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["经号", "书名", "层", "卷", "坐标", "左文", "检索词", "右文"])
            for r in rows:
                w.writerow([r.work, r.title, LAYER_NAMES.get(r.layer, r.layer), r.juan, r.coord,
                            r.left, r.match, r.right])
        return len(rows)


def plain_count(pack, phrase: str) -> int:
    """Occurrences of a phrase in the searchable paragraphs by reading every one of them: the
    reference the concordance is tested against (and the baseline of the bench)."""
    folded = pack.normalizer.fold_query(phrase)
    fold = pack.normalizer.fold
    n = 0
    for kind, text in pack.db.execute("SELECT kind, text FROM records"):
        if kind in UNSEARCHED_KINDS:
            continue
        t = fold(text)
        pos = t.find(folded)
        while pos != -1:
            n += 1
            pos = t.find(folded, pos + 1)
    return n
