"""Where the texts use a word: which topics' own sections hold it.

The glossary knows how people say a thing (「私下拿回家」 → 盜僧物, 互用); the
skeleton knows where each rule and procedure is treated.  Joining the two through
the texts themselves — in which topics' sections do an entry's words stand? —
tells the bridge which topic a glossary entry is about without anyone writing it
down: 盜僧物 stands mostly in the treatment of 大盜戒.  Only a topic's own places
count (a rule, a procedure, a section), not a whole chapter, and a word spread
over many topics names none of them.
"""
from __future__ import annotations

import functools
import hashlib
import json
from bisect import bisect_right
from collections import Counter

from ..paths import user_cache_dir
from ..userdata import atomic_write_json

SECTION_LIMIT = 60       # passages a section may span to count as a topic's own place
SPANS_FORMAT = 3          # cached spans made by other code are not read (2: quotations left out, 3: parallels)
MIN_SHARE = 0.3          # the share of a word's sectioned passages at which one topic counts in full
MIN_COUNT = 4            # the leading topic must hold at least this many passages
LEAD = 1.5               # … and this many times the next topic's


class TopicSections:
    """Passages -> the topics whose own sections hold them, and words -> the topics they name."""

    def __init__(self, retriever, topics):
        self.retriever = retriever
        self.topics = topics            # the topics a question can be matched to
        self._topics_at: dict[int, tuple[str, ...]] = {}     # topics_of, per passage

    @functools.cached_property
    def _spans(self) -> tuple[list[int], list[tuple[int, int, str]]]:
        spans = self._cached_spans()
        return [s for s, _, _ in spans], spans

    def _cached_spans(self) -> list[tuple[int, int, str]]:
        """Every topic's own sections as passage ranges, sorted.  Finding them reads each anchor's
        passage (about a second for the default pack), so they are kept in the user cache, keyed
        on the pack's checksum and the topics; a damaged or missing file is simply rebuilt."""
        ids = ",".join(t.id for t in self.topics)
        key = hashlib.sha256(f"{SPANS_FORMAT}|{self.retriever.pack.checksum}|{ids}".encode()).hexdigest()[:16]
        path = user_cache_dir() / "topic-sections" / f"{key}.json"
        try:
            return [tuple(x) for x in json.loads(path.read_text(encoding="utf-8"))]
        except (OSError, ValueError, TypeError):
            pass
        spans = []
        for t in self.topics:
            for pl in self.retriever.places(t.anchors):
                # a 律 passage a 行事鈔 section quotes is still the rule's or the 犍度's own
                if pl.end - pl.doc <= SECTION_LIMIT and pl.role not in ("cited", "parallel"):
                    spans.append((pl.doc, pl.end, t.id))
        spans.sort()
        try:
            atomic_write_json(path, spans)
        except OSError:                  # no writable cache: found again next session
            pass
        return spans

    def topics_of(self, doc: int) -> tuple[str, ...]:
        """The narrowest sections holding a passage (a rule inside a chapter is the rule's).  Kept
        per passage for the session (at most one small tuple for each of the pack's passages): a
        new glossary word asks this of every passage using the word, thousands for 比丘."""
        found = self._topics_at.get(doc)
        if found is None:
            found = self._topics_at[doc] = tuple(self._narrowest(doc))
        return found

    def _narrowest(self, doc: int) -> list[str]:
        starts, spans = self._spans
        k = bisect_right(starts, doc)
        best, out = None, []
        for s, e, tid in reversed(spans[max(0, k - 200):k]):
            if s <= doc < e:
                width = e - s
                if best is None or width < best:
                    best, out = width, [tid]
                elif width == best and tid not in out:
                    out.append(tid)
        return out

    @functools.lru_cache(maxsize=4096)
    def word_topics(self, words: tuple[str, ...]) -> tuple[tuple[str, float], ...]:
        """The topics whose sections hold most of the passages using any of ``words`` (one idea in
        several words, as a glossary entry gives it): (topic id, share), the clear ones only."""
        fold = self.retriever.pack.normalizer.fold_query
        docs: set[int] = set()
        for w in words:
            docs.update(self.retriever.term_hits(fold(w)))
        counts: Counter = Counter()
        placed = 0
        for d in docs:
            tids = self.topics_of(d)
            if tids:
                placed += 1
                for tid in tids:
                    counts[tid] += 1
        ranked = counts.most_common(2)
        if not ranked or ranked[0][1] < MIN_COUNT:
            return ()
        second = ranked[1][1] if len(ranked) > 1 else 0
        if ranked[0][1] < LEAD * second:
            return ()                     # spread over several topics: it names none of them
        return ((ranked[0][0], min(1.0, ranked[0][1] / placed / MIN_SHARE)),)
