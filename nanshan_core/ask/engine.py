"""The whole pipeline, A → A′ → B → C → D, as one call the CLI and the GUI share.

The engine owns no state beyond the pack and its retriever, so one instance
serves a whole GUI session from a worker thread.
"""
from __future__ import annotations

import functools
import gc
import math
import time
from dataclasses import dataclass, field

from . import clues as clue_mod
from . import terms as terms_mod
from ..corpus.pack import Pack
from ..corpus.topics import Skeleton
from ..errors import QuestionError
from ..text import clean_question, has_han
from .answer import Answer, compose
from .bridge import SURE, SURE_CONFIDENCE, Matcher
from .context import Context, question_context
from .gate import Gate
from .sections import TopicSections
from .retrieve import LAYERS, OTHER, Material, Retriever
from .terms import Selection

# The chosen topics' words a quotation is also chosen by (Engine.answer_words): the first few
# search words of each topic, weighed against the strongest term, the main topic's most (halved
# when the match is not sure).  Tune sets: gold passages quoted 401 -> 464 of 1190 (every set
# up or level, dev 51 -> 51); one topic only 427, two words 454, five 458; the main topic's
# words at 1.5x the strongest term 471 but dev 50
TOPIC_QUOTE_WORDS = 3
TOPIC_QUOTE_WEIGHT = (1.0, 0.6, 0.4)

MAX_QUESTION = 1200      # characters: a long post with greetings, a story and several parts still fits


@dataclass
class Result:
    question: str
    selection: Selection
    clues: list = field(default_factory=list)           # [(Clue, score)]
    clue_coords: list[str] = field(default_factory=list)
    materials: list[Material] = field(default_factory=list)
    answer: Answer | None = None
    timing_ms: dict = field(default_factory=dict)
    model: dict | None = None                           # model name etc. when a model wrote the answer
    notes: list[str] = field(default_factory=list)      # messages for the reader (timeouts, removed coordinates)
    context: Context | None = None                      # the question's own words (context.py), once retrieved
    places: list = field(default_factory=list)          # each chosen topic's places (Retriever.places), once retrieved

    @property
    def refused(self) -> bool:
        return self.selection.refusal is not None

    def to_json(self) -> dict:
        a = self.answer
        out = {
            "question": self.question,
            "category": self.selection.category,
            "refused": self.refused,
            "refusal": self.selection.refusal.reply if self.refused else None,
            "terms": self.selection.texts,
            "term_sources": [t.to_json() for t in self.selection.terms],
            "scope": self.selection.scope.to_json() if self.selection.scope else
            ({"outcome": "refuse", "kind": self.selection.refusal.kind,
              "suggestion": getattr(self.selection.refusal, "suggestion", None)} if self.refused else {"outcome": "answer"}),
            "topics": [m.to_json() for m in self.selection.topics],
            "confidence": self.selection.confidence,
            "suggestions": [m.to_json() for m in self.selection.suggestions],
            "clues": self.clue_coords,
            "clue_topics": [c.title for c, _ in self.clues],
            "materials": [m.to_json() for m in self.materials],
            "panes": {layer: [c.to_json() for c in (a.panes.get(layer, []) if a else [])] for layer in LAYERS},
            "answer": {"text": a.text if a else "", "citations": [c.to_json() for c in (a.citations if a else [])]},
            "timing_ms": {k: round(v, 1) for k, v in self.timing_ms.items()},
        }
        if a and a.panes.get(OTHER):      # a wider pack's works held the strongest passages
            out["panes"][OTHER] = [c.to_json() for c in a.panes[OTHER]]
        if self.model:
            out["model"] = self.model
        if self.notes:
            out["notes"] = self.notes
        return out


def scope_lead(result: Result) -> None:
    """A silent topic opens its answer with 「律典对此无明文」 and names the rules that follow as
    依义推及; a scope note says first which part of the question is not answered."""
    scope = result.selection.scope
    if scope is None or result.answer is None:
        return
    if scope.outcome == "silent":
        found = list(dict.fromkeys(s["thing"] for s in scope.silent))
        things = "、".join(t for t in found if not any(t != u and t in u for u in found))
        lead = f"律典对此无明文（{things}是律典所未有之物）。以下是依义推及的相关律文，并非律典直接讲到此事。"
    else:
        lead = f"【范围说明】{scope.reply}"
    result.answer.text = lead + "\n" + result.answer.text


