"""Commentary links: which 元照 passages explain a given 道宣 passage.

Built once at pack time, three ways, all from the texts themselves:

* Alignment.  資持記 (T1805) explains 行事鈔 (T1804) in the 鈔's own order,
  quoting a few of its words before each explanation (「非弟子者…」) and the
  same 律 passages.  Shared rare 4-grams between a 記 passage and a 鈔 passage
  are evidence of a pair; the heaviest chain of pairs that keeps both texts
  in order (a weighted longest increasing subsequence) is the alignment, and
  a 記 passage between two anchors is attached to the last anchor before it.
* Quotation.  For each 鈔 passage, the 記 passages sharing most of its rare
  3-grams, wherever they stand (the alignment can drift over a long stretch).
* Adjacency.  In the combined editions (X0714, X0728) each 記 section follows
  the 疏 section it explains, and each 【疏】 follows the 【律】 rule it
  explains, so a passage links to the passages after it up to the next rule.
"""
from __future__ import annotations

import collections
from dataclasses import dataclass

from ..text import is_word_char

GRAM = 4
MAX_DF = 2          # a 4-gram is evidence only if it is this rare in the base text
MIN_SHARED = 2      # pairs sharing fewer rare 4-grams are noise


@dataclass
class LinkPassage:
    id: int
    work: str
    juan: int
    layer: str
    text: str        # folded text


def ngrams(text: str, n: int = GRAM) -> set[str]:
    """The text's n-grams of word characters (punctuation and line breaks left out): what a quotation
    shares with its source however each punctuates it."""
    t = "".join(c for c in text if is_word_char(c))
    return {t[i:i + n] for i in range(len(t) - n + 1)}


def rare_index(texts: list[str], max_df: int, n: int = GRAM) -> dict[str, list[int]]:
    """n-gram -> the indices of the texts holding it, for the n-grams at most ``max_df`` of them
    hold: a rare run of words shared with one of them is evidence of a quotation."""
    grams = [ngrams(t, n) for t in texts]
    df = collections.Counter(g for gs in grams for g in gs)
    inverted: dict[str, list[int]] = collections.defaultdict(list)
    for i, gs in enumerate(grams):
        for g in gs:
            if df[g] <= max_df:
                inverted[g].append(i)
    return inverted


def shared_with(text: str, index: dict[str, list[int]], n: int = GRAM) -> collections.Counter:
    """Index of each text (of ``rare_index``) -> how many of its rare n-grams ``text`` holds."""
    return collections.Counter(i for g in ngrams(text, n) for i in index.get(g, ()))


def align(base: list[LinkPassage], comm: list[LinkPassage]) -> list[tuple[int, int, float]]:
    """(base passage id, commentary passage id, weight) for every commentary passage that can be placed."""
    if not base or not comm:
        return []
    inverted = rare_index([p.text for p in base], MAX_DF)
    pairs = []
    for j, p in enumerate(comm):
        shared = shared_with(p.text, inverted)
        pairs.extend((j, i, w) for i, w in shared.items() if w >= MIN_SHARED)
    chain = _heaviest_chain(pairs, len(base))
    anchors = {j: (i, w) for j, i, w in chain}
    out = []
    last = None
    for j, p in enumerate(comm):
        if j in anchors:
            last = anchors[j]
            out.append((base[last[0]].id, p.id, float(last[1])))
        elif last is not None:
            out.append((base[last[0]].id, p.id, 1.0))  # between anchors: follows the last one
    return out


