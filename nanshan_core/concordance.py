"""Concordance: every occurrence of a phrase in the pack, in context, with its coordinate.

The daily tool of a teacher preparing a class: where does 「突吉羅」 occur, in which works,
on which printed lines.  Matching is exact on the folded text (insensitive to 繁/简 and
the pack's variant folding, so 捉錢 finds 捉钱 and the text's own 捉錢), within one
paragraph; several phrases may be required together, optionally within N characters
of the first.  Results come in canon order with counts per layer and per work.

Speed comes from the Whoosh index: a phrase of two or more word characters is found
through its bigram positions, which are character offsets, so the count is exact without
reading the text; only the rows a reader looks at (a page, an export) are read from the
pack.  A phrase the index cannot hold (one character, punctuation inside) is found by
scanning the paragraphs, which gives the same answer more slowly.
"""
from __future__ import annotations

import bisect
import csv
import json
from collections import Counter
from dataclasses import dataclass, field

from .build import UNSEARCHED_KINDS
from .errors import NanshanError
from .retrieve import Retriever
from .text import is_word_char
from .works import LAYER_NAMES

CONTEXT = 24
MAX_PHRASE = 40
RECENT = 64             # phrases whose positions are kept


class SearchError(NanshanError):
    """A phrase that cannot be searched as given."""


@dataclass(frozen=True)
class Occurrence:
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
    phrases: list[str]
    occurrences: list[Occurrence]
    by_layer: dict[str, int] = field(default_factory=dict)
    by_work: dict[str, int] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.occurrences)


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
            others = [self._find(f) for f in folded[1:]]
            first = {d: offs for d, offs in first.items() if all(d in o for o in others)}
            if within is not None:
                first = {d: [o for o in offs if all(any(abs(x - o) <= within for x in other[d]) for other in others)]
                         for d, offs in first.items()}
        chunks = self.retriever.chunks
        occ = []
        for d in sorted(first):
            c = chunks[d]
            if (layer and c.layer != layer) or (works and c.work not in works):
                continue
            occ += [Occurrence(d, o, len(phrases[0])) for o in sorted(set(first[d]))]
        result = Concordance(phrases, occ)
        result.by_layer = dict(Counter(chunks[o.doc].layer for o in occ))
        result.by_work = dict(Counter(chunks[o.doc].work for o in occ))
        return result

    def _find(self, folded: str) -> dict[int, list[int]]:
        """docnum -> start offsets of ``folded`` in the passage's text, within one paragraph
        (kept for the session's recent phrases: paging and changing filters search again)."""
        cache = self.__dict__.setdefault("_recent", {})
        if folded in cache:
            cache[folded] = cache.pop(folded)           # most recent last
            return cache[folded]
        out = self._find_uncached(folded)
        cache[folded] = out
        while len(cache) > RECENT:
            cache.pop(next(iter(cache)))
        return out

    def _find_uncached(self, folded: str) -> dict[int, list[int]]:
        if len(folded) >= 2 and all(is_word_char(c) for c in folded):
            hits = self._phrase(folded)
        else:
            hits = self._scan(folded)
        out = {}
        for d, offs in hits.items():
            kept = [o for o in offs if o >= 0 and self._one_record(d, o, len(folded))]
            if kept:
                out[d] = kept
        return out

    def _phrase(self, folded: str) -> dict[int, list[int]]:
        """Where a phrase of word characters starts: its bigrams' positions (character offsets)
        lined up.  The rarest bigram leads and the others are read only in its documents, so a
        phrase costs what its rarest part costs, not what 比丘 costs."""
        from whoosh import query as wq
        searcher = self.retriever.searcher
        grams = [(k, folded[k:k + 2]) for k in range(len(folded) - 1)]
        grams.sort(key=lambda kg: searcher.doc_frequency("bi", kg[1]))
        lead_k, lead = grams[0]
        rest = [(k, wq.Term("bi", g).matcher(searcher)) for k, g in grams[1:]]
        out: dict[int, list[int]] = {}
        m = wq.Term("bi", lead).matcher(searcher)
        while m.is_active():
            doc = m.id()
            starts = {p - lead_k for p in m.value_as("positions")}
            for k, other in rest:
                if not starts:
                    break
                if other.is_active() and other.id() < doc:
                    other.skip_to(doc)
                if not other.is_active() or other.id() != doc:
                    starts = set()
                    break
                starts &= {p - k for p in other.value_as("positions")}
            if starts:
                out[doc] = sorted(starts)
            m.next()
        return out

    def _scan(self, folded: str) -> dict[int, list[int]]:
        """The slow way, for one character or a phrase with punctuation: the passages that hold
        its first character (from the index), read and searched."""
        from whoosh import query as wq
        first = next((c for c in folded if is_word_char(c)), None)
        if first is not None:
            m = wq.Term("uni", first).matcher(self.retriever.searcher)
            docs = []
            while m.is_active():
                docs.append(m.id())
                m.next()
            texts = ((d, self._folded_text(d)) for d in docs)
        else:
            texts = self._folded_passages()
        out: dict[int, list[int]] = {}
        for d, text in texts:
            pos, offs = text.find(folded), []
            while pos != -1:
                offs.append(pos)
                pos = text.find(folded, pos + 1)
            if offs:
                out[d] = offs
        return out

    def _folded_text(self, doc: int) -> str:
        """A passage's folded text, read from the pack's records in one query."""
        segs = json.loads(self.pack.db.execute("SELECT segments FROM passages WHERE id=?", (doc + 1,)).fetchone()[0])
        ids = [r for r, _, _ in segs]
        texts = dict(self.pack.db.execute(f"SELECT id, text FROM records WHERE id IN ({','.join('?' * len(ids))})", ids))
        return self.pack.normalizer.fold("".join(texts[r][a:b] for r, a, b in segs))

    def _folded_passages(self):
        cache = getattr(self, "_folded", None)
        if cache is None:
            fold = self.pack.normalizer.fold
            cache = [(d, fold(self.pack.passage(d + 1).text)) for d in range(len(self.retriever.chunks))]
            self._folded = cache
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

    def _one_record(self, doc: int, offset: int, length: int) -> bool:
        """A match must lie inside one paragraph (a passage may join several short ones)."""
        starts = self._bounds(doc)
        if len(starts) == 1:
            return True
        k = bisect.bisect_right(starts, offset)
        return k >= len(starts) or offset + length <= starts[k]

    # -- showing --------------------------------------------------------------------------
    def rows(self, result: Concordance, start: int = 0, count: int = 50, context: int = CONTEXT) -> list[Row]:
        """KWIC rows for occurrences [start, start+count) (a page; or all, for an export)."""
        out = []
        psg_cache: dict = {}
        for o in result.occurrences[start:start + count]:
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
