"""Step B: finding the passages, layer by layer.

Exact matching only (BM25 over bigram phrases, never vectors): the offence
classes must never blur into one another.  Whoosh finds every passage holding
each term as a phrase and reports where; the scoring here is BM25 on those
exact phrase counts, with two things BM25 alone does not see:

* coverage — a passage where several of the chosen terms occur outranks one
  that repeats a single frequent term, and more so when they occur close
  together (within a sentence or two);
* place — a passage inside a section the clue table points at (a precept's
  own section of 行事鈔, its rule in 四分律) outranks a stray mention.

Results are taken per layer with quotas, because the commentaries are far
longer than the Vinaya texts and would otherwise crowd them out; within the
vinaya layer no single work may take every slot.  元照's explanations are
also reached through structure: in the combined editions his 記 follows the
疏 it explains, and 資持記 quotes 行事鈔's words before explaining them.  There a
paragraph is some fifty characters where 行事鈔's passages hold some 480, so a
material of theirs reads its own layer on over the other's paragraphs (_run_on):
one slot holds about as much of 元照's word as a slot of 資持記 does.

A wider pack's other works (其他律部 / 其他注疏) are a fourth, small set, taken only
when one of them holds the strongest passage of all (Retriever.other_picks).
"""
from __future__ import annotations

import json
import marshal
import math
import re
import zlib
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from whoosh import query as wq

from ..corpus.pack import Pack, PassageRow, line_in_table
from ..corpus.skeleton import NUMERALS
from ..corpus.works import title_for
from ..errors import CoordError
from ..text import sentence_spans
from ..userdata import atomic_write_bytes
from .verify import coord_at

if TYPE_CHECKING:
    from .context import Context

LAYERS = ("vinaya", "daoxuan", "yuanzhao")
COMMENTARY = ("daoxuan", "yuanzhao")
# a rule's heading in a commentary that follows the rules in order: 行事鈔's 「非時食戒三十七。」, 戒本疏's
# 「【疏】非時食戒三十七。」 (not 四分律's 「三十七竟」, which closes a rule).  The skeleton reads the same
# form at build time (skeleton.Builder's 行事鈔 headings); that pattern is part of the pack's
# fingerprint and matches folded text, so this one, on a material's shown text, stands apart
RULE_HEADING = re.compile(rf"(?:【[^】]{{1,2}}】)?[^\s。，、：；「」]{{1,12}}戒[{NUMERALS}]+。")
KEPT_POSTINGS = 4         # posting tables kept in the user cache (one per pack built)
OTHER = "other"          # works outside the three layers (a wider pack's 其他律部 / 其他注疏)


@dataclass
class Quotas:
    """How many materials each layer gets, and how many one work may take."""

    # Tuned on the dev questions: 8/8/8 retrieves more gold than 8/6/6 (the commentaries' answers
    # sit in many small passages); one work may take half a layer, 四分律 half of the vinaya slots,
    # besides the chosen topics' own passages in it (Retriever._pick).
    per_layer: dict = field(default_factory=lambda: {"vinaya": 8, "daoxuan": 8, "yuanzhao": 8})
    per_work: dict = field(default_factory=lambda: {"T1428": 4})
    default_per_work: int = 4
    other: int = 4                  # passages of works outside the three layers (see Retriever.other_picks)
    other_per_work: int = 2
    clue_share: float = 0.25        # at most this share of a layer's slots from the clue table
    # at most this share (5 of 8) from the chosen topics' own places (TOPIC_SLOTS): since the
    # question's own words choose inside a topic's section, the fifth slot holds the asked detail
    # or the 不犯 clause more often than the search passage it displaces (tune sets +5, all
    # 律本, dev ±0; 0.75 one less)
    topic_share: float = 0.625
    window: int = 720              # at most this many characters shown per material (sentence-aligned)
    # a material ending with its passage runs on into the next ones up to this (Retriever._run_on).
    # The passages are a paragraph cut by size (about 480 characters), so at 840 a passage shown
    # whole read less than the next one's first lines, and the asked sentence was often just beyond
    # (38 missed tune gold stood in the passage right after one shown whole): tune sets +26 gold,
    # dev ±0 (1320: the same)
    run_on: int = 1200


@dataclass
class Material:
    n: int
    layer: str
    work: str
    title: str
    juan: int
    fascicle: str
    passage: int
    para_id: str
    start: int           # offset of the shown text in its passage
    end: int
    text: str
    start_coord: str
    source: str          # search | clue | link
    score: float = 0.0
    terms: list = field(default_factory=list)
    breaks: list = field(default_factory=list)   # offsets in text where a new paragraph begins
    lines: list = field(default_factory=list)    # [[offset in text, line id], ...]: where each printed line begins
    group: str = ""      # a work outside the three layers: 其他律部 or 其他注疏 (how the 其他 pane labels it)
    # offsets in text where a combined edition's material reads its layer on over the other layer's
    # paragraphs (Retriever._run_on): what stands on either side is not one continuous text, and
    # no quotation may run across one (verify.find)
    seams: list = field(default_factory=list)
    # where in text a commentary's treatment of the asked rule begins, at the rule's heading
    # (「非時食戒三十七。」), in a topic's own passage that opens with the previous rule's: its card
    # leads with a sentence from here on (answer._from_heading), and the text before stays shown
    heading: int | None = None

    def line_id_at(self, offset: int) -> int:
        """The printed line holding character ``offset`` of the shown text (D places quotes with it)."""
        if not 0 <= offset < len(self.text):
            raise IndexError(f"offset {offset} outside material {self.n} of {len(self.text)} characters")
        return line_in_table(self.lines, offset)

    def line_ids(self) -> set[int]:
        return {lid for _, lid in self.lines}

    def to_json(self) -> dict:
        out = {"n": self.n, "work": self.work, "title": self.title, "layer": self.layer,
               "juan": self.juan, "para_id": self.para_id, "start": self.start_coord,
               "text": self.text, "source": self.source, "terms": self.terms}
        if self.group:
            out["group"] = self.group
        if self.seams:
            out["seams"] = self.seams
        return out