def _in_scope_text(question: str, matches, decision) -> str:
    """The question without the parts a scope note is about: 「律里…算不算犯盗？另外常住有一笔闲钱，
    想请您推荐一下是放银行定期还是买国债。」 is answered on 盗僧物, not on 貿錢寶 (银行, 国债)."""
    out = set(decision.out_parts) if decision.outcome == "scope_note" else set()
    parts = matches.analysis.parts
    if not out or len(out) >= len(parts):
        return question
    return "".join(question[p.start:p.end] for i, p in enumerate(parts) if i not in out)


def _materials_in(materials: list[Material], places) -> list[int]:
    """The numbers of the topic materials whose passage lies in one of ``places``."""
    return [m.n for m in materials if m.source == "topic"
            and any(pl.start <= m.passage - 1 < pl.end for pl in places)]


def check_question(question: str) -> str:
    """The question as the engine (and a model) will see it, or a clear message why not:
    terminal controls and bidi overrides are dropped first (a question must not recolour
    the reader's terminal or reach a model's prompt as an escape sequence)."""
    q = clean_question(question or "")
    if not q:
        raise QuestionError("请输入问题，例如：出家人能不能碰钱？")
    if len(q) > MAX_QUESTION:
        raise QuestionError(f"问题过长（{len(q)} 字）。请精简到 {MAX_QUESTION} 字以内，一次问一件事。")
    # 「？？？」, "hello" or an English instruction holds no word the canon could meet: the gate's
    # classifier had guessed a kind for it (？？？ refused as medical) or the search found nothing
    if not has_han(q):
        raise QuestionError("问题里没有汉字。律典是汉文，请用中文提问，例如：出家人能不能碰钱？")
    return q


def prepare_postings(pack_path) -> int:
    """After a pack is built: keep the postings of the app's vocabulary for it in the user cache
    (Retriever.keep_postings), so that the app's first session does not spend its warm-up on
    them.  Returns how many words are kept."""
    engine = Engine(Pack(pack_path))
    try:
        return engine.retriever.keep_postings(engine.vocabulary())
    finally:
        engine.pack.close()


