"""Step A: from the reader's modern words to the words the Vinaya uses.

「赶出僧团」 must become 滅擯 不共住 擯出; 「拿钱」 must become 捉錢 金銀.
This is a vocabulary gap, not a synonym problem, and a wrong term fails
quietly: the passages found are near the topic and the answer still reads
well.  So the chosen terms are always shown, with where each came from, and
the reader can edit them.

Without a model the bridge is the glossary in resources/glossary.json.  A
question is matched after simplified/traditional folding, tolerating small
wording differences ('*' gaps, near-complete bigram overlap).  Classical
words the reader typed directly are kept too.  Words that occur in a large
share of all passages (比丘 僧 佛 戒 律 …, decided by corpus frequency) rank
nothing and are never used alone.  A question about how grave an offence is
gets the offence class named exactly.
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field

from ..corpus.normalize import simplify
from ..paths import load_resource_json
from ..text import FUNCTION_CHARS as _FUNCTION_CHARS, is_content_bigram, is_word_char
from .bridge import translate
from .gate import Refusal, check as gate_check

CATEGORIES = ("戒相", "戒体", "羯磨", "僧制", "史传", "超范围")
MAX_TERMS = 7
ENTRY_SHARES = (4, 2, 1)      # terms taken from the best, second and third glossary entries
ENTRY_WEIGHTS = (1.0, 0.6, 0.4)
GENERIC_SHARE = 0.15         # a term in more than this share of passages is too common to rank anything
# Words that frame almost every question (「出家人能不能…」) and say nothing of its topic.
FRAMING = {"出家", "出家人", "比丘", "比丘尼", "和尚", "和上", "沙門", "僧人", "弟子", "居士", "師父", "佛法",
           "戒律", "律典", "佛教", "寺院", "僧團"}
GRAVITY = re.compile(r"算不算|算不算是|犯什么罪|什么罪|何罪|罪名|多重|重罪|轻罪|最重|严重|罪过|犯戒吗|犯不犯|算犯|"
                     r"犯了什么|哪一篇|哪一聚|罪有多|是不是犯|会不会犯|犯戒了吗|算破戒")
CATEGORY_CUES = [
    ("史传", re.compile(r"为什么要?制定|为何制|制戒的?(原因|因缘|缘起)|第一个|最早|历史|结集|部派|起源|由来|谁制定|当初")),
    ("戒体", re.compile(r"戒体|得戒的?(本质|是什么)|无作|无表|戒的本质")),
    ("羯磨", re.compile(r"受戒|羯磨|忏悔|布萨|说戒|安居|结夏|自恣|结界|仪式|程序|怎么受|灭诤|调解")),
]


@dataclass
class Term:
    text: str                 # as the corpus writes it (traditional)
    source: str               # glossary | question | map (word map) | topic | offence | model | user
    entry: str | None = None  # glossary entry it came from
    weight: float = 1.0       # trust in the term for ranking (a weaker glossary match counts less)

    def to_json(self) -> dict:
        return {"text": self.text, "source": self.source, "entry": self.entry}


@dataclass
class Selection:
    question: str
    category: str
    terms: list[Term] = field(default_factory=list)
    entries: list[tuple[str, float]] = field(default_factory=list)   # matched glossary entries, best first
    gravity: bool = False
    refusal: Refusal | None = None
    dropped: list[str] = field(default_factory=list)                   # too-common words left out
    topics: list = field(default_factory=list)                         # bridge.TopicMatch, the main one first
    confidence: float | None = None                                    # how clearly a topic was matched
    suggestions: list = field(default_factory=list)                    # closest topics when none is clear
    scope: object = None                                               # gate.Decision (scope note, silent topic)
    asked: str = ""         # the question without the parts a scope note is about: what a model answers
    runners: list = field(default_factory=list)                        # the next ranked topics, not chosen

    @property
    def texts(self) -> list[str]:
        return [t.text for t in self.terms]

    @property
    def weights(self) -> list[float]:
        return [t.weight for t in self.terms]

    def clue_words(self) -> tuple[list[str], list[float]]:
        """Words that may fire clues: the chosen terms, and every classical term of the best
        entries (a topic word such as 責心 names a clue's topic even when the search
        itself used only the entry's first terms)."""
        words, weights = list(self.texts), list(self.weights)
        by_id = entries_by_id()
        for (eid, _), w in zip(self.entries[:len(ENTRY_WEIGHTS)], ENTRY_WEIGHTS):
            for t in by_id[eid].terms if eid in by_id else ():
                if t not in words:
                    words.append(t)
                    weights.append(w * 0.8)
        return words, weights

    @property
    def concepts(self) -> list[str]:
        """What each term stands for: the synonyms one glossary entry offers are one idea, so a
        passage repeating them is not "covering" the question better than one that meets two ideas."""
        return [f"{t.source}:{t.entry}" if t.entry else f"{t.source}:{t.text}" for t in self.terms]


@dataclass(frozen=True)
class Entry:
    id: str
    category: str
    vernacular: tuple
    terms: tuple
    offence: tuple
    patterns: tuple           # compiled vernacular patterns, simplified
    simple_terms: tuple = ()  # the terms in simplified script, for finding them in a question
    # the characters each pattern needs (its form's, gaps aside, each once): a form whose
    # characters the question lacks can neither match nor loosely match, and is not tried
    needs: tuple = ()


@functools.lru_cache(maxsize=1)
def glossary() -> tuple[Entry, ...]:
    data = load_resource_json("glossary.json")
    out = []
    for e in data["entries"]:
        forms = [v for v in e["vernacular"] if v.strip()]
        pats = tuple(_compile(v) for v in forms)
        needs = tuple("".join(set(plain)) for _, plain in pats)
        out.append(Entry(e["id"], e["category"], tuple(e["vernacular"]), tuple(e["terms"]),
                         tuple(e.get("offence") or ()), pats, tuple(simplify(t) for t in e["terms"]), needs))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def entries_by_id() -> dict[str, Entry]:
    return {e.id: e for e in glossary()}


def _compile(form: str) -> tuple[re.Pattern, str]:
    s = simplify(form.strip())
    rx = re.compile(".{0,4}".join(re.escape(part) for part in s.split("*")))
    return rx, s.replace("*", "")


def _bigrams(s: str) -> set[str]:
    return {s[i:i + 2] for i in range(len(s) - 1) if is_word_char(s[i]) and is_word_char(s[i + 1])}


# Phrases naming the asker's subject rather than the topic: removed before matching, so that
# 「出家人…」 does not match 出家 (ordination) nor 家人 (relatives); and 礼拜 in everyday speech for
# a week (下个礼拜, 两个礼拜, 礼拜天), which is no bow (禮拜).
_FRAME_PHRASES = re.compile(r"出家人|出家众|出家师父|出家的人|出家僧人|出家僧|出家修行的人|师父们|师父|法师们|法师|"
                            r"比丘们|僧人|和尚们|和尚|老和尚|佛弟子|律典里|律典中|律里|律中|戒律上|按戒律|按照戒律|佛陀|佛教里|佛教|"
                            r"请问|请教|想请问|"
                            r"(?:[上下这本每前]一?个?|[一两二三四五六七八九十几半]个多?)礼拜|礼拜[一二三四五六天日]")
def frame_spans(q: str) -> list[tuple[int, int]]:
    return [m.span() for m in _FRAME_PHRASES.finditer(q)]


_QUOTED = re.compile(r"“([^”]{1,12})”|「([^」]{1,12})」|‘([^’]{1,12})’|\"([^\"]{1,12})\"|《([^》]{1,12})》")
FUZZY_ONLY = 0.6
QUOTED_BONUS = 3.0     # a word the reader puts in quotation marks is the word they are asking about


def quoted_positions(q: str) -> set[int]:
    """Characters inside quotation marks: the term the reader heard and asks about (“结夏”, “戒体”)."""
    out: set[int] = set()
    for m in _QUOTED.finditer(q):
        g = next(i for i in range(1, 6) if m.group(i) is not None)
        out.update(range(m.start(g), m.end(g)))
    return out


def _inside(span: tuple[int, int], frames: list[tuple[int, int]]) -> bool:
    return any(a <= span[0] and span[1] <= b for a, b in frames)


def strip_frame(q: str) -> str:
    return _FRAME_PHRASES.sub("，", q)


@functools.lru_cache(maxsize=1)
def _bigram_index() -> tuple[dict, dict]:
    """Each entry's vernacular bigrams, and each bigram's weight (rarer across entries: heavier)."""
    per_entry: dict[str, set] = {}
    for e in glossary():
        bis = set()
        for _, plain in e.patterns:
            bis |= _bigrams(plain)
        per_entry[e.id] = {b for b in bis if is_content_bigram(b)}
    df: dict[str, int] = {}
    for bis in per_entry.values():
        for b in bis:
            df[b] = df.get(b, 0) + 1
    n = max(1, len(per_entry))
    idf = {b: math.log(1 + n / d) for b, d in df.items()}
    return per_entry, idf


def _fuzzy(bigrams: set, qbi_at: list[tuple[int, str]], idf: dict) -> tuple[float, bool]:
    """Weight of the entry's bigrams the question shares, and whether they make more than one word of it.

    Bigrams that all sit in one run of the question are one word (不小心 of
    不小心*死): a piece of a form, not a rewording of it, so alone they match nothing."""
    at = [(i, b) for i, b in qbi_at if b in bigrams]
    shared = {b for _, b in at}
    several = len(shared) >= 2 and not all(j == i + 1 for (i, _), (j, _) in zip(at, at[1:]))
    return sum(idf[b] for b in shared), several


_ASKING_WORDS = ("请问", "请教", "想请问")


def _straddles(span: tuple[int, int], frames: list[tuple[int, int]], q: str) -> bool:
    """Does a match take in only part of a framing phrase, or any of an asking one?  「请*吃饭」 met
    in 「请问吃饭时能不能…」 holds the 请 of 请问, which asks and invites no one (a form may hold
    an address whole on purpose: 跟*师父*学)."""
    for a, b in frames:
        if a < span[0] < b or a < span[1] < b:
            return True
        if span[0] <= a and b <= span[1] and q[a:b] in _ASKING_WORDS:
            return True
    return False


def _loose_match(form: str, q: str, frames: list[tuple[int, int]]) -> tuple[int, int] | None:
    """Span of a form of 3+ characters found in order with a few characters between (跟师父学 in 跟着师父学)."""
    if len(form) < 3:
        return None
    start = q.find(form[0])
    while start != -1:
        pos, gaps = start, 0
        for ch in form[1:]:
            nxt = q.find(ch, pos + 1)
            if nxt == -1 or nxt - pos > 3:
                break
            gaps += nxt - pos - 1
            pos = nxt
        else:
            if gaps <= 3 and not any(a < pos + 1 and start < b for a, b in frames):
                return start, pos + 1
        start = q.find(form[0], start + 1)
    return None


def _coverage(e: Entry, q: str, frames: list[tuple[int, int]]) -> tuple[set[int], int, bool]:
    """Question characters an entry's own words cover, its longest form met, and whether the
    reader typed one of its classical terms."""
    covered: set[int] = set()
    longest = 0       # the most specific single form breaks ties (赶出僧团 over 被*赶出 + 赶出*僧)
    chars = set(q)
    for (rx, plain), needs in zip(e.patterns, e.needs):
        if not chars.issuperset(needs):
            continue
        for m in rx.finditer(q):
            if not _inside(m.span(), frames) and not _straddles(m.span(), frames, q):
                covered.update(range(*m.span()))
                longest = max(longest, len(plain))
                break
        else:
            span = _loose_match(plain, q, frames)
            if span:
                covered.update(range(*span))
                longest = max(longest, len(plain) - 1)
    typed = False
    for st in e.simple_terms:        # the reader may already use the classical word
        k = q.find(st)
        if len(st) >= 2 and k >= 0 and not _inside((k, k + len(st)), frames):
            covered.update(range(k, k + len(st)))
            typed = True
    return covered, longest, typed


def match_entries(question: str) -> list[tuple[Entry, float]]:
    """Glossary entries the question touches, strongest first.

    Whole vernacular forms found in the question (gaps '*' allowed) count the
    characters of the question they cover together — overlapping forms of one
    entry (被*赶出, 赶出*僧) do not add up to more than the words they share.
    Beyond that, a form met with small wording differences counts the rare
    bigrams it shares with the question — so 「对外宣称自己开悟」 meets 自称开悟
    through 自称 and 开悟, while 能不/不能 count for nothing.
    """
    q = simplify(question)
    frames = frame_spans(q)
    qbi_at = [(i, q[i:i + 2]) for i in range(len(q) - 1)
              if is_word_char(q[i]) and is_word_char(q[i + 1]) and not _inside((i, i + 2), frames)]
    per_entry, idf = _bigram_index()
    quoted = quoted_positions(q)
    found = []
    for e in glossary():
        covered, longest, typed = _coverage(e, q, frames)
        exact_score = len(covered) + (1.0 if typed else 0.0)
        # bigrams the whole forms did not already account for
        free = [(i, b) for i, b in qbi_at if i not in covered or i + 1 not in covered]
        fuzzy, several = _fuzzy(per_entry[e.id], free, idf)
        score = exact_score + 0.5 * fuzzy + 0.1 * longest + (QUOTED_BONUS if covered & quoted else 0.0)
        if not covered:
            score *= FUZZY_ONLY     # met only through a rewording: behind any entry whose own words occur
        if exact_score >= 2 or (several and fuzzy >= 6.0):
            found.append((e, round(score, 2)))
    found.sort(key=lambda x: -x[1])
    if found:
        top = found[0][1]
        found = [(e, s) for e, s in found if s >= 0.4 * top]
    return found


@functools.lru_cache(maxsize=1)
def _modern_speech() -> str:
    """Every vernacular form of the glossary, for telling a modern word from a classical one."""
    return "|".join(plain for e in glossary() for _, plain in e.patterns if plain not in e.simple_terms)


@functools.lru_cache(maxsize=1)
def _vocabulary() -> tuple[tuple[str, str], ...]:
    """Classical words the app knows (glossary terms and clue keys), longest first, each with its
    simplified form."""
    from .clues import clue_table
    words = {t for e in glossary() for t in e.terms + e.offence}
    words |= {k for c in clue_table() for k in c.keys}
    return tuple((w, simplify(w)) for w in sorted(words, key=lambda w: (-len(w), w)))


_FRAMING_SIMPLE = {simplify(w) for w in FRAMING}


TOPIC_TERMS = (1,)          # search words from the main topic (its places bring the rest; more words
                            # from a wrongly matched topic cost more than they bring: measured on tune sets)
TOPIC_WEIGHTS = (1.0, 0.8, 0.6)


def topic_words(topic) -> list[str]:
    """A topic's search words: its hand-checked keywords, then its names as the texts write them
    without the trailing 戒 (非時食戒 → 非時食)."""
    out = list(topic.keywords)
    for n in topic.names:
        core = re.sub(r"(戒|揵度|犍度|篇)$", "", n)
        for w in (core, n):
            if len(w) >= 2 and w not in out:
                out.append(w)
                break
    return out


def select(question: str, df_share=None, matches=None, decision=None) -> Selection:
    """Choose the terms for a question (no model).  ``df_share(term)`` gives a term's passage share;
    ``matches`` (bridge.Matches) are the topics the question was matched to; ``decision`` is the
    scope gate's (gate.Decision), else the gate is asked without topics."""
    refusal = decision.refusal if decision is not None else gate_check(question)
    if refusal is not None:
        return Selection(question, "超范围", refusal=refusal)
    q = simplify(question)
    entries = match_entries(question)
    gravity = bool(GRAVITY.search(q))
    terms: list[Term] = []
    seen: set[str] = set()

    def add(text: str, source: str, entry: str | None = None, weight: float = 1.0) -> None:
        key = simplify(text)
        if key not in seen:
            seen.add(key)
            terms.append(Term(text, source, entry, weight))

    # classical words typed by the reader come first: they are what the reader means --
    # unless the glossary lists the word as modern speech too (后悔 is regret, not 後悔戒)
    modern = _modern_speech()
    for w, sw in _vocabulary():
        if len(w) >= 2 and sw in q and sw not in _FRAMING_SIMPLE and not any(sw in k for k in seen) \
                and not (len(sw) == 2 and sw in modern):
            add(w, "question")
    top = entries[:3]
    for (e, _), share, weight in zip(top, ENTRY_SHARES, ENTRY_WEIGHTS):
        for t in e.terms[:share]:
            add(t, "glossary", e.id, weight)
    # the topics' own words come after the reader's classical words and the glossary's: the topic
    # reaches its passages through its places (retrieve.Place) already.  Topics that are only a
    # best guess are answered about all the same (each with its own passages: a hedge costs the
    # reader less than a wrong single guess) and the answer offers them as choices (「您是否想问」)
    chosen = matches.chosen() if matches is not None and matches.ranked else []
    sure = matches is not None and matches.sure
    for m, share, weight in zip(chosen, TOPIC_TERMS, TOPIC_WEIGHTS):
        weight = weight if sure else weight * 0.7
        taken = 0
        for w in topic_words(m.topic):
            if taken >= share:
                break
            if df_share is None or 0 < df_share(w) <= GENERIC_SHARE:
                add(w, "topic", m.topic.id, weight)
                taken += 1

    if matches is not None and df_share is not None:
        for w in mapped_words(matches.analysis, df_share, seen):
            add(w, "map", None, MAPPED_WEIGHT)

    if gravity:
        for e, _ in top[:2]:
            for t in e.offence:
                add(t, "offence", e.id, 0.6)
    dropped = []
    if df_share is not None:
        specific = [t for t in terms if df_share(t.text) <= GENERIC_SHARE]
        dropped = [t.text for t in terms if t not in specific]
        terms = specific
        if not terms:
            terms = [Term(w, "question") for w in corpus_words(q, df_share)]
    terms = _cap(terms, gravity, sure)
    sel = Selection(question, classify(q, entries), terms, [(e.id, s) for e, s in entries[:5]],
                    gravity, None, dropped)
    if matches is not None:
        sel.topics = chosen
        sel.confidence = matches.confidence
        sel.suggestions = matches.suggestions()
        sel.runners = matches.runners(chosen)
    return sel


MAPPED_SHARE = 0.006      # a word-map word is a search term only when it is this rare: a thing (枕, 井, 蚊幮)
MAPPED_WEIGHT = 0.6       # … trusted less than the glossary's first entry (1.0 lost 4 of the 7 it gained)
MAPPED_TERMS = 2          # … and at most this many (three gained nothing more)


def mapped_words(analysis, df_share, seen: set[str]) -> list[str]:
    """The texts' words for the concrete things the question asks about, from the word map.

    The glossary names topics; an everyday thing nobody wrote an entry for (a pillow, a well,
    a mosquito net) is lost between its entries, though the word map knows its classical
    name (枕头 → 枕) and the rulings on it use that name.  Only the parts that ask are read
    (a story's incidental things are not the question), only the map's first word for each
    thing, and only a word rare enough to name a thing, not an act (臥, 食).  Measured on the
    tune sets: recall 1263 -> 1270 of 1765 gold (10 gained, 3 lost), main topic and dev level."""
    out: list[str] = []
    for part in analysis.parts:
        if not part.asks:
            continue
        for _, _, words in translate(analysis.simple[part.start:part.end], analysis.masked, part.start):
            w = words[0]
            sw = simplify(w)
            if w in out or any(sw in k or k in sw for k in seen):
                continue
            if 0 < df_share(w) <= MAPPED_SHARE:
                out.append(w)
    return out[:MAPPED_TERMS]


FALLBACK_SHARE = 0.02     # a word of the question taken as it stands must be this rare in the corpus


def corpus_words(q: str, df_share, limit: int = 3) -> list[str]:
    """Last resort when the glossary knows nothing of the question: its own words that the corpus uses.

    Longest first, only words of content (not modern phrasing), only words rare
    enough to rank something.  Shown to the reader like every term, so a poor
    pick is visible and can be replaced."""
    frames = frame_spans(q)
    out: list[str] = []
    taken: list[tuple[int, int]] = []
    for n in (4, 3, 2):
        for i in range(len(q) - n + 1):
            w = q[i:i + n]
            if not all(is_word_char(c) for c in w) or all(c in _FUNCTION_CHARS for c in w):
                continue
            if any(c in _FUNCTION_CHARS for c in (w[0], w[-1])) or _inside((i, i + n), frames) \
                    or w in _FRAMING_SIMPLE:
                continue
            if any(a < i + n and i < b for a, b in taken):
                continue
            share = df_share(w)
            if 0 < share <= FALLBACK_SHARE:
                out.append(w)
                taken.append((i, i + n))
                if len(out) >= limit:
                    return out
    return out


def _cap(terms: list[Term], gravity: bool, sure: bool = False) -> list[Term]:
    """At most MAX_TERMS, keeping the reader's own words (typed, or the word map's names for the
    things asked about), (for gravity questions) the offence names and the surely matched topic's
    own word."""
    if len(terms) <= MAX_TERMS:
        return terms
    keep = [t for t in terms if t.source == "question" or (gravity and t.source == "offence")
            or t.source == "map"
            or (sure and t.source == "topic")][:MAX_TERMS]
    for t in terms:
        if len(keep) >= MAX_TERMS:
            break
        if t not in keep:
            keep.append(t)
    return [t for t in terms if t in keep]


def classify(q: str, entries: list[tuple[Entry, float]]) -> str:
    """戒相 / 戒体 / 羯磨 / 僧制 / 史传 from cue words, else from the glossary entries matched."""
    for cat, rx in CATEGORY_CUES:
        if rx.search(q):
            return cat
    votes: dict[str, float] = {}
    for e, s in entries[:3]:
        votes[e.category] = votes.get(e.category, 0) + s
    return max(votes, key=votes.get) if votes else "戒相"


def user_terms(question: str, texts: list[str], decision=None) -> Selection:
    """The reader edited the terms: use exactly these (the scope gate still applies)."""
    refusal = decision.refusal if decision is not None else gate_check(question)
    if refusal is not None:
        return Selection(question, "超范围", refusal=refusal)
    q = simplify(question)
    clean = []
    for t in texts:
        t = t.strip()
        if t and t not in clean:
            clean.append(t)
    return Selection(question, classify(q, match_entries(question)), [Term(t, "user") for t in clean],
                     gravity=bool(GRAVITY.search(q)))