@dataclass
class _Passage:
    id: int
    layer: str
    work: str
    fascicle: str
    juan: int
    fid: int
    length: int


class Retriever:
    """Per-pack retrieval state: chunk table in memory, one Whoosh searcher."""

    def __init__(self, pack: Pack, quotas: Quotas | None = None):
        self.pack = pack
        self.quotas = quotas or Quotas()

    @cached_property
    def rule_openings(self) -> frozenset[int]:
        """Lines where a 四分律 rule's story begins: a passage is cut by size, not by rule, and the
        next rule's story is no part of this rule's material."""
        from ..corpus.topics import story_lines
        return story_lines(self.pack)

    @cached_property
    def chunks(self) -> list[_Passage]:
        """All passages, indexed by Whoosh document number (= passage id - 1)."""
        rows = self.pack.db.execute(
            "SELECT p.id, p.layer, f.work, f.key, f.juan, f.id, p.segments "
            "FROM passages p JOIN fascicles f ON p.fascicle=f.id ORDER BY p.id")
        return [_Passage(*r[:6], sum(b - a for _, a, b in json.loads(r[6]))) for r in rows]

    @cached_property
    def searcher(self):
        s = self.pack.ix.searcher()
        n = s.doc_count()
        if n != len(self.chunks) or any(s.stored_fields(d)["passage"] != d + 1 for d in {0, n // 2, n - 1}):
            raise RuntimeError("index documents are not in passage order")  # guarded by tests
        return s

    @cached_property
    def avg_len(self) -> float:
        return sum(c.length for c in self.chunks) / max(len(self.chunks), 1)

    # -- matching -------------------------------------------------------------
    def term_hits(self, folded: str) -> dict[int, list[int]]:
        """docnum -> start offsets of the term in that passage (one-character terms: offsets unknown).
        The app's own vocabulary is read from the posting cache when the session has one."""
        blob = self.postings.get(folded)
        if blob is not None:
            return marshal.loads(blob)
        return self._term_hits(folded)

    # -- the posting cache ------------------------------------------------------------
    @cached_property
    def postings(self) -> dict[str, bytes]:
        """Stored postings (folded term -> its term_hits, marshalled) of this pack, or none."""
        try:
            data = marshal.loads(zlib.decompress(self._postings_path().read_bytes()))
            return data if isinstance(data, dict) else {}
        except (OSError, ValueError, EOFError, TypeError, zlib.error):
            return {}              # none yet, or damaged: the index answers, as without a cache

    def keep_postings(self, words) -> int:
        """Compute the postings of ``words`` (the glossary's, the topics' and the clues' words)
        once and keep them in the user cache for this pack: about three seconds for the default
        pack, after which a question's terms cost a lookup instead of a walk of the index's
        position lists.  Returns how many are kept; nothing breaks when the cache is not
        writable."""
        folded = {self.pack.normalizer.fold_query(w) for w in words}
        table = {f: marshal.dumps(self._term_hits(f)) for f in sorted(folded) if f}
        path = self._postings_path()
        try:
            atomic_write_bytes(path, zlib.compress(marshal.dumps(table), 6))
            # packs rebuilt or replaced leave their tables behind: keep the latest few
            old = sorted(path.parent.glob("*.bin"), key=lambda p: p.stat().st_mtime, reverse=True)
            for stale in old[KEPT_POSTINGS:]:
                stale.unlink(missing_ok=True)
        except OSError:
            pass
        self.__dict__["postings"] = table
        return len(table)

    def stored_starts(self, folded: str) -> dict[int, list[int]] | None:
        """Where a phrase of three or more characters starts in each passage (phrase_starts), when
        the posting cache holds it; None otherwise (shorter terms are kept as counts only)."""
        blob = self.postings.get(folded) if len(folded) > 2 else None
        return marshal.loads(blob) if blob is not None else None

    def _postings_path(self) -> Path:
        from ..paths import user_cache_dir
        return user_cache_dir() / "postings" / f"{self.pack.checksum}.bin"

    def _term_hits(self, folded: str) -> dict[int, list[int]]:
        s = self.searcher
        out: dict[int, list[int]] = {}
        if len(folded) == 1:
            m = wq.Term("uni", folded).matcher(s)
            while m.is_active():
                out[m.id()] = [-1] * max(1, int(m.weight()))
                m.next()
            return out
        if len(folded) > 2:
            return self.phrase_starts(folded)
        m = wq.Term("bi", folded).matcher(s)
        while m.is_active():
            out[m.id()] = [-1] * max(1, int(m.weight()))
            m.next()
        return out

    def phrase_starts(self, folded: str) -> dict[int, list[int]]:
        """docnum -> where a phrase of three or more word characters starts: its bigrams' positions
        (character offsets) lined up.  The rarest bigram leads and the others are read only in its
        documents, so 波羅夷 costs what 羅夷 costs, not what 波羅 costs; the same starts as Whoosh's
        Phrase query (consecutive positions), several times faster than its span machinery."""
        searcher = self.searcher
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
                if other.is_active() and other.id() < doc:
                    other.skip_to(doc)
                if not other.is_active() or other.id() != doc:
                    starts = set()
                    break
                starts &= {p - k for p in other.value_as("positions")}
                if not starts:
                    break
            if starts:
                out[doc] = sorted(starts)
            m.next()
        return out

    def score_passages(self, terms: list[str], boost: dict[int, float] | None = None,
                       weights: list[float] | None = None, concepts: list[str] | None = None) -> dict[int, float]:
        """docnum -> score over the whole index.

        ``weights`` says how much the selection trusts each term (the reader's own
        words and the best glossary entry fully, a weaker entry less).  ``concepts``
        names the idea behind each term: within one idea the best term counts in
        full and its synonyms only in part, and coverage counts ideas, not words.
        Offsets are gathered only for passages meeting two ideas, the only ones whose
        score the nearness of the terms can change."""
        norm = self.pack.normalizer
        folded = [norm.fold_query(t) for t in terms]
        n_docs = len(self.chunks)
        hits = [self.term_hits(f) for f in folded]
        # Terms that are parts of other chosen terms (錢 in 捉錢) count once with them.
        groups = concept_groups(folded, concepts)
        k1, b = 1.2, 0.75
        lengths, avg = self.lengths, self.avg_len
        by_doc: dict[int, dict[int, list[float]]] = {}
        for ti, h in enumerate(hits):
            df = len(h)
            if df == 0:
                continue
            idf = math.log(1 + (n_docs - df + 0.5) / (df + 0.5)) * (weights[ti] if weights else 1.0)
            g = groups[ti]
            for doc, offs in h.items():
                tf = len(offs)
                part = idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[doc] / avg))
                parts = by_doc.get(doc)
                if parts is None:
                    by_doc[doc] = {g: [part]}
                elif g in parts:
                    parts[g].append(part)
                else:
                    parts[g] = [part]
        out: dict[int, float] = {}
        for doc, parts in by_doc.items():
            sc = sum(_concept_score(p) for p in parts.values())
            k = len(parts)                                  # ideas met
            extra = sum(len(p) - 1 for p in parts.values())   # further words of an idea already met
            sc *= 1 + 0.6 * (k - 1) + EXTRA_WORD * extra
            if k >= 2 and _close([(o, ti) for ti, h in enumerate(hits) for o in h.get(doc, ()) if o >= 0],
                                 folded, 40):
                sc *= 1.3
            if boost and doc in boost:
                sc *= boost[doc]
            out[doc] = sc
        return out

    @cached_property
    def lengths(self) -> list[int]:
        return [c.length for c in self.chunks]

    # -- assembling materials ---------------------------------------------------
    def retrieve(self, terms: list[str], clue_coords: list[str] | None = None,
                 weights: list[float] | None = None, concepts: list[str] | None = None,
                 topic_places: list[list["Place"]] | None = None,
                 context: "Context | None" = None, lifted: list["Place"] | None = None) -> list[Material]:
        """Materials per layer.  ``topic_places``: for each chosen topic (the main one first) the
        places where the layers treat it (see topic_places): they come first, and a passage
        inside a topic's section outranks the same words elsewhere.  ``context``: the question's
        own words (context.py), which choose among a section's passages.  ``lifted``: the places of
        the topics ranked next (Matches.runners), raised in the commentaries' search only."""
        clue_docs = self._clue_docs(clue_coords or [])
        topic_places = topic_places or []
        boost = self._section_boost(clue_docs)
        for rank, places in enumerate(topic_places):
            factor = TOPIC_BOOST[min(rank, len(TOPIC_BOOST) - 1)]
            for pl in places:
                for d in range(pl.start, pl.end):
                    boost[d] = max(boost.get(d, 1.0), factor)
        for pl in lifted or ():
            for d in range(pl.start, pl.end):
                # (a 戒本疏 section's 【律】 paragraphs are the 律本's, though in 道宣's place)
                if self.chunks[d].layer in LIFT_LAYERS:
                    boost[d] = max(boost.get(d, 1.0), LIFT)
        scored = self.score_passages(terms, boost, weights, concepts) if terms else {}
        folded_terms = [self.pack.normalizer.fold_query(t) for t in terms]
        chosen: dict[str, list[tuple]] = {}
        for layer in LAYERS:
            ranking = {d: (v, "search") for d, v in scored.items() if self._in_layer(d, layer)}
            if layer == "yuanzhao":
                strong = sorted(((d, v) for d, v in scored.items() if self._in_layer(d, "daoxuan")),
                                key=lambda x: -x[1])[:10]
                picked = [(d, sc) for d, _, sc, _ in chosen.get("daoxuan", [])]
                self._merge_links(ranking, picked + strong, scored)
            fit = {}
            if context is not None:
                fit = self._section_fit(ranking, context, [pl for places in topic_places for pl in places
                                                      if pl.layer == layer])
            topic_picks = self._topic_picks(layer, topic_places, ranking, fit)
            chosen[layer] = self._pick(layer, clue_docs, ranking, topic_picks)
        chosen[OTHER] = self.other_picks(scored)
        picked = {doc for layer in (*LAYERS, OTHER) for doc, _, _, _ in chosen[layer]}
        materials = [self._material(doc, source, score, folded_terms, terms, anchor, picked)
                     for layer in (*LAYERS, OTHER) for doc, source, score, anchor in chosen[layer]]
        for i, m in enumerate(materials, 1):
            m.n = i
        return materials

    @cached_property
    def other_works(self) -> frozenset[str]:
        """Works whose own layer is 'other' (the works a wider pack adds).  A default work's front
        matter (a later preface, a 科 table) is 'other' only paragraph by paragraph: it is never
        one of these and never reaches an answer."""
        return frozenset(w for w, info in self.pack.works.items() if info.get("layer") == OTHER)

    def _in_layer(self, doc: int, layer: str) -> bool:
        """A passage of one of the three layers: its own layer, in a work of the default corpus (a
        wider pack's other works may carry 疏/記 markup of their own; they stay in 其他)."""
        c = self.chunks[doc]
        return c.layer == layer and c.work not in self.other_works

    def other_picks(self, scored: dict) -> list[tuple]:
        """The best passages of the other works, kept only when they hold the strongest passage.

        "Strongest" uses the scores that rank every layer (``score_passages``: BM25 of the
        terms with coverage and nearness, times the place boosts of the question's topic and
        clue sections): the best other passage must score higher than every passage of the
        three layers, not only those chosen.  Otherwise nothing is taken, so the three panes
        answer alone and a pack without other works answers exactly as before."""
        if not self.other_works:
            return []
        ranking = {d: (v, "search") for d, v in scored.items() if self.chunks[d].work in self.other_works}
        if not ranking:
            return []
        best_three = max((v for d, v in scored.items() if any(self._in_layer(d, x) for x in LAYERS)),
                         default=0.0)
        if max(v[0] for v in ranking.values()) <= best_three:
            return []
        return self._pick(OTHER, [], ranking)

    def _topic_picks(self, layer: str, topic_places: list[list["Place"]], ranking: dict,
                     fit: dict[int, float] | None = None) -> list[list[tuple]]:
        """Each chosen topic's own passages in this layer, the main topic's list first: where each
        work treats it, and the passage of that treatment the terms and the question's own words
        (``fit``) point to; the main topic gets more of the layer than the others (_pick gives
        the layer's topic share to every topic's first place before any topic's second)."""
        fit = fit or {}
        per_topic: list[list[tuple]] = []
        # a question about one topic only gives it one more slot (its 四分律 anchor and the asked
        # detail, and the other Vinayas' rule; 資持記 beside 行宗記), as before topics shared them
        alone = 1 if len(topic_places) == 1 else 0
        for rank, places in enumerate(topic_places):
            cap = TOPIC_SLOTS[min(rank, len(TOPIC_SLOTS) - 1)] + (alone if rank == 0 else 0)
            mine: list[tuple] = []
            spare: list[int] = []
            exempts = {pl.work: pl for pl in places if pl.role == "exempt" and pl.layer == layer}
            # the 律 passages a 行事鈔 section quotes (skeleton.quoted_vinaya) are many places of one
            # passage each: the question's own words, then the terms, say which of them it asks,
            # and one neither points to is no answer to it
            cited = sorted((pl for pl in places if pl.role == "cited" and pl.layer == layer
                            and (pl.doc in ranking or fit.get(pl.doc, 0.0) >= FIT_ALONE)),
                           key=lambda pl: (-fit.get(pl.doc, 0.0), -ranking.get(pl.doc, (0.0,))[0]))
            places = [pl for pl in places if pl.role != "cited"] + cited
            for pl in places:
                # (another Vinaya's passage the 鈔 quotes beside 四分律's, role parallel, is only
                # raised in the search: skeleton.quoted_vinaya)
                if pl.layer != layer or len(mine) >= cap or pl.role in ("exempt", "parallel"):
                    continue
                opening = (pl.doc, "topic", ranking.get(pl.doc, (0.0,))[0], pl.offset)
                # a whole chapter's opening (its title and the commentary's preface to it) answers
                # nothing asked: its place goes to the passage inside it the question points to
                # (tune sets +6 gold, 2 zero-hit questions fewer, dev ±0; doing so for a 篇's
                # sections too lost 20), and when nothing inside is found, to the search — the
                # opening of 二衣總別篇 stood as 道宣's word on crossing a river (tune sets +3,
                # dev +1, nothing lost beyond one gold of tune2)
                first = self._block_choice(pl, layer, fit) if pl.block else pl.doc
                if first != pl.doc:
                    opening = (first, "topic", ranking.get(first, (0.0,))[0], None)
                if pl.role != "chapter":
                    mine.append(opening)
                # a rule's 不犯 clause joins it, on a slot of its own: askers of a situation ask
                # whether their case is the exception (以物易物 among monks, a nun's boil lanced
                # by a man); tune sets +6 gold −2 (search passages pushed out), dev ±0
                ex = exempts.get(pl.work) if pl.role == "rule" else None
                if ex is not None and ex.doc != pl.doc:
                    mine.append((ex.doc, "topic", ranking.get(ex.doc, (0.0,))[0], ex.offset))
                    cap += 1
                # the passage right after the anchor is usually its run-on already
                around = range(pl.start, pl.end) if pl.block else (*range(pl.start, pl.doc), *range(pl.doc + 2, pl.end))
                inside = [d for d in around if d != first and self._in_layer(d, layer)
                          and (d in ranking or fit.get(d, 0.0) >= FIT_ALONE)]
                if inside and len(mine) < cap:
                    # inside a topic's own section the question's own words choose, the terms
                    # only break ties: the terms already brought the section; what tells its
                    # passages apart is the asked detail (tune sets +7 gold against terms and
                    # fit added as equals, nothing lost on dev or tune1-9)
                    order = sorted(inside, key=lambda d: (-fit.get(d, 0.0), -ranking.get(d, (0.0,))[0]))
                    mine.append((order[0], "topic", ranking.get(order[0], (0.0,))[0], None))
                    spare += order[1:]
            # a layer that treats the topic in fewer places than its slots: the slots left take the
            # next passages of those places (呵責羯磨's one section in 四分律 holds the story, the
            # five things not to be done, and its lifting)
            for d in spare:
                if len(mine) >= cap:
                    break
                if all(abs(d - m[0]) > 1 for m in mine):
                    mine.append((d, "topic", ranking.get(d, (0.0,))[0], None))
            per_topic.append(mine)
        return per_topic

    def _pick(self, layer: str, clue_docs: list[tuple[int, int]], ranking: dict,
              topic_picks: list[list[tuple]] | None = None) -> list[tuple]:
        """Fill a layer's quota: the topics' own passages (``topic_picks``: each topic's, the main
        one first), clue passages (up to a share), then the best by score."""
        quota = self.quotas.other if layer == OTHER else self.quotas.per_layer[layer]
        per_work: dict[str, int] = {}
        picks: list[tuple] = []
        taken: set[int] = set()

        def take(doc, source, score, anchor):
            work = self.chunks[doc].work
            if doc in taken or per_work.get(work, 0) >= self._work_cap(work) or len(picks) >= quota:
                return
            picks.append((doc, source, score, anchor))
            taken.add(doc)
            # a topic's own passages do not use up their work's share: in 行事鈔 and 資持記 they
            # had pushed out the search hit that held the asked detail (tune sets: +6 gold, dev ±0)
            if source != "topic":
                per_work[work] = per_work.get(work, 0) + 1

        # the topics' share goes to each topic's first place before any topic's second: it had gone
        # to the main topic's rule, its 不犯 clause and a parallel before the fourth topic's rule got
        # a slot, and the main topic of an unsure question is often the wrong one (供养常住的被子
        # given to one monk read first as bedding, 迴僧物 fourth).  Tune sets +4 gold, zero-hit
        # 41 -> 40, dev ±0 (all of each topic's picks in turns: +4); held-out bridge sets +5, zero-hit
        # 66 -> 64.  They are shown topic by topic.
        topic_picks = topic_picks or []
        turns = [mine[0] for mine in topic_picks if mine] + [x for mine in topic_picks for x in mine[1:]]
        share = {pick[0] for pick in turns[:int(quota * self.quotas.topic_share)]}
        for doc, source, score, anchor in (x for mine in topic_picks for x in mine):
            if doc in share:
                take(doc, source, score, anchor)
        max_clue = max(1, int(quota * self.quotas.clue_share))
        for doc, anchor in clue_docs:
            if self._in_layer(doc, layer) and sum(p[1] == "clue" for p in picks) < max_clue:
                # the clue's own passage: a "better" neighbour may already be the next section
                # (擯出羯磨 is followed by 依止羯磨); neighbours compete through the section boost
                take(doc, "clue", ranking.get(doc, (0.0,))[0], anchor)
        for doc in sorted(ranking, key=lambda d: -ranking[d][0]):
            if len(picks) >= quota:
                break
            take(doc, ranking[doc][1], ranking[doc][0], None)
        return picks

    def _block_choice(self, pl: "Place", layer: str, fit: dict[int, float]) -> int:
        """The paragraph of a combined edition's block a layer's place opens with: the 疏 (or 記)
        the question's own words fit best when it fits well and better than the first, else the
        first.  The first 疏 on a rule gives why it was made (制意); what is asked — its 犯緣, the
        開 — often stands paragraphs on (dev +2 gold; tune sets −1, tune17 −1: the asked 制意)."""
        own = [d for d in range(pl.doc, pl.end) if self._in_layer(d, layer)]
        best = max(own, key=lambda d: fit.get(d, 0.0), default=pl.doc)
        return best if fit.get(best, 0.0) >= FIT_ALONE and fit.get(best, 0.0) > fit.get(pl.doc, 0.0) else pl.doc

    FIT_POOL = 40           # a layer's best candidates, against whose fit a section's passages are measured

    def _section_fit(self, ranking: dict, context: "Context", places: list["Place"]) -> dict[int, float]:
        """How much of the question's own wording each passage of the topics' sections holds, as a
        share of the best fit among them and the layer's best candidates.  Measured, not added to
        the ranking: reordering the whole layer by it lost more gold than it found (tune and dev
        sets), choosing inside a section by it found more."""
        top = sorted(ranking, key=lambda d: -ranking[d][0])[:self.FIT_POOL]
        inside = [d for pl in places for d in range(pl.start, min(pl.end, pl.doc + self.SECTION_MAX))
                  if self._in_layer(d, pl.layer)]
        ctx = {d: context.score(self.folded_text(d), self.avg_len) for d in dict.fromkeys(top + inside)}
        best = max(ctx.values(), default=0.0)
        return {d: v / best for d, v in ctx.items() if d in inside} if best > 0 else {}

    @lru_cache(maxsize=4096)
    def folded_text(self, doc: int) -> str:
        """A passage's text in search form (繁/简 and variants folded), read from its records in
        one query; the latest few thousand are kept (sections are read again question after
        question; the concordance reads a rare character's passages this way too)."""
        segs = json.loads(self.pack.db.execute("SELECT segments FROM passages WHERE id=?", (doc + 1,)).fetchone()[0])
        ids = [r for r, _, _ in segs]
        texts = dict(self.pack.db.execute(f"SELECT id, text FROM records WHERE id IN ({','.join('?' * len(ids))})", ids))
        return self.pack.normalizer.fold("".join(texts[r][a:b] for r, a, b in segs))

    @cached_property
    def links(self) -> dict[int, list[tuple[int, float]]]:
        """Passage docnum -> [(linked docnum, weight)] (see links.py)."""
        out: dict[int, list[tuple[int, float]]] = {}
        for src, dst, w in self.pack.db.execute("SELECT src, dst, weight FROM links"):
            out.setdefault(src - 1, []).append((dst - 1, w))
        return out

    def _merge_links(self, ranking: dict, daoxuan: list[tuple[int, float]], scored: dict) -> None:
        """元照 passages that explain a strong 道宣 passage compete with a share of its score.

        Links are passage-level and a little imprecise (an explanation may sit one
        passage before or after), so neighbours on both sides take part, weaker."""
        for doc, dscore in daoxuan:
            if dscore <= 0:
                continue
            for near, factor in ((doc, 1.0), (doc - 1, 0.5), (doc + 1, 0.5)):
                for dst, w in self.links.get(near, ()):
                    for d2, f2 in ((dst, 1.0), (dst - 1, 0.4), (dst + 1, 0.4)):
                        if not 0 <= d2 < len(self.chunks) or not self._in_layer(d2, "yuanzhao"):
                            continue
                        own = scored.get(d2, 0.0)
                        linked = 1.5 * own + 0.35 * dscore * factor * f2 * min(1.0, w / 4) + (0.5 if own else 0)
                        if linked > ranking.get(d2, (0.0,))[0]:
                            ranking[d2] = (linked, "link")

    SECTION_MAX = 60        # passages a topic's section may span
    CHAPTER_MAX = 400       # … and a chapter (a 篇, a 犍度): searched within, its opening taken first

    def places(self, anchors) -> list[Place]:
        """Passages of a topic's anchors (skeleton lines) in retrieval order.  A rule's story
        (the 四分律 passages before its statement) is no place of its own: the rule's place opens
        there, its statement still first."""
        return list(self._places(tuple(anchors)))

    @lru_cache(maxsize=8192)
    def _places(self, anchors: tuple) -> tuple[Place, ...]:
        """(places, kept: a question reads the places of its chosen topics and of the eight ranked
        next, the bridge those of the topics it compares, and finding each anchor's passage was
        most of that cost — answer p50 +19% in ``nanshan bench`` before they were kept)"""
        out = []
        stories = {}
        for a in anchors:
            if a.role == "story" and (hit := self.doc_at_line(a.line, col=a.col)) is not None:
                stories[a.work] = hit[0]
        for a in anchors:
            if a.role == "story":
                continue
            hit = self.doc_at_line(a.line, col=a.col)
            if hit is None:
                continue
            doc, off = hit
            end = doc + 1
            if a.end_line:
                nxt = self.doc_at_line(a.end_line)
                span = self.CHAPTER_MAX if a.role == "chapter" else self.SECTION_MAX
                if nxt is not None and doc < nxt[0] <= doc + span:
                    end = nxt[0] + (1 if nxt[1] > 0 else 0)
            if self._in_layer(doc, a.layer):
                story = stories.get(a.work, doc) if a.role == "rule" else doc
                start = story if doc - self.SECTION_MAX <= story < doc else doc
                out.append(Place(a.layer, a.work, doc, max(end, doc + 1), off, start, a.role))
        return tuple(self._whole_blocks(out))

    @staticmethod
    def _whole_blocks(places: list[Place]) -> list[Place]:
        """In the combined editions (戒本疏 with 行宗記, X0714; 羯磨疏 with 濟緣記, X0728) the 律, the
        疏 and the 記 on one rule alternate paragraph by paragraph: the rule's 疏 anchor ends where
        the first 記 begins, yet its 疏 on the 開 (「開中餘藥不治…」) stands seven paragraphs on.
        Each layer's place there runs to the end of the whole block on the rule, and a layer's
        own paragraphs in it are told apart later (_topic_picks, _section_fit take only the
        layer's own)."""
        ends: dict[str, int] = {}
        layers: dict[str, set[str]] = {}
        for pl in places:
            if pl.role in ("treatment", "explains", "heading"):
                ends[pl.work] = max(ends.get(pl.work, 0), pl.end)
                layers.setdefault(pl.work, set()).add(pl.layer)
        return [replace(pl, end=ends[pl.work], block=True)
                if len(layers.get(pl.work, ())) > 1 and pl.role in ("treatment", "explains", "heading")
                and ends[pl.work] <= pl.doc + Retriever.SECTION_MAX else pl
                for pl in places]

    def material_at(self, coord: str, n: int = 1, source: str = "clue") -> Material:
        """The material that begins at a printed line (as the clue table uses it)."""
        line = self.pack.line(coord)
        hit = self.doc_at_line(line.id)
        if hit is None:
            raise LookupError(f"{coord} 上没有可检索的正文")
        m = self._material(hit[0], source, 0.0, [], [], hit[1])
        m.n = n
        return m

    def _work_cap(self, work: str) -> int:
        if work in self.other_works:
            return self.quotas.other_per_work
        return self.quotas.per_work.get(work, self.quotas.default_per_work)

    def _clue_docs(self, clue_coords: list[str]) -> list[tuple[int, int]]:
        """Each clue coordinate -> (passage docnum holding that line, offset of the line in it)."""
        out = []
        for coord in clue_coords:
            try:
                line = self.pack.line(coord)
            except Exception:
                continue
            hit = self.doc_at_line(line.id)
            if hit is not None:
                out.append(hit)
        return out

    @lru_cache(maxsize=8192)
    def doc_at_line(self, line_id: int, look_ahead: int = 6, col: int = 0) -> tuple[int, int] | None:
        """(passage docnum, offset in it) where the text of a printed line begins, or its
        character ``col`` (a topic's place: 「時六群比丘鏡照面」 opens a passage halfway along a
        line whose start closes the passage before).

        A title line (卷 heading, byline) holds no searchable text: the passage
        then starts at the first line after it that does.  Kept (the pack is read-only): the
        clue table sends question after question to the same lines, each found by reading the
        records on the line."""
        fid = self.pack.line_by_id(line_id).fascicle
        for lid in range(line_id, line_id + look_ahead + 1):
            try:
                if self.pack.line_by_id(lid).fascicle != fid:
                    break
            except CoordError:       # past the last line of the pack
                break
            hit = self._doc_on_line(lid, col if lid == line_id else 0)
            if hit is not None:
                return hit
        return None

    def _doc_on_line(self, line_id: int, col: int = 0) -> tuple[int, int] | None:
        # ``col`` counts the line's characters as the skeleton's stream does: across the records
        # sharing the line, with one separator between records
        for rec in self.pack.records_at_line(line_id):
            offs = [o for o, lid in rec.lines if lid == line_id]
            if not offs:
                continue
            later = [o for o, lid in rec.lines if o > offs[0] and lid != line_id]
            length = (min(later) if later else len(rec.text)) - offs[0]
            if col >= length and not later:
                col -= length + 1            # on into the next paragraph that shares the line
                continue
            off = offs[0] + min(col, max(length - 1, 0))
            for pid, a, b in self.pack.passages_of_record(rec.id):
                if a <= off < b:
                    base = self._segment_base(pid, rec.id, a)
                    return pid - 1, base + off - a
        return None

    def _segment_base(self, pid: int, rid: int, start: int) -> int:
        segs = json.loads(self.pack.db.execute("SELECT segments FROM passages WHERE id=?", (pid,)).fetchone()[0])
        base = 0
        for r, a, b in segs:
            if r == rid and a == start:
                return base
            base += b - a
        return 0

    def _section_boost(self, clue_docs: list[tuple[int, int]]) -> dict[int, float]:
        """Passages just after a clue point (the same section) get a bonus."""
        boost: dict[int, float] = {}
        for doc, _ in clue_docs:
            c0 = self.chunks[doc]
            for k in range(0, 12):
                d = doc + k
                if d >= len(self.chunks) or self.chunks[d].fid != c0.fid:
                    break
                boost[d] = max(boost.get(d, 1.0), 1.8 if k < 4 else 1.4)
        return boost

    def _material(self, doc: int, source: str, score: float, folded_terms: list[str], terms: list[str],
                  anchor: int | None, picked: set[int] = frozenset()) -> Material:
        c = self.chunks[doc]
        psg = self.pack.passage(c.id)
        start, end = self._window(psg, folded_terms, anchor)
        text = psg.text[start:end]
        lines = _slice_lines(psg.lines, start, end)
        breaks = [base - start for base, _, _ in psg.pieces if start < base < end]
        seams: list[int] = []
        if end == len(psg.text):
            text, lines, breaks, seams = self._run_on(doc, text, lines, breaks, picked, psg.pieces[-1][1])
        # a topic's own passage ends where the next rule's story begins after its anchor (「……三十
        # 七竟」); a passage found by search keeps its tail, where the words it was found by may stand
        cut = None
        if source == "topic" and anchor is not None:
            cut = next((off for off, lid in lines if off > anchor - start and lid in self.rule_openings), None)
        if cut is not None:
            end = min(end, start + cut)
            text, lines, breaks = text[:cut], [x for x in lines if x[0] < cut], [b for b in breaks if b < cut]
            seams = [x for x in seams if x < cut]
        ftext = self.pack.normalizer.fold(text)
        found = [t for t, f in zip(terms, folded_terms) if f and f in ftext]
        rid, _ = psg.record_at(start)
        para_id = self.pack.record(rid).para_id
        title = title_for(c.work, c.layer, self.pack.works[c.work]["short"])
        layer = OTHER if c.work in self.other_works else c.layer
        m = Material(0, layer, c.work, title, c.juan, c.fascicle, c.id, para_id, start, end,
                     text, "", source, round(score, 3), found, breaks, lines, seams=seams)
        m.start_coord = coord_at(self.pack, m, 0)
        if source == "topic" and anchor is not None and c.layer in COMMENTARY and start < anchor < end \
                and RULE_HEADING.match(psg.text, anchor):
            m.heading = anchor - start
        if c.work in self.other_works:
            m.group = self.pack.works[c.work].get("grp") or ""
        return m

    def _run_on(self, doc: int, text: str, lines: list, breaks: list, picked: set[int] = frozenset(),
                last: int | None = None) -> tuple[str, list, list, list]:
        """Continue a material into the next passages of its section, up to Quotas.run_on characters.

        A passage ends where the size rule cut, not where the thought ends: the
        sentence a reader needs (the 不犯 clause after a rule, 元照's gloss after the
        疏 words it explains) is often just across the cut.  It reads on over as many passages as
        the room holds, in every work: stopping after one more passage outside the combined
        editions had left a material of 行事鈔, 資持記 or 四分律 at some 950 characters, and the asked
        sentence often a few lines on (tune sets +29 gold, zero-hit 39 -> 38, dev ±0; held-out
        bridge sets +28, zero-hit 68 -> 64, nothing lost).  In a combined edition the next
        paragraphs of the material's own layer stand behind the other layer's (記 after 疏 after
        記): the material reads its own layer on over them, as the 疏 and the 記 once stood alone.
        It stops at a passage of its own layer that is a material itself (``picked``); the other
        layer's paragraphs it reads over are not shown here, picked or not (a 疏 whose 記 was
        元照's material had stopped there).  ``last``: the record the text so far ends in (the
        passage's last, read by the caller)."""
        nxt = doc
        c = self.chunks[doc]
        skipped = 0
        seams: list[int] = []
        if last is None:
            last = self.pack.passage(c.id).pieces[-1][1]
        while True:
            room = self.quotas.run_on - len(text)
            nxt += 1
            if room < 60 or nxt >= len(self.chunks):
                break
            n = self.chunks[nxt]
            if n.fid != c.fid or nxt in self.block_openings or (n.layer == c.layer and nxt in picked):
                break
            psg = self.pack.passage(n.id)
            if psg.pieces[0][1] > last + 1:
                # records no passage holds stand between (a 卷's closing line and the next 卷's title
                # and byline): the text does not go on there, and no quotation may run across
                break
            if n.layer != c.layer:
                if c.work not in self.combined_works or skipped >= self.SKIP_MAX:
                    break
                skipped += 1
                last = psg.pieces[-1][1]
                continue
            cut = 0
            for a, b in sentence_spans(psg.text, 0, len(psg.text), max_len=60):
                if b > room:
                    break
                cut = b
            if cut == 0:
                break
            base = len(text)
            if skipped:
                seams.append(base)
            starts_record = psg.pieces[0][2] == 0
            breaks = breaks + ([base] if starts_record or skipped else []) + [o + base for o, _, _ in psg.pieces if 0 < o < cut]
            more = [[o + base, lid] for o, lid in _slice_lines(psg.lines, 0, cut)]
            if lines and more and more[0][1] == lines[-1][1]:
                more = more[1:]          # the same printed line continues across the cut
            text, lines = text + psg.text[:cut], lines + more
            last = max(rid for off, rid, _ in psg.pieces if off < cut)
            if cut < len(psg.text):
                break
            skipped = 0
        return text, lines, breaks, seams

    SKIP_MAX = 4            # other-layer paragraphs a combined edition's material reads on over

    @cached_property
    def combined_works(self) -> frozenset[str]:
        return frozenset(w for w, info in self.pack.works.items() if info.get("layer") == "combined")

    @cached_property
    def block_openings(self) -> frozenset[int]:
        """Passages where a combined edition's treatment of a rule or procedure begins (each topic's
        first skeleton anchor there): a material reading its layer on stops there."""
        from ..corpus.topics import anchor_rows
        first: dict[tuple[str, str], int] = {}
        for topic, work, line, col in anchor_rows(self.pack, ("treatment", "explains", "heading"), self.combined_works):
            hit = self.doc_at_line(line, col=col)
            if hit is not None:
                first[topic, work] = min(first.get((topic, work), hit[0]), hit[0])
        return frozenset(first.values())

    def _window(self, psg: PassageRow, folded_terms: list[str], anchor: int | None) -> tuple[int, int]:
        """The passage, or for the rare one longer than Quotas.window, a sentence-aligned window
        around the densest hits (or the clue line)."""
        size = self.quotas.window
        n = len(psg.text)
        if n <= size:
            return 0, n
        if anchor is not None:
            lo = anchor
        else:
            ftext = self.pack.normalizer.fold(psg.text)
            pos = sorted(m.start() for f in folded_terms if f for m in re.finditer(re.escape(f), ftext))
            if not pos:
                return 0, size
            best, best_n = pos[0], 0
            for p in pos:   # the densest stretch of hits
                k = sum(1 for q in pos if p <= q < p + size // 2)
                if k > best_n:
                    best, best_n = p, k
            lo = max(0, best - size // 4)
        start = lo
        for a, b in sentence_spans(psg.text, 0, n, max_len=60):
            if a <= lo < b:
                start = a
                break
        return start, min(n, start + size)


def _slice_lines(table: list, start: int, end: int) -> list:
    """A passage's [[offset, line id]] table cut to [start, end) and re-based at start."""
    out = []
    for off, lid in table:
        if off >= end:
            break
        if off <= start:
            out = [[0, lid]]
        else:
            out.append([off - start, lid])
    return out


# the runner-up topics' sections in the commentaries (LIFT_LAYERS) are raised in the search as much
# as the main topic's, without slots of their own: a near miss of the bridge (the chosen topic a
# sibling of the asked one) still finds 道宣's and 元照's treatment of the asked one.  Tune sets
# +12 gold, 5 zero-hit questions fewer, dev ±0 (1.5: +3, 2.5 / 3.0: +14 / +13).  Raising the
# 律本's runner places too gained nothing there (−1) and let 四分律 passages of a runner topic push
# out another Vinaya's exact hit (十誦律's 「頗有比丘斷人命不犯波羅夷耶」 for an accidental killing)
LIFT = 2.0
LIFT_LAYERS = COMMENTARY
TOPIC_BOOST = (2.0, 1.6, 1.4)   # passages inside the main topic's sections, the second's, the others'
FIT_ALONE = 0.7                 # … and how well a passage without any term must fit the question to be chosen
# a layer's passages taken from the main topic's places, the second's, the third's: each chosen
# topic gets its own (the main one taking three left the second to the search ranking, and the
# main topic of an unseen question is a wrong guess about one time in four); tune sets +12 gold
# with topic_share 0.5, dev ±0 (2/2/1 with 0.625: tune +17 but dev −2)
TOPIC_SLOTS = (2, 1, 1)


@dataclass(frozen=True)
class Place:
    """Where one layer treats a topic: the passage at its start, the passage where the
    treatment ends (exclusive), and the offset of its first line in the passage."""

    layer: str
    work: str
    doc: int
    end: int
    offset: int
    start: int              # where the section opens: doc, or before it (a rule's story)
    role: str = ""          # the anchor's role (rule, exempt, treatment …; skeleton.Anchor)
    block: bool = False     # a combined edition's whole block on the rule (Retriever._whole_blocks)


SYNONYM_SHARE = 0.3     # what a second word for the same idea adds to a passage's score
EXTRA_WORD = 0.3        # and to its coverage (边地 and 五人 are two facets of one entry, not one word)


def _concept_score(parts: list[float]) -> float:
    parts = sorted(parts, reverse=True)
    return parts[0] + SYNONYM_SHARE * sum(parts[1:])


def concept_groups(folded: list[str], concepts: list[str] | None) -> list[int]:
    """Group index per term: the same concept, or a term inside another chosen term (錢 in 捉錢)."""
    groups = term_groups(folded)
    if not concepts:
        return groups
    first: dict[str, int] = {}
    for c, g in zip(concepts, groups):
        first.setdefault(c, g)
    return [first[c] for c in concepts]


def term_groups(folded: list[str]) -> list[int]:
    """Index of the group each term belongs to: a term inside another chosen term joins its group."""
    groups = list(range(len(folded)))
    for i, a in enumerate(folded):
        for j, b in enumerate(folded):
            if i != j and a and a in b and len(a) < len(b):
                groups[i] = groups[j]
    return groups


def _close(offs: list[tuple[int, int]], folded: list[str], window: int) -> bool:
    """Do two different terms occur within ``window`` characters of each other?"""
    offs = sorted(o for o in offs)
    for i in range(len(offs)):
        for j in range(i + 1, len(offs)):
            if offs[j][0] - offs[i][0] > window:
                break
            if offs[j][1] != offs[i][1]:
                return True
    return False
