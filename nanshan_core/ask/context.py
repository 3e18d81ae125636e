"""The question's own words, as a second opinion on passages the terms already found.

The terms (step A) name the topic in the texts' vocabulary: 摩觸, 長衣, 呵責羯磨.
Inside a topic's section many passages carry those words alike — the story, the
rule, the 不犯 clause, the procedure — and which of them answers *this* question
is said by the rest of it: 「女人落水、着火，可以用手去救吗」 shares 水, 火, 救
with 「若救火難、水難」 and nothing with the story of 迦留陀夷.  So within a matched
topic's section the passage to show is chosen by the terms and by the characters
and word-map words of the question (framing and address removed); it is never a
search of its own, and a passage with no term enters only when it fits the
question best (Retriever._section_fit, _topic_picks).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..text import FUNCTION_CHARS, is_word_char
from .bridge import analyse, translate

K1, B = 1.2, 0.75
MAX_UNIT_SHARE = 0.3      # a unit in more than this share of passages says nothing about one of them
MODERN_ONLY = set("请问吗呢吧啊哦呀嘛么怎样哪谁为何")


@dataclass
class Context:
    units: dict[str, float]      # folded character or bigram -> weight (its rarity in the pack)

    def score(self, text: str, avg_len: float) -> float:
        """BM25 of the question's units in one passage's folded text."""
        if not self.units or not text:
            return 0.0
        dl = len(text)
        norm = K1 * (1 - B + B * dl / max(avg_len, 1.0))
        total = 0.0
        for u, w in self.units.items():
            tf = text.count(u)
            if tf:
                total += w * tf * (K1 + 1) / (tf + norm)
        return total


def question_context(question: str, fold, doc_frequency, n_docs: int) -> Context:
    """The units of a question: its content characters and content bigrams outside framing
    and address, and the classical words the word map gives for its modern words (喝 → 飲).
    ``fold`` brings a string to the pack's search form; ``doc_frequency(field, unit)`` is
    the index's passage count for a character ("uni") or bigram ("bi")."""
    a = analyse(question)
    q = a.simple
    raw: list[str] = []
    for i, ch in enumerate(q):
        if i in a.masked or not is_word_char(ch) or ch in FUNCTION_CHARS or ch in MODERN_ONLY:
            continue
        raw.append(ch)
        if i + 1 < len(q) and i + 1 not in a.masked and is_word_char(q[i + 1]) and q[i + 1] not in FUNCTION_CHARS:
            raw.append(q[i:i + 2])
    for _, _, words in translate(q, a.masked):
        for w in words[:3]:
            raw.append(w)
    units: dict[str, float] = {}
    for u in dict.fromkeys(fold(x) for x in raw):
        if not u or len(u) > 2:
            if len(u) > 2:                       # a longer classical word: its bigrams
                for k in range(len(u) - 1):
                    _add(units, u[k:k + 2], doc_frequency, n_docs)
            continue
        _add(units, u, doc_frequency, n_docs)
    return Context(units)


def _add(units: dict, u: str, doc_frequency, n_docs: int) -> None:
    if u in units:
        return
    df = doc_frequency("uni" if len(u) == 1 else "bi", u)
    if df == 0 or df > MAX_UNIT_SHARE * n_docs:
        return
    units[u] = math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