class Engine:
    def __init__(self, pack: Pack):
        self.pack = pack
        self.retriever = Retriever(pack)

    def warm_up(self, question: str = "出家人能不能碰钱？") -> None:
        """Load what every question needs (passage table, index, skeleton, matcher, gate and their
        caches, by asking once; the posting table too, computed here only when no build left one
        for this pack), then move it out of the garbage collector's sight: a session
        keeps these for its whole life, and a collection that walks them mid-question was the
        slowest tenth of retrieval (p95 70 → 49 ms in ``nanshan bench``, p50 unchanged)."""
        if not self.retriever.postings:
            self.retriever.keep_postings(self.vocabulary())
        self.ask(question)
        gc.collect()
        gc.freeze()

    def vocabulary(self) -> set[str]:
        """The words the app searches with: the glossary's terms and offences, the topics' names
        and keywords, the clue table's keys and the word map's classical words."""
        from .bridge import wordmap
        words = {t for e in terms_mod.glossary() for t in e.terms + e.offence}
        words |= {k for c in clue_mod.clue_table() for k in c.keys}
        words |= {w for t in self.skeleton.topics.values() for w in t.names + t.keywords}
        words |= {w for t in self.skeleton.topics.values() for w in terms_mod.topic_words(t)}
        words |= {w for ws in wordmap().values() for w in ws}
        return {w for w in words if w}

    def topic_places(self, topic) -> list:
        """Where each layer treats a topic (Retriever.places of its skeleton anchors)."""
        return self.retriever.places(self.skeleton.anchors(topic))

    @functools.cached_property
    def skeleton(self) -> Skeleton:
        return Skeleton(self.pack)

    @functools.cached_property
    def matcher(self) -> Matcher:
        m = Matcher(self.skeleton)
        m.sections = TopicSections(self.retriever, [tg.topic for tg in m.targets])
        return m

    @functools.cached_property
    def gate(self) -> Gate:
        return Gate(self.matcher)

    @functools.lru_cache(maxsize=4096)
    def df(self, term: str) -> int:
        """Number of passages holding a term (as a phrase)."""
        return len(self.retriever.term_hits(self.pack.normalizer.fold_query(term)))

    def df_share(self, term: str) -> float:
        return self.df(term) / max(1, len(self.retriever.chunks))

    def weight(self, term: str) -> float:
        n = len(self.retriever.chunks)
        return math.log(1 + n / (1 + self.df(term)))

    def question_context(self, question: str) -> Context:
        s = self.retriever.searcher
        return question_context(question, self.pack.normalizer.fold_query, s.doc_frequency,
                                len(self.retriever.chunks))

    def match_topics(self, question: str, topics: list[str] | None = None):
        """The question's topics; ``topics`` (ids) is the reader's own choice, e.g. one of the
        「您是否想问」 suggestions, and then stands as certain."""
        if topics:
            return self.matcher.forced(question, topics)
        return self.matcher.match(question)

    def select_terms(self, question: str, terms: list[str] | None = None,
                     topics: list[str] | None = None) -> Selection:
        question = check_question(question)
        matches = self.match_topics(question, topics)
        decision = self.gate.decide(question, matches)
        asked = _in_scope_text(question, matches, decision)
        if asked != question:       # the topics and terms are the Vinaya part's, not the note's
            matches = self.match_topics(asked, topics)
        if decision.outcome == "silent" and not topics:
            matches = self._principle_topics(question, matches, decision)
        if terms is not None:
            sel = terms_mod.user_terms(question, terms, decision)
            if sel.refusal is None:
                sel.topics = matches.chosen()
                sel.confidence = matches.confidence
                sel.suggestions = matches.suggestions()
        else:
            sel = terms_mod.select(asked, df_share=self.df_share, matches=matches, decision=decision)
            sel.question = question
        sel.scope = decision if decision.outcome in ("scope_note", "silent") else None
        sel.asked = asked
        return sel

    def _principle_topics(self, question: str, matches, decision):
        """A thing the texts never mention (phones, cars …): the rules that bear on it by principle
        are among the topics, after the topics the question itself names clearly.

        When the match is sure, its parts' own topics and the runners-up that score SURE lead (at
        most three): a phone call or a WeChat group in the story (「打电话给其中一位，他说点名请的话
        最多只能去三位」) had put the phone's rules in place of 別眾食戒 and left the answer with
        nothing on what was asked.  The thing's rules keep at least one slot, all three when the
        match is unsure.  Tune sets +7 gold −2 (two questions of the unbiased tune21 from zero to
        3 and 4 of 4); of the 54 silent questions of the tune scope sets 18 change topics, mostly
        by a close rule added (防晒霜 → 作婦女莊嚴戒, a 布薩 streamed live → 布薩說戒), none losing
        all of its thing's rules."""
        # … and, after them, the question's clearest topic (its best, scoring SURE) though the match
        # as a whole is unsure: a nun going alone by car keeps 四獨戒 beside the rules on vehicles
        # (tune sets +5 gold on two questions, none lost; 8 of 118 silent questions of the tune
        # scope sets gain it as a fourth topic, about half of them aptly)
        own = {m.topic.id for m in matches.main}
        ids = [m.topic.id for m in matches.chosen() if m.topic.id in own or m.score >= SURE][:3] if matches.sure else []
        principle = [t for s in decision.silent for t in s["topics"] if self.skeleton.get(t)]
        principle = [t for t in dict.fromkeys(principle) if t not in ids]
        ids += principle[:max(1, 3 - len(ids))]
        top = matches.ranked[0] if matches.ranked else None
        if len(ids) < 4 and top and top.score >= SURE and top.topic.id not in ids:
            ids.append(top.topic.id)
        return self.matcher.forced(question, ids) if ids else matches

    def ask(self, question: str, terms: list[str] | None = None, selection: Selection | None = None,
            topics: list[str] | None = None) -> Result:
        """Answer without a model.  ``terms`` replaces the chosen terms (the reader edited them);
        ``topics`` names the topics to answer about (the reader chose them)."""
        timing: dict[str, float] = {}
        t = time.perf_counter()
        sel = selection or self.select_terms(question, terms, topics)
        result = Result(sel.question, sel)
        timing["terms"] = (time.perf_counter() - t) * 1000
        if sel.refusal is not None:
            result.timing_ms = {**timing, "retrieve": 0.0, "answer": 0.0, "verify": 0.0}
            return result
        self.retrieve(result, timing)
        t = time.perf_counter()
        result.answer = self.extractive(result)
        scope_lead(result)
        timing["verify"] = result.answer.verify_ms
        timing["answer"] = (time.perf_counter() - t) * 1000 - result.answer.verify_ms
        result.timing_ms = timing
        return result

    def extractive(self, result: Result) -> Answer:
        """The answer made of quotations only, from a retrieved result (the model path keeps it
        beside the model's draft)."""
        words, weights = self.answer_words(result.selection)
        return compose(self.pack, words, result.materials, weights, result.context,
                       self.own_passages(result), self.part_passages(result))

    @staticmethod
    def own_passages(result: Result) -> frozenset[int]:
        """The materials that are the own passages of a topic the question surely names: the
        selection is sure and the topic scores as a clear match by itself (SURE).  Any of their
        sentences may be quoted for the question's own words (answer._prefer_the_asked_detail); a
        topic met on a side word (寺门口 → 入寺法, beside 故妄語 for a hunter's question) keeps to its
        term sentences.  Tune sets: gold quoted 1103 with every chosen topic, 1100 with these,
        1085 with the main topic only."""
        sel = result.selection
        if (sel.confidence or 0.0) < SURE_CONFIDENCE:
            return frozenset()
        return frozenset(n for m, pls in zip(sel.topics, result.places) if m.score >= SURE
                         for n in _materials_in(result.materials, pls))

    @staticmethod
    def part_passages(result: Result) -> list[frozenset[int]]:
        """For each part other than the main topic's, whose first topic scores SURE, the materials
        that are that topic's own passages (answer._each_part quotes one of each)."""
        sel = result.selection
        if not sel.topics:
            return []
        seen = {sel.topics[0].part}
        out = []
        for m, pls in zip(sel.topics[1:], result.places[1:]):
            if m.part not in seen and m.score >= SURE:       # a part's first topic only
                seen.add(m.part)
                out.append(frozenset(_materials_in(result.materials, pls)))
        return out

    def answer_words(self, sel: Selection) -> tuple[list[str], list[float]]:
        """The words a quotation is chosen by: the terms, then the chosen topics' own words.

        A topic's passages reach the materials through its places, whether or not they hold a
        term (「視比坐鉢」 is in none of the terms 沙彌尼, 依止 … that a nun's question about her
        neighbour's bowl gets); quoting by the terms alone left them as cards no quotation
        came from and quoted a term's passage of another subject instead."""
        words = list(sel.texts)
        weights = [self.weight(x) for x in words]
        top = max(weights, default=1.0)
        have = {self.pack.normalizer.fold_query(w) for w in words}
        for m, share in zip(sel.topics, TOPIC_QUOTE_WEIGHT):
            if (sel.confidence or 0.0) < SURE_CONFIDENCE:
                share *= 0.5
            for w in terms_mod.topic_words(m.topic)[:TOPIC_QUOTE_WORDS]:
                f = self.pack.normalizer.fold_query(w)
                if f in have or self.df(w) == 0:
                    continue
                have.add(f)
                words.append(w)
                weights.append(top * share)
        return words, weights

    def retrieve(self, result: Result, timing: dict) -> None:
        t = time.perf_counter()
        words, weights = result.selection.clue_words()
        result.clues = clue_mod.fire(words, weights=weights)
        result.clue_coords = clue_mod.coords_for(result.clues)
        places = result.places = [self.topic_places(m.topic) for m in result.selection.topics]
        context = result.context = self.question_context(result.question)
        lifted = [pl for m in result.selection.runners for pl in self.topic_places(m.topic)]
        result.materials = self.retriever.retrieve(result.selection.texts, result.clue_coords,
                                                   result.selection.weights, result.selection.concepts,
                                                   places, context=context, lifted=lifted)
        timing["retrieve"] = (time.perf_counter() - t) * 1000
