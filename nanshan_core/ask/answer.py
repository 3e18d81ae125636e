"""Step C without a model: an answer made only of quotations.

For each layer the best sentences of its materials — those carrying the most
(and the rarest) of the chosen terms — are quoted as they stand, with their
material numbers: what the Vinaya texts state (each Vinaya separately, never
harmonised), what 道宣 rules, what 元照 explains.  If no passage of 四分律
itself answers, the answer says 「仅依《四分律》，此问无明文」 and does not
fill the gap with commentary.  If nothing answers, it says so.  Every quote
then goes through verification like any other.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..corpus.pack import Pack
from ..text import CLOSERS, FULL_STOP, is_word_char, sentence_spans
from .retrieve import LAYERS, OTHER, RULE_HEADING, Material, term_groups
from .verify import Citation, verify

if TYPE_CHECKING:
    from .context import Context

NO_SIFENLU = "仅依《四分律》，此问无明文。"
NOTHING = "材料中没有能回答此问的内容。可以修改检索用语后再问。"
HEADINGS = {"vinaya": "【律本明文】", "daoxuan": "【道宣判】", "yuanzhao": "【元照释】", OTHER: "【其他】"}
PER_LAYER = {"vinaya": 4, "daoxuan": 3, "yuanzhao": 3, OTHER: 2}
MAX_QUOTE = 90


@dataclass
class Answer:
    text: str
    citations: list[Citation] = field(default_factory=list)
    panes: dict[str, list[Citation]] = field(default_factory=dict)
    no_sifenlu: bool = False
    verify_ms: float = 0.0      # time spent in step D while composing


@dataclass
class _Pick:
    material: Material
    quote: str
    score: float
    folded: str = ""          # the quote in search form (scored_sentences folds it once)
    at: int = 0               # where its sentence begins in the material's text
    termed: bool = False      # it carries a term (else only the question's own words chose it)


# A sentence that states a ruling — names an offence class, or says what is exempt — is what
# a reader asking "may I / is it an offence" needs; among sentences with the same terms it wins.
RULING = ("波羅夷", "僧伽婆尸沙", "僧殘", "偷蘭遮", "尼薩耆", "波逸提", "波夜提", "提舍尼", "突吉羅", "吉羅",
          "不犯", "無犯", "得罪", "犯重", "犯輕")


# A sentence this short stands alone only as a title (_sentences joins a short piece to what follows
# it in its paragraph): 「七滅諍法」, 「【疏】飲酒戒五十一。」, 「藥揵度之一」 name a topic and say nothing of
# it, so they count half against a sentence that does.  Tune sets: gold quoted 1100 -> 1105 of 2005,
# in the answer's text 644 -> 646; at 10 characters and a third, 1101
TITLE_LEN = 8
TITLE_SHARE = 0.5


def scored_sentences(m: Material, folded_terms: list[str], weights: list[float], fold) -> list[_Pick]:
    """Every sentence of a material with its score: the term weight it carries (a term inside
    another chosen term counts once), more if it states a ruling or comes from a clue passage,
    less if it is only a title (TITLE_LEN)."""
    top = max(weights, default=1.0)
    ruling = [fold(r) for r in RULING]
    groups = term_groups(folded_terms)   # 酒 inside 飲酒 inside 不飲酒 counts once
    out = []
    for a, b in _sentences(m.text, m.breaks):
        sent = _balanced(_without_intro(m.text[a:b].strip(), folded_terms, fold))
        if not sent or _is_table(sent):
            continue
        f = fold(sent)
        by_group: dict[int, float] = {}
        for t, w, g in zip(folded_terms, weights, groups):
            if t and t in f:
                by_group[g] = max(by_group.get(g, 0.0), w)
        score = sum(by_group.values())
        if score and sum(map(is_word_char, sent)) < TITLE_LEN:
            score *= TITLE_SHARE
        if score > 0 and any(r in f for r in ruling):
            score += 0.3 * top
        if score > 0 and m.source == "clue":      # the clue table marks a topic's main passages
            score += 0.2 * top
        out.append(_Pick(m, sent, score, f, a, score > 0))
    return out


# How much the question's own words (context.py) add to a sentence that already carries a term, at
# the material's best fit, against the strongest term: among a passage's sentences with the terms,
# the one that shares the asked detail is quoted (wine in a doctor's medicine: 含注戒本's 「以酒為藥。
# 若以酒塗瘡一切不犯」 instead of its 「波逸提　若是酒非酒色香味」).  Tune sets: gold passages quoted
# 464 -> 479 of 1190 (seven sets up, four down, dev level); 0.25 gave 472, 1.0 gave 481 but lost 5
# and 6 on two sets
ASKED_DETAIL = 0.5
SENTENCE_LEN = 40        # a sentence's length in the BM25 of the question's words


def _prefer_the_asked_detail(picks: list[_Pick], context: "Context", top: float, own: bool = False) -> None:
    """``own``: the material is the own passage of a topic the question surely names
    (Engine.own_passages), brought by the topic's place and not by its terms, so any of its
    sentences may be the asked one, with a term or none (「僧祇屠兒等逐畜生走。問言見不不得妄語」 in
    行事鈔's treatment of 小妄語, for a man chasing a hare who asks which way it ran).  A search or
    clue passage, or the passage of a topic matched unsurely, is marked only where a term stands: a
    shared character alone does not make one of its sentences an answer.  Such a sentence is marked
    on its card; the answer's text takes it only as 四分律's exemption (compose).  Tune sets: gold
    quoted 1040 -> 1100 of 2005 (every set up or level), 1087 with the exemption kept to terms too;
    with sentences fitting less than half the question's best fit left out, 1066; with unsure
    matches too, 1109, but then a wrongly guessed topic (洗脚 for a hunter's question) is quoted."""
    fits = [context.score(p.folded, SENTENCE_LEN) for p in picks]
    best = max(fits, default=0.0)
    if best <= 0:
        return
    for p, fit in zip(picks, fits):
        if p.score > 0 or own:
            p.score += ASKED_DETAIL * top * fit / best


_BOX_DRAWING = re.compile("[\u2500-\u257f]")


def _is_table(sent: str) -> bool:
    """A line of a 科 table (三十七非時食戒五句┐): box-drawing characters mark the commentary's outline
    of headings, which names a topic without saying anything about it."""
    return _BOX_DRAWING.search(sent) is not None


def _without_intro(sent: str, folded_terms: list[str], fold) -> str:
    """The sentence from the colon on when what precedes it is a formula without any term
    (自今已去與比丘結戒，集十句義乃至正法久住，欲說戒者當如是說：若比丘自手捉錢…): the reader
    wants the rule, and the quote still sits verbatim in its material."""
    while True:
        k = sent.find("：")
        if k < 12 or len(sent) - k < 10:
            return sent
        head, tail = fold(sent[:k]), fold(sent[k + 1:])
        if any(t and t in head for t in folded_terms) or not any(t and t in tail for t in folded_terms):
            return sent
        sent = sent[k + 1:].lstrip("「『")


_PAIRS = (("「", "」"), ("『", "』"))


def _balanced(sent: str) -> str:
    """A sentence without the corpus's quotation marks that open or close outside it
    (「…波逸提。」」 reads as a typo once the answer wraps it in its own 「」)."""
    for op, cl in _PAIRS:
        while sent.endswith(cl) and sent.count(cl) > sent.count(op):
            sent = sent[:-1]
        while sent.count(op) > sent.count(cl) and -1 < sent.find(op) < 12:
            sent = sent[sent.find(op) + 1:]       # 佛言：「自今已去… quotes what the Buddha said
        if sent.startswith(op) and sent.endswith(cl) and sent.count(op) == 1 and sent.count(cl) == 1:
            sent = sent[1:-1]                     # one whole speech: the answer's own marks enclose it
    return sent


def _from_heading(m: Material, scored: list[_Pick]) -> list[_Pick]:
    """The sentences a topic's own passage that opens with the previous rule's treatment
    (Material.heading) leads with: the asked rule's, from its heading on, when one there carries
    a term (勸足食's 不犯 and 五緣, before 「非時食戒三十七。」, had led 道宣's word on 非時食).  The
    sentences before it may still be the material's second quote (_second): the question may ask
    that rule too (屏與女坐 beside 獨與女人坐)."""
    if m.heading is None:
        return scored
    after = [p for p in scored if p.at >= m.heading]
    return after if any(p.score > 0 for p in after) else scored


def best_sentence(m: Material, scored: list[_Pick]) -> _Pick:
    """The sentence of a material that carries the most term weight (ties: the earlier one)."""
    best = None
    for p in scored:
        if best is None or p.score > best.score:
            best = p
    return best or _Pick(m, m.text[:MAX_QUOTE], 0.0)


def _sentences(text: str, breaks: list[int] = ()) -> list[tuple[int, int]]:
    """Sentences, never across a paragraph break; a short one, or a question (頗有比丘斷人命不犯波羅夷耶？),
    joined to what follows it in its paragraph (佛言：「有。誤殺者是。」).  A rule's heading (RULE_HEADING)
    always begins one and reads on into what follows: joined to the short pieces before it
    (「五緣。一他足食竟。二知。……非時食戒三十七。」), it quoted the previous rule's 五緣 as 道宣's word on
    非時食."""
    spans = []
    bounds = [0, *sorted(b for b in breaks if 0 < b < len(text)), len(text)]
    for lo, hi in zip(bounds, bounds[1:]):
        spans.extend((a, b) for a, b in sentence_spans(text, lo, hi, max_len=MAX_QUOTE, stops=FULL_STOP))
    starts = set(bounds)
    out: list[list[int]] = []
    open_end = False        # the last piece asks a question or is too short to stand alone
    for a, b in spans:
        heading = RULE_HEADING.fullmatch(text[a:b].strip()) is not None
        if out and a not in starts and open_end and not heading and b - out[-1][0] <= MAX_QUOTE:
            out[-1][1] = b
        else:
            out.append([a, b])
        piece = text[a:b].rstrip("".join(CLOSERS) + " ")
        open_end = b - a < 8 or piece.endswith(("？", "?")) or heading
    return [(a, b) for a, b in out]


def compose(pack: Pack, terms: list[str], materials: list[Material], weights: list[float] | None = None,
            context: "Context | None" = None, own: frozenset[int] = frozenset(),
            parts: list[frozenset[int]] = ()) -> Answer:
    """The extractive answer and the per-layer panes, every quote verified.  ``context``: the
    question's own words, which choose among a material's sentences that carry the terms, and among
    all sentences of the materials numbered in ``own`` (Engine.own_passages).  ``parts``: the own
    passages of each further part's topic, each of which the answer's text quotes (_each_part)."""
    if not materials:
        return Answer(NOTHING)
    fold = pack.normalizer.fold
    folded = [pack.normalizer.fold_query(t) for t in terms]
    weights = weights or [float(len(t)) for t in terms]
    scored = {m.n: scored_sentences(m, folded, weights, fold) for m in materials}
    if context is not None:
        for m in materials:
            _prefer_the_asked_detail(scored[m.n], context, max(weights, default=1.0), m.n in own)
    picks = {m.n: best_sentence(m, _from_heading(m, scored[m.n])) for m in materials}
    spent = [0.0]

    def checked(quote: str, n: int) -> Citation:
        t = time.perf_counter()
        c = verify(pack, quote, n, materials)
        spent[0] += (time.perf_counter() - t) * 1000
        return c
    # a card marks its best sentence only when that sentence carries a term or, in a surely matched
    # topic's own passage, fits the question (_prefer_the_asked_detail): a clue passage read for its
    # place in the text is not presented as if one of its sentences answered the question
    seconds = {m.n: _second(m, scored[m.n], picks[m.n]) for m in materials}
    # the answer's own text quotes only sentences that carry a term: a card may mark what merely
    # fits the question in a topic's own passage, but the text a reader takes as the answer keeps
    # to what the terms found, save 四分律's exemption (the asked rule's 不犯 need not name a term)
    # (only an own passage's picks can differ: elsewhere a sentence without a term scores nothing)
    said, said_seconds = dict(picks), dict(seconds)
    for m in materials:
        if m.n in own:
            termed = [p for p in scored[m.n] if p.termed]
            said[m.n] = best_sentence(m, _from_heading(m, termed))
            said_seconds[m.n] = _second(m, termed, said[m.n])
    panes = {layer: [checked(p.quote, m.n) for m in materials if m.layer == layer and picks[m.n].score > 0
                     for p in (picks[m.n], *seconds[m.n])] for layer in LAYERS}
    if any(m.layer == OTHER for m in materials):       # only a wider pack's strongest passages
        panes[OTHER] = [checked(picks[m.n].quote, m.n) for m in materials
                        if m.layer == OTHER and picks[m.n].score > 0]
    lines: list[str] = []
    chosen: list[_Pick] = []
    no_sifenlu = False
    for layer in LAYERS:
        layer_picks = [said[m.n] for m in materials if m.layer == layer and said[m.n].score > 0]
        selected = _lead_with_topic(layer, _select(layer, layer_picks), layer_picks, said_seconds)
        if layer == "vinaya":
            selected = _sifenlu_rule_and_exemption(selected, materials, scored, fold)
        selected = _each_part(layer, selected, layer_picks, parts)
        if layer == "vinaya" and not any(p.material.work == "T1428" for p in selected):
            no_sifenlu = True
        if not selected and not (layer == "vinaya"):
            continue
        lines.append(HEADINGS[layer])
        if layer == "vinaya" and no_sifenlu:
            lines.append(NO_SIFENLU)
        for p in selected:
            lines.append(f"·《{p.material.title}》：「{p.quote}」（材料{p.material.n}）")
            chosen.append(p)
    others = _select(OTHER, [picks[m.n] for m in materials if m.layer == OTHER and picks[m.n].score > 0])
    if others:
        lines.append(HEADINGS[OTHER])
        for p in others:
            lines.append(f"·《{p.material.title}》（{p.material.group}）：「{p.quote}」（材料{p.material.n}）")
            chosen.append(p)
    if not chosen:
        return Answer(NOTHING, [], panes, no_sifenlu=True, verify_ms=spent[0])
    citations = [checked(p.quote, p.material.n) for p in chosen]
    return Answer("\n".join(lines), citations, panes, no_sifenlu, spent[0])


# A topic's own passage (the rule with its story, a 篇's section) is long and often holds two
# things the asker needs apart (the rule and its 不犯, a procedure and the asked detail): its card marks
# a second sentence with the terms, not beside the first.  Tune sets: gold passages quoted 562 -> 671
# of 1350 (every set up, dev 51 -> 55); the answer's own text is unchanged.  Marking a second
# sentence in every card gave 714, but in a search passage the second is often one a single shared
# term put there; requiring half the first's score kept 657 (topic only) and 696 (every card).
SECOND_APART = 80     # characters between the starts of the two marked sentences


def _second(m: Material, scored: list[_Pick], first: _Pick) -> tuple[_Pick, ...]:
    if m.source != "topic":
        return ()
    rest = [p for p in scored if p.score > 0 and abs(p.at - first.at) > SECOND_APART and p.quote != first.quote]
    return (max(rest, key=lambda p: (p.score, -p.at)),) if rest else ()


EXEMPT = ("不犯者", "不犯", "無犯")
CLAUSE = ("不犯者", "無犯者")
BOILERPLATE = "最初未制戒"   # 「無犯者，最初未制戒，癡狂…」 closes every rule: it exempts no case of this one


def _sifenlu_rule_and_exemption(selected: list[_Pick], materials: list[Material], scored: dict,
                                fold) -> list[_Pick]:
    """四分律's own two quotes: the rule as stated, then its exemption (不犯) when a material has one —
    a reader asking "may I" needs both, and they sit in different sentences of different passages."""
    own = [m for m in materials if m.work == "T1428"]
    if not own:
        return selected
    clause = tuple(fold(x) for x in CLAUSE)
    t1428 = [p for p in selected if p.material.work == "T1428"]
    # a sentence with a term that speaks of 不犯, or the 不犯 clause of the quoted rule's own passage
    # or of the topic passage right after it (retrieval takes a rule's 不犯 right after its
    # statement): the asked rule's exemption need not repeat the question's terms (tune sets: gold
    # quoted 660 -> 671).  A clause of any topic passage was too many: 食肉, a 犍度 ruling with no
    # 不犯, was given 實得道向白衣說戒's 「不犯者，若增上慢…」
    ruled = t1428[0].material if t1428 and t1428[0].material.source == "topic" else None
    own_clause = {ruled.n, ruled.n + 1} if ruled is not None else set()
    boilerplate = fold(BOILERPLATE)
    exempt = [p for m in own for p in scored[m.n] if boilerplate not in p.folded
              and ((p.score > 0 and any(fold(x) in p.folded for x in EXEMPT))
                   or (m.n in own_clause and m.source == "topic" and p.folded.startswith(clause)))]
    if not exempt:
        return selected
    # the exemption of the asked rule: the quoted rule's own clause first (another chosen topic's
    # rule may hold the question's words more often: 說淨's 「不犯者，若真實淨施語主取著」 for a robe
    # kept past ten days), then a clause the question's topics bring (their rule's own 不犯)
    # before one a search passage brings (another rule's, met through a shared term), and a clause
    # that opens as one (「不犯者，…」) before a sentence of the story that merely says 不犯
    best_exempt = max(exempt, key=lambda p: (p.material.n in own_clause, p.material.source == "topic",
                                             p.folded.startswith(clause), p.score, -p.material.n))
    if any(p.quote == best_exempt.quote for p in selected):
        return selected
    others = [p for p in selected if p.material.work != "T1428"]
    rule = t1428[:1]
    return rule + [best_exempt] + others[:PER_LAYER["vinaya"] - len(rule) - 1]


def _lead_with_topic(layer: str, selected: list[_Pick], picks: list[_Pick],
                     seconds: dict[int, tuple[_Pick, ...]]) -> list[_Pick]:
    """A section opens with the asked topic's own passage (the first material a chosen topic brings
    to the layer): a search passage with more of the terms had stood in for the rule (長衣's count of
    days gave way to the wording of 展轉淨施).  It takes the place of the section's weakest quote of
    the same work, or of the weakest of all when the section has none of its work.

    In 道宣's and 元照's sections it also brings the second sentence its card marks (_second), in
    place of the weakest other quote when the section is full: a treatment states the rule's
    conditions in one sentence and the asked case further on (行事鈔's 「獨宿三緣…」 and 「僧祇若病
    賊亂圍城獨宿不犯」).  Tune sets and dev: gold quoted in the answer's text 378 -> 418 of 1342
    (道宣 113 -> 139, 元照 88 -> 102); in 律本, where the rule and its 不犯 already hold 四分律's two
    quotes, it cost 46."""
    lead = next((p for p in picks if p.material.source == "topic"), None)
    if lead is None or not selected:
        return selected
    out = list(selected)
    if all(p.quote != lead.quote for p in out):
        same = [p for p in out if p.material.work == lead.material.work]
        drop = _weakest(same or out)
        out = [p for p in out if p is not drop] + [lead]
    second = seconds[lead.material.n] if layer != "vinaya" else ()
    if second and all(p.quote != second[0].quote for p in out):
        if len(out) >= PER_LAYER[layer]:
            weakest = _weakest([p for p in out if p is not lead])
            out = [p for p in out if p is not weakest]
        out.append(second[0])
    return _in_reading_order(out)


def _weakest(picks: list[_Pick]) -> _Pick | None:
    """The quote a section gives up first: the lowest score, the later material on a tie."""
    return min(picks, key=lambda p: (p.score, -p.material.n), default=None)


def _in_reading_order(picks: list[_Pick]) -> list[_Pick]:
    """四分律 first, then the materials in their order, each one's quotes as they stand in it."""
    return sorted(picks, key=lambda p: (p.material.work != "T1428", p.material.n, p.at))


def _each_part(layer: str, selected: list[_Pick], picks: list[_Pick], parts: list[frozenset[int]]) -> list[_Pick]:
    """Each further part of a question of several gets its own topic's passage quoted: 「互相胳肢
    挠痒痒……还披着床单装鬼把师弟吓哭了」 asks of 擊攊 and of 怖比丘, and the terms of the first had
    filled the section.  ``parts``: for each surely matched topic of a part other than the main
    topic's, the materials that are its own passages (Engine.part_passages); the first of them
    with a term sentence takes the place of the section's weakest quote, never the lead's nor
    四分律's rule and exemption.  Tune sets: questions with a gold passage quoted in the answer's
    text 315 -> 330 of 503, gold quoted there 646 -> 659 of 2005 (17 sets up or level, 5 down);
    with every topic scoring SURE of another part, not only its first, and before 四分律's two
    quotes were set, 652."""
    lead = next((p for p in picks if p.material.source == "topic"), None)
    # … nor 四分律's rule and its exemption (_sifenlu_rule_and_exemption)
    kept = {id(p) for p in selected if p is lead or p.material.work == "T1428"}
    out = list(selected)
    for own in parts:
        mine = next((p for p in picks if p.material.n in own), None)
        if mine is None or any(p.material.n in own or p.quote == mine.quote for p in out):
            continue
        if len(out) >= PER_LAYER[layer]:
            others = [p for p in out if id(p) not in kept]
            if not others:
                continue
            weakest = _weakest(others)
            out = [p for p in out if p is not weakest]
        out.append(mine)
    return _in_reading_order(out)


def _select(layer: str, picks: list[_Pick]) -> list[_Pick]:
    """Best quotes of a layer: 四分律 first and at most two; one per other Vinaya or other work; two per
    commentary work."""
    picks = sorted(picks, key=lambda p: (-p.score, p.material.n))
    out: list[_Pick] = []
    per_work: dict[str, int] = {}
    limit = PER_LAYER[layer]
    if layer == "vinaya":
        own: list[_Pick] = []
        for p in picks:       # 四分律 repeats its formulas (成與欲…): one quote of each wording
            if p.material.work == "T1428" and len(own) < 2 and all(q.quote != p.quote for q in own):
                own.append(p)
        out.extend(own)
        for p in own:
            per_work["T1428"] = per_work.get("T1428", 0) + 1
    for p in picks:
        if len(out) >= limit:
            break
        cap = 1 if layer in ("vinaya", OTHER) else 2
        if p in out or per_work.get(p.material.work, 0) >= cap:
            continue
        if any(q.quote == p.quote for q in out):
            continue
        out.append(p)
        per_work[p.material.work] = per_work.get(p.material.work, 0) + 1
    # 四分律 first, then the others in material order
    return sorted(out, key=lambda p: (p.material.work != "T1428", p.material.n))