def _heaviest_chain(pairs: list[tuple[int, int, int]], n_base: int) -> list[tuple[int, int, int]]:
    """Pairs (j, i, w) with j strictly and i weakly increasing, maximising the total weight."""
    pairs = sorted(pairs)
    size = n_base + 1
    tree = [(0, -1)] * (size + 1)       # Fenwick tree of (best total, pair index) by base index

    def update(i: int, val: tuple) -> None:
        i += 1
        while i <= size:
            if val[0] > tree[i][0]:
                tree[i] = val
            i += i & -i

    def query(i: int) -> tuple:
        i += 1
        best = (0, -1)
        while i > 0:
            if tree[i][0] > best[0]:
                best = tree[i]
            i -= i & -i
        return best

    best_total = [(0, -1)] * len(pairs)
    k = 0
    while k < len(pairs):
        j = pairs[k][0]
        group = []
        while k < len(pairs) and pairs[k][0] == j:
            group.append(k)
            k += 1
        results = []
        for idx in group:          # all pairs of one commentary passage see only earlier ones
            _, i, w = pairs[idx]
            prev = query(i)
            best_total[idx] = (prev[0] + w, prev[1])
            results.append((i, (prev[0] + w, idx)))
        for i, val in results:
            update(i, val)
    if not pairs:
        return []
    idx = max(range(len(pairs)), key=lambda x: best_total[x][0])
    chain = []
    while idx != -1:
        chain.append(pairs[idx])
        idx = best_total[idx][1]
    return chain[::-1]


def overlap(base: list[LinkPassage], comm: list[LinkPassage], top: int = 8) -> list[tuple[int, int, float]]:
    """For each base passage, the commentary passages quoting most of its rare 3-grams (its lemmas:
    資持記 cites 「非弟子者」 before explaining 行事鈔's 「非我弟子」), wherever they stand."""
    base_grams = [ngrams(p.text, 3) for p in base]
    df = collections.Counter(g for gs in base_grams for g in gs)
    inverted: dict[str, list[int]] = collections.defaultdict(list)
    for p in comm:
        for g in ngrams(p.text, 3):
            inverted[g].append(p.id)
    out = []
    for p, gs in zip(base, base_grams):
        shared = collections.Counter(c for g in gs if df[g] <= 2 and len(inverted.get(g, ())) <= 3
                                     for c in inverted.get(g, ()))
        # ties broken by passage id, not by the order a set of strings was walked in (which
        # changes with every process's hash seed and made two builds of one pack differ)
        best = sorted(shared.items(), key=lambda cw: (-cw[1], cw[0]))[:top]
        out.extend((p.id, c, float(w)) for c, w in best if w >= 2)
    return out


def adjacency(passages: list[LinkPassage], max_follow: int = 8) -> list[tuple[int, int, float]]:
    """Combined editions: a passage explains nothing; the passages after it up to the next 【律】 explain it."""
    out = []
    for k, p in enumerate(passages):
        if p.layer not in ("vinaya", "daoxuan"):
            continue
        for d, q in enumerate(passages[k + 1:k + 1 + max_follow], 1):
            if q.juan != p.juan or q.work != p.work or q.layer == "vinaya":
                break
            if q.layer != p.layer and q.layer in ("daoxuan", "yuanzhao"):
                out.append((p.id, q.id, 1.0 / d))
    return out


def build_links(passages: list[LinkPassage], explains: dict[str, str]) -> list[tuple[int, int, float]]:
    """All links of a pack: alignments for each (commentary work -> base work), adjacency for combined works."""
    by_work: dict[str, list[LinkPassage]] = collections.defaultdict(list)
    for p in passages:
        by_work[p.work].append(p)
    links = []
    for comm_work, base_work in explains.items():
        for juan in sorted({p.juan for p in by_work.get(comm_work, [])}):
            base = [p for p in by_work.get(base_work, []) if p.juan == juan and p.layer != "other"]
            comm = [p for p in by_work[comm_work] if p.juan == juan and p.layer != "other"]
            links.extend(align(base, comm))
            links.extend(overlap(base, comm))
    for work, ps in by_work.items():
        if any(p.layer == "yuanzhao" for p in ps) and any(p.layer == "daoxuan" for p in ps):
            links.extend(adjacency(ps))
    return links
