"""Step A, first half: which topic of the Vinaya a question is about.

A reader asks 「过了中午还能喝奶茶吗？早上赶车来不及吃饭怎么办？」.  The topic is
非時食戒; 赶车 is an incidental detail and 请问/可以吗 are only framing.  This module
reads the question the way a teacher would:

* framing and address (请问法师、阿弥陀佛、违不违戒、可以吗) are never the topic;
* a question may have several parts (split at its own punctuation and at 另外/还有…),
  each gets its topic, and the part that names its topic leads;
* the topic is found through three kinds of evidence, strongest first: a classical
  name the reader typed (非時食戒, 安居), the modern phrasings people use for it
  (resources/topics), and a compositional word map (喝→飲, 钱→錢/金銀/寶 …,
  resources/wordmap.tsv) that lets wordings nobody wrote down still meet the
  words of the rule itself;
* a question about nuns (比丘尼、尼众) is answered with the nuns' rule.

The result is ranked topics with a confidence: when no topic is clearly matched
the app says so and offers the closest ones instead of silently answering about
something else.
"""
from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..corpus.normalize import simplify
from ..corpus.topics import Skeleton, Topic
from ..paths import load_resource_json, resource_path
from ..text import FUNCTION_CHARS, is_content_bigram, is_word_char

# Evidence weights (per character covered): a name the reader typed is the strongest sign.
NAME_WEIGHT = 3.0
KEYWORD_WEIGHT = 1.5
PHRASING_WEIGHT = 1.6
FUZZY_WEIGHT = 0.8
FUZZY_COVER = 0.5     # share of a phrasing's bigrams a question must hold to meet it in other words
LOOSE_WEIGHT = 8.0    # the best topic of the loose (BM25) channel counts as this many characters …
LOOSE_SURE = 100.0    # … when its BM25 score reaches this; the others in proportion
GLOSSARY_WEIGHT = 1.0  # a glossary entry the question meets, whose words are the topic's name or keyword
SECTIONS_WEIGHT = 4.0  # … whose words stand mostly in the topic's own sections (sections.py)
GLOSSARY_SURE = 4.0    # … counts in full from this entry score (about: question characters it covers)
GLOSSARY_ENTRIES = 3   # the entries and terms of each that may name a topic
GLOSSARY_TERMS = 3
GENERAL = {"class", "khandhaka", "pian", "chapter"}
PROCEDURES = GENERAL | {"procedure", "section"}   # topics that are not one precept
NOT_NUN_WEIGHT = 0.4  # a rule only nuns have, when the question does not speak of nuns
GENERAL_WEIGHT = 0.6  # a chapter or class as a whole, against one of its rules or procedures
WHOLE_CLEAR = 1.25    # the whole question's best topic leads only this far ahead of its second (_read_whole)
STORY_WEIGHT = 0.6    # evidence in a part that only tells the story around the question
SURE = 6.0            # a top score (about: question characters explained) at which a topic is clear
GUESS_FLOOR = 2.0     # below this the best topic is not offered as the question's topic at all
RUNNER_UP = 0.5      # a second topic is chosen when it scores this close to the first
# the topics an answer is about at most: the parts' own topics and the close runners-up.  Three
# left out a fourth that stood as close (a question on 乞縷 that also meets 從非親乞衣 and 貴價衣):
# tune sets with four, recall 1157 -> 1175 of 1605 gold, main topic 275 -> 284, quoted 803 -> 815;
# five gave no more recall (1174)
CHOSEN = 4
RUNNERS = 8          # ranked topics after the chosen ones whose commentary sections the search raises
ASKED_PART = 2.0     # … and a part's own topic, when the part asks, weighs this much more than a runner-up
LOOSE_TRUST = 0.5    # what evidence from shared characters counts for in a topic's confidence
NAMED_RARITY = 0.3   # how specific (Matcher._rarity) a typed name must be for its part to lead
MARGIN = 1.25         # … and ahead of the next unrelated topic by this factor
SURE_CONFIDENCE = 0.5  # a match this confident is answered without 「您是否想问」


@dataclass
class Part:
    start: int
    end: int
    text: str
    asks: bool = True        # the part asks something (a narrative part only sets the scene)
    asks_itself: bool = True  # … in its own words, not only as the story a later part points back to
    nun: bool = False        # the part is about nuns (its own words, else the question's)
    both: bool = False       # … and about monks too: it compares the two orders (比丘和比丘尼、僧尼)


@dataclass
class Analysis:
    question: str
    simple: str                      # per-character simplified, same offsets as the question
    masked: set[int]                 # positions of framing and address words
    parts: list[Part]
    nun: bool
    scored: dict = field(default_factory=dict)   # (start, end, asks) -> the part's topic evidence


@dataclass
class TopicMatch:
    topic: Topic
    score: float
    part: int
    evidence: list[str] = field(default_factory=list)
    loose: float = 0.0          # the share of the score from the loose (BM25) channel
    fuzzy: float = 0.0          # … and from phrasings met in other words

    def to_json(self) -> dict:
        return {**self.topic.to_json(), "score": round(self.score, 2), "part": self.part,
                "evidence": self.evidence}


@dataclass
class Matches:
    ranked: list[TopicMatch]          # best first; one per topic
    main: list[TopicMatch]            # the topic of each part that has one, the leading part first
    confidence: float                 # 0..1
    analysis: Analysis

    @property
    def sure(self) -> bool:
        return self.confidence >= SURE_CONFIDENCE

    def suggestions(self, limit: int = 5) -> list[TopicMatch]:
        """The closest topics, offered when none is clear (「您是否想问」); none below a guess."""
        if self.sure:
            return []
        return [m for m in self.ranked if m.score >= GUESS_FLOOR * 0.75][:limit]

    def runners(self, chosen: list[TopicMatch], limit: int = RUNNERS) -> list[TopicMatch]:
        """The next ranked topics after the chosen ones: not what the answer is
        about, but where the asked detail may stand when the chosen topics are a near miss."""
        taken = {m.topic.id for m in chosen}
        return [m for m in self.ranked if m.topic.id not in taken][:limit]

    def chosen(self, limit: int = CHOSEN) -> list[TopicMatch]:
        """The topics the answer is about: each part's topic, then close runners-up."""
        if not self.main or self.main[0].score < GUESS_FLOOR:
            return []             # not even a guess: 「这样做行不行」 is about nothing in particular
        out: list[TopicMatch] = [self.main[0]]
        # then each other part's topic when it stands on real evidence, and a close runner-up (two
        # precepts the question touches alike), the stronger first — a part that asks counting
        # double, so each question of a long post keeps its topic, while a side part's weak topic
        # (「律里怎么判断交情够好」 → 擊攊他戒 3.4) no longer pushes out a runner-up (大盜戒 9.6)
        parts = self.analysis.parts
        others = [(m.score * (ASKED_PART if parts[m.part].asks else 1.0), m)
                  for m in self.main[1:] if m.score >= SURE / 3]
        # a runner-up is close to its own part's best: each part of a question of several has its
        # own (比丘尼…一个人过河 beside a first part on money); the strongest topic met in a part that
        # asks weighs as that part's own does, though the part alone chose another (送葬 asked
        # beside a story: 葬法, not 裹頭; tune sets +3 gold, zero-hit −1; held-out +10, zero-hit −2)
        # (a part's best is its own: a topic whose best evidence stands in another part is ranked
        # there, and the weak topic left behind is no part's best — 「请问安居中间能不能离开寺院？」
        # beside 「要怎么请假…」 had doubled 違本要 5.7 over 受日 10.3)
        part_top: dict[int, float] = {}
        for m in (*self.ranked, *self.main):
            part_top[m.part] = max(part_top.get(m.part, 0.0), m.score)
        others += [(m.score * (ASKED_PART if parts[m.part].asks and m.score >= part_top[m.part] else 1.0), m)
                   for m in self.ranked if m.score >= RUNNER_UP * part_top[m.part]]
        mains = {m.topic.id for m in self.main}
        taken = {self.main[0].topic.id}
        for _, m in sorted(others, key=lambda x: -x[0]):
            if len(out) >= limit:
                break
            if parts[m.part].nun and not parts[m.part].both and m.topic.is_rule and not m.topic.nun \
                    and not _with_nuns(m.topic):
                continue          # a monks' rule the nuns do not have (足食戒) answers no nun's question
            if m.topic.id in taken:
                continue
            if m.topic.id not in mains and any(_twin(m, x, self.analysis.simple) for x in out):
                continue
            out.append(m)
            taken.add(m.topic.id)
        return out


_WITH_NUNS = re.compile(r"(?<!毘)尼(?!師壇)")


def _with_nuns(topic: Topic) -> bool:
    """A monks' rule on dealings with nuns (與尼同行, 輒教授尼, 村中取非親尼食: the 尼 of its name is
    the other party, not 毘尼 or 尼師壇): a nun asking whether she may travel with a monk asks
    about it, though the nuns have no rule of that name (their share is a 突吉羅 in its text)."""
    return any(_WITH_NUNS.search(n) for n in topic.names)


# -- the question ---------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _bridge_data() -> dict:
    return load_resource_json("bridge.json")


@functools.lru_cache(maxsize=1)
def _framing() -> re.Pattern:
    words = sorted({simplify(w) for w in _bridge_data()["framing"]}, key=len, reverse=True)
    return re.compile("|".join(re.escape(w) for w in words))


@functools.lru_cache(maxsize=1)
def _greeting_only() -> frozenset[str]:
    return frozenset(simplify(w) for w in _bridge_data()["greeting_only"])


_ADDRESSED = re.compile(r"\W*(?:法师|师父|师傅|大德|尊者|长老|各位|诸位|大家|三宝|十方)")


def _greets(q: str, start: int, end: int) -> bool:
    """Is the framing word at q[start:end] a greeting (「顶礼法师」, 「阿弥陀佛，顶礼！」) rather
    than the act it names (「尼众可以不向他顶礼吗」)?"""
    opens = start == 0 or not is_word_char(q[start - 1])
    return bool(_ADDRESSED.match(q, end)) or (opens and (end == len(q) or not is_word_char(q[end])))


@functools.lru_cache(maxsize=1)
def _splitters() -> re.Pattern:
    return re.compile("|".join(re.escape(simplify(w)) for w in _bridge_data()["part_openers"]))


@functools.lru_cache(maxsize=1)
def _nun_words() -> re.Pattern:
    return re.compile("|".join(re.escape(simplify(w)) for w in _bridge_data()["nun_words"]))


_ANAPHOR = re.compile(r"[\s，,]*(这样|这种|这么|那样|那这|那么这|如此|这算|这个|这些|那种|那也|这也|此)")
ANAPHOR_CONTENT = 8   # content characters up to which a part that points back only asks about the one before


# 「我是刚出家半年的比丘尼」「本人是一名在家居士」: the asker introducing themselves (出家 here is
# not the topic 出家); whether the asker is a nun is read from the nun words before masking
SELF_INTRO = re.compile(r"(?:我|本人|末学|弟子)(?:是|为|乃)(?:一[名个位])?[^，,。！？?；;]{0,12}?"
                         r"(?:比丘尼|比丘|沙弥尼|沙弥|式叉摩那|居士|出家人|出家众|法师|僧人|学佛的人|佛弟子)")
# 「应该怎么处理？」「犯什么罪？」「如何对治？」: a follow-up that says nothing of its own asks about the part before
_FOLLOW_UP = re.compile(r"走?(?:程序|流程|手续|步骤)|处理|处置|对待|对治|解决|办|做|算|判|罪|犯|结|看|呢|何|如|样|种|情况|规定|说法|讲究")
_MONKS = re.compile(r"比丘(?!尼)|和尚(?!尼)|沙弥(?!尼)")   # 和尚尼: a nun's preceptor
_MONKS_TOO = re.compile(r"比丘(?!尼)|大僧|僧尼|男众|二众|两众|二部")
_STOPS = re.compile(r"[？?！!。；;\n]+")
_FILLER = re.compile(r"然后呢?|就是说|还有就是|嗯|呃")
RUN_ON = 20        # word characters without a mark around a filler at which a text reads as dictated
FILLER_AFTER = 8   # … and what must have been said since the last cut (「那个我想问一下就是说…」 has said nothing)
_LIST_MARKS = "、和及与"     # a list goes on after these: 「衣钵、一些钱、还有几件家具」 is one part
# 「前几天」「好几件」「没什么大病」: a question word inside a phrase that tells, not asks
# 「为了一位师父到底有没有犯戒的事吵翻了」: an either-or made a noun (…的事) is what a story is
# about, not a question put to the reader
_NOT_ASKING = re.compile(r"[前这那好十]几|几[乎十百千万]|没(?:什么|多少)"
                         # 「走几步会好一点」「住了几天」: a few of something, told
                         r"|几[步下天次回趟口遍年月][^，,。；;？?！!]{0,2}?(?:就|会|才|便|又|也)|[了过]几"
                         # 「有几个年轻师父围着他」「我们几个居士」: some of them, told (「条件有几个？」 still asks)
                         r"|有几[个位名件条次][^，,。；;？?！!]{2,}|们几[个位]"
                         r"|(?:有没有|是不是|是否|算不算|能不能|会不会|该不该|要不要|犯没犯)"
                         r"[^，,。；;？?！!]{0,10}?的(?:事|问题|争议|争论|纠纷|说法)"
                         # 「为某位师姐到底有没有犯戒争起来」: what people quarrelled over
                         r"|为[^，,。；;？?！!]{0,12}(?:有没有|是不是|是否|算不算|能不能|会不会|该不该|要不要|犯没犯)"
                         r"[^，,。；;？?！!]{0,10}?(?:争|吵|闹|辩)")
_POINTS_BACK = re.compile(r"这样|这种|这么做|这么说|这句话|这话|这个|这些|这件|这事|那样|那种|如此|此事|这算"
                          r"|这(?:在|对|也|还|都|属于|一[夜次回天件点])")   # 「这在尼戒里算不算触？」


def points_back(text: str) -> bool:
    """Does a text point at something outside itself (这样, 这个, 那种 …)?"""
    return bool(_POINTS_BACK.search(text))


POINT_LEAD = 10    # characters of its own before 这样/这个 up to which a part points outside itself
_INTRODUCES = re.compile(r"\W*(?:[^，,。]{0,8}[，,]\s*)?(?:我|本人|末学|弟子|学人)(?:是|在|为|乃|已|出家|刚|今年)")
INTRO_ONLY = 12    # characters of its own (greeting and self-description masked) up to which a part
                   # opening with 我是/我在/本人 only introduces the asker


def analyse(question: str) -> Analysis:
    q = simplify(question)
    masked: set[int] = set()
    for rx in (_framing(), _nun_words(), SELF_INTRO):   # who is asked about is not what is asked
        for m in rx.finditer(q):
            if rx is _framing() and m.group(0) in _greeting_only() and not _greets(q, m.start(), m.end()):
                continue
            masked.update(range(*m.span()))
    cuts = {0, len(q)}
    for m in _STOPS.finditer(q):
        cuts.add(m.end())
    for m in _splitters().finditer(q):
        if _opens_part(q, m.start(), cuts):
            cuts.add(m.start())
    for m in _FILLER.finditer(q):
        # 「…那个诵戒我那天发烧住院了去不了然后呢要怎么请假…」: speech dictated without punctuation
        # moves on with 然后呢 / 就是说 where a writer starts a new sentence
        last = max(c for c in cuts if c <= m.start())
        if _unbroken(q, m.start()) >= RUN_ON and _own(q, last, m.start(), masked) >= FILLER_AFTER:
            cuts.add(m.start())
    bounds = sorted(cuts)
    parts: list[Part] = []
    for a, b in zip(bounds, bounds[1:]):
        content = _own(q, a, b, masked)
        if content == 0:
            continue
        # a fragment belongs to the part before it, and so does a short question that points back
        # to it (「……像一般演讲那样。这样合乎戒律吗？」 asks about the story, not about 戒律)
        said = "".join(q[i] for i in range(a, b) if is_word_char(q[i]) and i not in masked
                       and q[i] not in FUNCTION_CHARS)
        if parts and (content < 3 or (_ANAPHOR.match(q, a) and content <= ANAPHOR_CONTENT)
                      or not _FOLLOW_UP.sub("", said)):
            parts[-1] = Part(parts[-1].start, b, q[parts[-1].start:b])
            continue
        parts.append(Part(a, b, q[a:b]))
    if not parts:
        parts = [Part(0, len(q), q)]
    whole_nun = bool(_nun_words().search(q))
    for p in parts:
        p.asks = p.asks_itself = asks(p.text)
        if _nun_words().search(p.text):
            p.nun = True
            p.both = bool(_MONKS_TOO.search(p.text))
        elif _MONKS.search(p.text):
            p.nun = False            # this part is about monks, whatever the rest says
        else:                        # nuns, when the question speaks of nuns and not of monks too
            p.nun = whole_nun and not _MONKS.search(q)
    _ask_about_the_story(parts, q, masked)
    first, _ = narrowed_from(parts)
    for p in parts[:first]:          # 「…病的事我不在这里问，只想请问：…」: the story before it
        p.asks = False
    if not any(p.asks for p in parts):
        for p in parts:
            p.asks = True
    return Analysis(question, q, masked, parts, bool(_nun_words().search(q)))


def _own(q: str, a: int, b: int, masked: set[int]) -> int:
    """How many characters of q[a:b] say something of the asker's own: word characters outside the
    framing, address and self-introduction the analysis masked."""
    return sum(1 for i in range(a, b) if is_word_char(q[i]) and i not in masked)


def _unbroken(q: str, k: int) -> int:
    """How many characters around ``k`` run without a punctuation mark or a space."""
    a = k
    while a > 0 and is_word_char(q[a - 1]):
        a -= 1
    b = k
    while b < len(q) and is_word_char(q[b]):
        b += 1
    return b - a


def _opens_part(q: str, k: int, cuts: set[int]) -> bool:
    """Does the part opener (另外, 还有 …) at ``k`` open a part?  「……吗？另外想问」 does;
    「几个师父另外出去吃饭」 (separately) does not: only at the start of a clause.  A list goes on
    after 、 (「衣钵、一些钱、还有几件家具」), and after a comma only a sentence that has asked
    ends a part (「……可以吗，还有……」, not 「他留下的衣服、钵，还有房里的床」)."""
    if k == 0 or q[k - 1] in "？?！!。；;\n":
        return True
    if is_word_char(q[k - 1]) or q[k - 1] in _LIST_MARKS:
        return False
    return asks(q[max(c for c in cuts if c < k):k])


def asks(text: str) -> bool:
    """Does a text ask something (or request it of the reader), once announcements (我想问：)
    and, without a question mark, speech reported (医生问我们…) are set aside?"""
    if "？" not in text and "?" not in text:
        text = _REPORTED.sub("", text)
        # a sentence closed with a full stop that says what can be done tells it: 「吃药控制得还
        # 可以。」「法律上我可以自己决定。」 (可以吗, 可不可以 still ask)
        if text.rstrip().endswith(("。", "！", "!")):
            text = _TOLD_CAN.sub("", text)
    return bool(_ASKING.search(_NOT_ASKING.sub("", _ANNOUNCES.sub("", text))))


def _ask_about_the_story(parts: list[Part], q: str, masked: set[int]) -> None:
    """「……结夏安居了。这个规矩最初是因为什么定下来的？」: a part that asks about "this" asks about
    the story before it, which is then part of the question, not only its scene — when "this"
    opens the part (「请问我这样…」「想了解一下，这个规矩…」); after a story of its own (「有位师父…
    自己拿着卡取钱，这样如法吗」) it points at that story.  The whole story since the last question
    is asked about, not the asker introducing themselves."""
    for k, p in enumerate(parts):
        back = _POINTS_BACK.search(p.text) if p.asks else None
        if not back or _own(q, p.start, p.start + back.start(), masked) > POINT_LEAD:
            continue
        j = k - 1
        while j >= 0 and not parts[j].asks and not _introduces(parts[j], q, masked):
            if not _EXAMPLES.search(parts[j].text):
                parts[j].asks = True
            j -= 1


# 「平时难免有些小过失，比如吃饭时自言自语之类的」: examples illustrate the class a later
# question points back to (这种小过); they are not themselves what is asked
_EXAMPLES = re.compile(r"比如|例如|譬如|诸如|像是[^，。]{0,20}之类")


def _introduces(part: Part, q: str, masked: set[int]) -> bool:
    """「师父您好，我在一座寺院做义工」「各位大德好，我是一名沙弥，准备明年受具足戒」: the
    asker introducing themselves, not the story the question is about."""
    return bool(_INTRODUCES.match(part.text)) and _own(q, part.start, part.end, masked) <= INTRO_ONLY


# 「只想请问」「只想先搞清楚」「这些对不对我先不问，」「…所以不敢问师父，想问你：」: the asker says
# which part is the question (a colon after asking the reader announces it; what stood before
# is background, however Vinaya-like)
_ONLY_ASKS = re.compile(r"只(?:是)?(?:想|要)?(?:先)?(?:请问|问|知道|了解|搞清楚|弄清楚|弄明白|请教|确认)"
                        r"|(?:先|暂且|暂时|就)?不(?:在这里)?(?:问|谈|讨论)了?[，,。；;]"
                        r"|(?:想|要)?(?:问问?|请问|请教)(?:你|您)(?:一下|下)?[：:]")


def narrowed_from(parts: list[Part]) -> tuple[int, int]:
    """Where the asker narrows the question to what follows (「治疗上的事我们自己跟医生商量，只想
    请问：律里…」): the last part that does, and the offset in it where the narrowing begins;
    (0, 0) when no part does.  The parts' text is the analysis's, already simplified."""
    for i in range(len(parts) - 1, -1, -1):
        m = _ONLY_ASKS.search(parts[i].text)
        if m:
            return i, m.start()
    return 0, 0


# 「末学请教一个问题：有位居士…」「请问法师，我是派出所的辅警…」: announcing a question asks
# nothing yet; the part after it is the story unless it asks itself
_ANNOUNCES = re.compile(r"(?:我|末学|弟子)?想?(?:向您|向法师|向师父)?(?:请教|请问|问|咨询|求教|讨教)(?:一下|下)?"
                        r"(?:大家|各位|法师|师父|您)?(?:一个|个|几个|两个|一些|一点)?(?:问题|事情|疑问|困惑)?\s*[：:，,]")

# 「医生问我们要不要放弃插管。」「监院说常住可以先借给我。」: what someone else asked or said,
# told without a question mark, asks the reader nothing
# — but 说说/讲讲 (「想请师父说说这预示着什么。」) is a request made of the reader, not speech reported,
# and so is a question put 顺便 / 顺带 / 附带 (「顺便问一下现在哪家银行利率高」)
_REPORTED = re.compile(r"(?<![想请要我再来说便带])(?<!便问)(?<!带问)(?:说(?!说)|问|建议|劝|告诉)[^，,。；;！!\s]*")

# 「吃药控制得还可以。」: 可以 not asked (可以吗, 可以不可以), in a sentence closed by a full stop (asks())
_TOLD_CAN = re.compile(r"可以(?![吗么嘛不])")

# What makes a part of a question a question rather than the story around it.
_ASKING = re.compile(r"[？?]|吗|呢|么|能不能|可不可以|可以|是否|怎|如何|为何|为什么|哪|什么|多少|几|算不算|"
                     r"要不要|该不该|有没有|会不会|请问|请教|想问|想知道|想了解|行不行|对不对|是不是|犯不犯|"
                     # a request made of the reader asks too, question mark or not: 「想请您推荐一下
                     # 是放银行定期还是买国债。」「麻烦法师帮我看看。」
                     r"(?<![他她它])(?:请您|请你|烦请|恳请|劳烦|拜托|麻烦(?:您|你|法师|师父))|"
                     r"(?:说说|讲讲|谈谈)(?!笑)|(?:您|你)(?:就|直接|先|再|只管)?(?:给我|替我|帮我)|"
                     # 「另外帮我择个搬家的好日子」「顺便帮我用八字挑一个」: the means may stand between (帮我们
                     # 选个动土的吉日: the asker speaks for the temple or the family too)
                     r"(?<![他她它们兄弟姐妹友人])帮(?:我们家|我们|我家|我|忙)(?:用[^，,。；;？?！!]{1,4})?"
                     r"(?:看|算|推荐|查|分析|想想|出|拿|选|挑|择|判断|介绍|讲|说|解释|起|取|测)|"
                     # … and for someone else (「麻烦帮他挑个黄道吉日。」「请替我妈看看」)
                     r"(?:麻烦|烦请|劳烦|拜托|请)(?:您|你|法师|师父)?(?:帮|替|给)[^，,。；;？?！!]{1,4}?"
                     r"(?:看看|看一下|算|推荐|查|分析|选|挑|择|起|取|测)")


# -- the word map ----------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def wordmap() -> dict[str, tuple[str, ...]]:
    """Modern word (simplified) -> the words the texts use for it (resources/wordmap.tsv)."""
    out: dict[str, tuple[str, ...]] = {}
    path = resource_path("wordmap.tsv")
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) >= 2:
            modern = simplify(cols[0].strip())
            classical = tuple(w for w in cols[1].split() if w)
            if modern and classical:
                out[modern] = tuple(dict.fromkeys(out.get(modern, ()) + classical))
    return out


def translate(text: str, masked: set[int], offset: int = 0) -> list[tuple[int, int, tuple[str, ...]]]:
    """Modern words of ``text`` the word map knows, longest first and not overlapping:
    [(start, end, classical words)]."""
    wm = wordmap()
    out = []
    taken: set[int] = set()
    longest = max((len(k) for k in wm), default=0)
    for n in range(min(longest, len(text)), 0, -1):
        for i in range(len(text) - n + 1):
            span = range(offset + i, offset + i + n)
            if any(p in taken or p in masked for p in span):
                continue
            w = text[i:i + n]
            if w in wm:
                out.append((offset + i, offset + i + n, wm[w]))
                taken.update(span)
    return sorted(out)


def _joined(mapped: list[tuple[int, int, tuple[str, ...]]]) -> list[str]:
    """The bigrams two modern words next to each other make in the texts' words: 一个人 (獨) and
    过河 (渡水) are 獨渡, the rule's own word; 白天 (晝) and 睡 (臥, 眠) are 晝臥, 晝眠."""
    out = []
    for (_, end, left), (start, _, right) in zip(mapped, mapped[1:]):
        if end == start:
            out += [simplify(a[-1] + b[0]) for a in left[:3] for b in right[:3]]
    return out


# -- topics as things to match ------------------------------------------------------------

def _pattern(form: str) -> re.Pattern:
    s = simplify(form.strip())
    return re.compile(".{0,4}".join(re.escape(p) for p in s.split("*") if p))


@dataclass
class _Target:
    topic: Topic
    names: list[str]                      # simplified, longest first (names and their cores)
    keywords: list[str]
    phrasings: list[tuple[re.Pattern, str]]
    doc: set[str]                         # simplified classical words and bigrams of the topic
    word_set: set[str]                    # its names (and their cores) and keywords, simplified
    spoken: list[set[str]]                # content bigrams of each modern phrasing
    # the characters each phrasing's pattern needs, each once: a phrasing whose characters the
    # question lacks cannot match and is not run (Matcher._phrasings_possible)
    needs: list[str] = field(default_factory=list)


def _cores(name: str, precept: bool = True) -> list[str]:
    """A rule's name and the forms a reader types of it: 非時食戒 → 非時食; 大婬戒 → 婬戒, 婬.
    Only a precept's 戒 is the word "rule": in a procedure's name it belongs to a compound
    (別人說戒, 受大戒, 沙彌十戒), and 別人說 or 受大 are everyday speech, not a name."""
    base = re.sub(r"戒$", "", name) if precept else name
    out = [name] if base == name else []      # 「…受戒」 must not make every name ending in 受 a 受戒
    if base != name and len(base) >= 2:
        out = [name, base]
    if base.startswith("大") and len(base) >= 3:
        out.append(base[1:])
    base2 = re.sub(r"(揵度|犍度|篇)$", "", name)
    if base2 != name and len(base2) >= 2:
        out.append(base2)
    return out


def _bigrams(s: str) -> set[str]:
    return {s[i:i + 2] for i in range(len(s) - 1) if is_word_char(s[i]) and is_word_char(s[i + 1])}


class TopicIndex:
    """BM25 over the topics as small documents — their names, keywords, modern phrasings and the
    rule as the 戒本 states it — by single characters and bigrams (Whoosh, in memory).

    This is the loose channel: a question worded as nobody wrote it (「钵摔出裂缝还不漏，能
    不能再要新的」) still shares characters with the rule (「畜鉢減五綴不漏，更求新鉢」)
    and, through the word map, its classical words.  Exact names and phrasings are scored
    apart, more strongly."""

    def __init__(self, targets: list["_Target"]):
        docs = [" ".join(tg.names + tg.keywords + [plain for _, plain in tg.phrasings]) + " " + simplify(tg.topic.text)
                for tg in targets]
        self.ix = self._open(docs)
        self.searcher = self.ix.searcher()

    @staticmethod
    def _open(docs: list[str]):
        """The index for these documents: kept in the user cache, keyed on their text (a changed
        phrasing or pack builds a new one, about two seconds), else built in memory.

        It is written in a folder of its own and renamed into place when done, so that two
        processes starting together (the app and a `nanshan ask`) never write one index: the
        second used to stop on Whoosh's write lock."""
        import hashlib
        import shutil
        import tempfile
        from whoosh import fields, index as windex
        from whoosh.filedb.filestore import RamStorage
        from ..corpus.index import CharNgramTokenizer
        from ..paths import user_cache_dir
        schema = fields.Schema(n=fields.NUMERIC(stored=True), uni=fields.TEXT(analyzer=CharNgramTokenizer(1)),
                               bi=fields.TEXT(analyzer=CharNgramTokenizer(2)))
        key = hashlib.sha256("\x00".join(docs).encode()).hexdigest()[:16]
        folder = user_cache_dir() / "topic-index" / key

        def cached():
            try:
                if (folder / "done").exists():
                    return windex.open_dir(str(folder))
            except Exception:           # a damaged cache is rebuilt, never trusted
                pass
            return None

        if (ix := cached()) is not None:
            return ix
        try:
            folder.parent.mkdir(parents=True, exist_ok=True)
            work = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=folder.parent))
            ix = windex.create_in(str(work), schema)
        except OSError:                 # no writable cache: in memory, as fast the first time
            work, ix = None, RamStorage().create_index(schema)
        w = ix.writer()
        for k, text in enumerate(docs):
            w.add_document(n=k, uni=text, bi=text)
        w.commit()
        if work is None:
            return ix
        (work / "done").write_text("ok")
        ix.close()
        if folder.exists() and not (folder / "done").exists():
            shutil.rmtree(folder, ignore_errors=True)      # a build that never finished
        try:
            work.rename(folder)
        except OSError:                 # another process put its index there first
            pass
        if (ix := cached()) is not None:
            shutil.rmtree(work, ignore_errors=True)
            return ix
        return windex.open_dir(str(work))     # the cache would not take it: this run's own copy

    def search(self, chars: list[str], bigrams: list[str], limit: int = 60) -> dict[int, float]:
        from whoosh import query as wq
        terms = [wq.Term("uni", c) for c in dict.fromkeys(chars)] + \
                [wq.Term("bi", b, boost=2.0) for b in dict.fromkeys(bigrams)]
        if not terms:
            return {}
        hits = self.searcher.search(wq.Or(terms), limit=limit)
        return {h["n"]: h.score for h in hits}


class Matcher:
    """Matches questions to the topics of one skeleton."""

    def __init__(self, skeleton: Skeleton):
        self.skeleton = skeleton
        self.targets: list[_Target] = []
        # a nuns' rule that repeats a monks' rule is matched as the monks' rule (and answered
        # with the nuns' version when the question is about nuns): its phrasings count there
        echoed: dict[str, list[str]] = {}
        for t in skeleton.topics.values():
            if t.same_as:
                echoed.setdefault(t.same_as, []).extend(t.phrasings)
        for t in skeleton.matchable():
            names = sorted({simplify(c) for n in t.names for c in _cores(n, t.cls not in PROCEDURES)}, key=lambda w: (-len(w), w))
            keywords = [simplify(k) for k in t.keywords]
            forms = [p for p in t.phrasings + echoed.get(t.id, []) if p.strip()]
            phr = [(_pattern(p), simplify(p.replace("*", ""))) for p in forms]
            needs = ["".join(set(simplify(p.strip())) - {"*"}) for p in forms]
            # the words a modern word may meet through the word map: names and keywords, not the
            # rule's formula (悔過, 波逸提 are in every rule of a class)
            doc = set(names) | set(keywords) | {b for w in names + keywords for b in _bigrams(w)}
            spoken = [bs for _, plain in phr if (bs := {b for b in _bigrams(plain) if is_content_bigram(b)})]
            self.targets.append(_Target(t, names, keywords, phr, doc, set(names) | set(keywords), spoken, needs))
        # how many topics each classical word or bigram belongs to: a word shared by many
        # topics (比丘, 食) says little about any one of them
        df: dict[str, int] = {}
        for tg in self.targets:
            for w in tg.doc:
                df[w] = df.get(w, 0) + 1
        n = max(1, len(self.targets))
        self.idf = {w: math.log(1 + n / d) for w, d in df.items()}
        sdf: dict[str, int] = {}
        for tg in self.targets:
            for b in set().union(*tg.spoken):
                sdf[b] = sdf.get(b, 0) + 1
        self.spoken_idf = {b: math.log(1 + n / d) for b, d in sdf.items()}
        self.max_idf = math.log(1 + n)
        self._spoken_at: dict[str, list[tuple[int, int]]] = {}
        for tg in self.targets:
            for j, bs in enumerate(tg.spoken):
                for b in bs:
                    self._spoken_at.setdefault(b, []).append((id(tg), j))
        self._phrasings_by_char = self._bucket_phrasings()
        self.index = TopicIndex(self.targets)
        self.nun_version = skeleton.nun_version
        self._order = {id(tg): k for k, tg in enumerate(self.targets)}
        self.sections = None         # sections.TopicSections, when the pack's passages can be asked

    def _bucket_phrasings(self) -> dict[str, list[tuple[int, int]]]:
        """(target, phrasing) pairs under the rarest character each phrasing needs ("" for one
        that needs none): a question's characters then name the few phrasings that can match it
        out of some ten thousand."""
        freq: dict[str, int] = {}
        for tg in self.targets:
            for needs in tg.needs:
                for ch in needs:
                    freq[ch] = freq.get(ch, 0) + 1
        out: dict[str, list[tuple[int, int]]] = {}
        for k, tg in enumerate(self.targets):
            for j, needs in enumerate(tg.needs):
                key = min(needs, key=lambda ch: (freq[ch], ch)) if needs else ""
                out.setdefault(key, []).append((k, j))
        return out

    def _phrasings_possible(self, seg: str) -> dict[int, list[int]]:
        """Target index -> the indices, in order, of its phrasings whose characters all stand in
        ``seg`` (the only ones that can match it)."""
        chars = set(seg)
        out: dict[int, list[int]] = {}
        for ch in chars | {""}:
            for k, j in self._phrasings_by_char.get(ch, ()):
                if chars.issuperset(self.targets[k].needs[j]):
                    out.setdefault(k, []).append(j)
        for js in out.values():
            js.sort()
        return out

    # -- scoring -------------------------------------------------------------------
    def score_part(self, a: Analysis, part: Part) -> list[TopicMatch]:
        """Every topic the part's words meet, with its evidence.  Scored once per analysis (the
        gate asks again for each part's Vinaya subject); each call gets its own matches."""
        done = a.scored.get((part.start, part.end, part.asks))
        if done is None:
            done = a.scored[(part.start, part.end, part.asks)] = [
                (m.topic, m.score, tuple(m.evidence), m.loose, m.fuzzy) for m in self._score_part(a, part)]
        return [TopicMatch(t, sc, 0, list(ev), lv, fz) for t, sc, ev, lv, fz in done]

    def _score_part(self, a: Analysis, part: Part) -> list[TopicMatch]:
        q = a.simple
        seg = q[part.start:part.end]
        loose = self._loose(a, part)
        glossed, glossed_at = self._glossed(a, part)
        # the fuzzy channel reads address words too (a phrasing may hold 大家, 师父 on purpose);
        # only the characters outside them count as explained
        free_bi = {q[i:i + 2]: i for i in range(part.start, part.end - 1)
                   if is_word_char(q[i]) and is_word_char(q[i + 1]) and is_content_bigram(q[i:i + 2])}
        fuzzy_hits: dict[int, set[int]] = {}
        for b in free_bi:
            for key, j in self._spoken_at.get(b, ()):
                fuzzy_hits.setdefault(key, set()).add(j)
        out = []
        possible = self._phrasings_possible(seg)
        for ti, tg in enumerate(self.targets):
            score, evidence, covered = 0.0, [], set()
            for n in tg.names:                   # names the reader typed
                k = seg.find(n)
                if len(n) >= 2 and k >= 0 and not covered & set(range(part.start + k, part.start + k + len(n))):
                    span = set(range(part.start + k, part.start + k + len(n)))
                    if self._masked_out(a, span):
                        continue
                    covered |= span
                    score += NAME_WEIGHT * len(n) * self._rarity(n)
                    evidence.append(n)
            for kw in tg.keywords:
                k = seg.find(kw)
                if len(kw) >= 2 and k >= 0:
                    span = set(range(part.start + k, part.start + k + len(kw)))
                    if span & covered or self._masked_out(a, span):
                        continue
                    covered |= span
                    score += KEYWORD_WEIGHT * len(kw) * self._rarity(kw)
                    evidence.append(kw)
            for j in possible.get(ti, ()):
                rx, plain = tg.phrasings[j]
                for m in rx.finditer(seg):
                    # a phrasing may hold an address word on purpose (跟*师父*学), which then
                    # counts half: it is the phrasing's frame, not its point
                    span = set(range(part.start + m.start(), part.start + m.end())) - covered
                    new = len(span - a.masked) + 0.5 * len(span & a.masked)
                    if new >= 1:
                        covered |= span
                        score += PHRASING_WEIGHT * min(new, len(plain))
                        evidence.append(plain)
                    break
            # a phrasing met in other words, on the bigrams the exact evidence left unexplained
            left = {b: i for b, i in free_bi.items() if not {i, i + 1} <= covered} if covered else free_bi
            fz, fz_b = self._fuzzy(tg, fuzzy_hits.get(id(tg)), left, a.masked)
            if fz:
                fz *= FUZZY_WEIGHT
                score += fz
                evidence.append("~" + "".join(sorted(fz_b)))
            # the glossary's entries the part meets name the topic, or their words stand in its sections
            gloss, note = 0.0, ""
            if not covered:
                for name, weight in glossed.items():
                    if name in tg.word_set and GLOSSARY_WEIGHT * weight > gloss:
                        gloss, note = GLOSSARY_WEIGHT * weight, f"词表:{name}"
            if SECTIONS_WEIGHT * glossed_at.get(tg.topic.id, 0.0) > gloss:
                gloss, note = SECTIONS_WEIGHT * glossed_at[tg.topic.id], "词表≈"
            if gloss > 0:
                score += gloss
                evidence.append(note)
            lv = loose.get(self._order[id(tg)], 0.0)
            if lv:                              # the loose channel: characters shared with the topic
                score += lv
                evidence.append("≈")
            if score > 0:
                factor = 1.0 if part.asks else STORY_WEIGHT
                if tg.topic.cls in GENERAL:          # the asked procedure beats its chapter
                    factor *= GENERAL_WEIGHT
                out.append(TopicMatch(tg.topic, score * factor, 0, evidence, lv * factor, fz * factor))
        return out

    @staticmethod
    def _masked_out(a: Analysis, span: set[int]) -> bool:
        """Is a name or keyword met at ``span`` no evidence: wholly a masked word (比丘尼 alone is the
        asker's subject), or taking in only part of one (「想请师父开示」 is an address, not the
        procedure 請師)?  One that holds a masked word whole stands (比丘尼 in 「比丘尼戒」)."""
        if not span & a.masked:
            return False
        lo, hi = min(span), max(span)
        cut = (lo - 1 in a.masked and lo in a.masked) or (hi + 1 in a.masked and hi in a.masked)
        return span <= a.masked or cut

    def _loose(self, a: Analysis, part: Part) -> dict[int, float]:
        """The loose channel: BM25 over the topics as small documents, on the part's characters and
        bigrams and those of the classical words the word map gives for its modern words; the best
        topic counts LOOSE_WEIGHT characters when its score is sure, the others in proportion."""
        q = a.simple
        mapped = translate(q[part.start:part.end], a.masked, part.start)
        qbi = [q[i:i + 2] for i in range(part.start, part.end - 1)
               if is_word_char(q[i]) and is_word_char(q[i + 1]) and is_content_bigram(q[i:i + 2])
               and not {i, i + 1} & a.masked]
        chars = [q[i] for i in range(part.start, part.end)
                 if is_word_char(q[i]) and i not in a.masked and q[i] not in FUNCTION_CHARS]
        classical = [simplify(w) for _, _, ws in mapped for w in ws[:3]]
        found = self.index.search(chars + [c for w in classical for c in w],
                                  qbi + [b for w in classical for b in _bigrams(w)] + _joined(mapped))
        top = max(found.values(), default=1.0)
        return {k: LOOSE_WEIGHT * v / top * min(1.0, top / LOOSE_SURE) for k, v in found.items()}

    def _fuzzy(self, tg: _Target, phrasings, free_bi: dict[str, int], masked: set[int]) -> tuple[float, set[str]]:
        """A phrasing met in other words (「请大家指出自己的过失」 ~ 「请大家指出我的过失怎么说」):
        most of its content bigrams stand in the part; a bigram or two of everyday speech shared by
        chance covers too little of any phrasing to count.  Worth the question characters the
        shared bigrams cover, scaled by the share covered and by how specific the bigrams are."""
        if not phrasings:
            return 0.0, set()
        best, best_b = 0.0, set()
        for j in phrasings:
            pb = tg.spoken[j]
            shared = pb & free_bi.keys()
            if len(shared) < 2 and len(pb) > 1:
                continue
            cover = len(shared) / len(pb)
            if cover < FUZZY_COVER:
                continue
            chars = len({k for b in shared for k in (free_bi[b], free_bi[b] + 1)} - masked)
            spec = sum(self.spoken_idf[b] for b in shared) / (len(shared) * self.max_idf)
            if chars * cover * spec > best:
                best, best_b = chars * cover * spec, shared
        return best, best_b

    def _glossed(self, a: Analysis, part: Part) -> tuple[dict[str, float], dict[str, float]]:
        """The classical words of the glossary entries this part meets (framing and address
        blanked out), each with its entry's strength (0..1): the glossary knows how people say
        「在背后说别人坏话」 (兩舌) and the topics do not have to learn it again.  Second, the
        topics in whose sections the entries' words stand (sections.py), by strength × share."""
        from .terms import match_entries
        text = "".join("，" if part.start + i in a.masked else ch for i, ch in enumerate(a.simple[part.start:part.end]))
        entries = match_entries(text)
        if not entries:
            return {}, {}
        top = max(sc for _, sc in entries)
        out: dict[str, float] = {}
        at: dict[str, float] = {}
        for e, sc in entries[:GLOSSARY_ENTRIES]:
            strength = min(1.0, sc / GLOSSARY_SURE) * sc / top
            for t in e.simple_terms[:GLOSSARY_TERMS]:
                out[t] = max(out.get(t, 0.0), strength)
            if self.sections is not None:
                for tid, share in self.sections.word_topics(tuple(e.terms[:GLOSSARY_TERMS + 1])):
                    at[tid] = max(at.get(tid, 0.0), strength * share)
        return out, at

    def _rarity(self, word: str) -> float:
        """A name shared by many topics (說法, 比丘) counts less than one that points to one topic,
        and a name that is also everyday speech (出家, 受戒: in many topics' modern phrasings)
        counts less than one only the texts use (非時食, 摩那埵)."""
        by_name = min(1.0, self.idf.get(word, 3.0) / 3.0)
        spoken = self._spoken_df(word)
        by_speech = 1.0 if spoken <= 2 else math.log(1 + len(self.targets) / spoken) / self.max_idf
        return min(by_name, by_speech)

    @functools.lru_cache(maxsize=8192)
    def _spoken_df(self, word: str) -> int:
        """How many topics' modern phrasings contain the word."""
        return sum(1 for tg in self.targets if any(word in plain for _, plain in tg.phrasings))

    def match(self, question: str) -> Matches:
        a = analyse(question)
        best: dict[str, TopicMatch] = {}
        main: list[TopicMatch] = []
        named_parts: list[int] = []
        for pi, part in enumerate(a.parts):
            scored = self.score_part(a, part)
            for m in scored:              # a nuns' own rule, asked without a word of nuns
                if m.topic.nun and not part.nun:
                    m.score *= NOT_NUN_WEIGHT
            scored.sort(key=lambda m: -m.score)
            if not scored:
                continue
            top = scored[0]
            top.part = pi
            # a name leads only when it is the texts' word, not everyday speech (出家前 is no question
            # about 出家)
            if any(e in self._target(top.topic).names and self._rarity(e) >= NAMED_RARITY for e in top.evidence):
                named_parts.append(top.topic.id)
            main.append(top)
            for m in scored[:12]:
                m.part = pi
                prev = best.get(m.topic.id)
                if prev is None or m.score > prev.score:
                    best[m.topic.id] = m
        whole_top = self._read_whole(a, best)
        # several parts may point at one topic: it counts once, with their evidence together
        merged: dict[str, TopicMatch] = {}
        for m in main:
            if m.topic.id in merged:
                kept = merged[m.topic.id]
                kept.score += m.score * 0.5
                if not a.parts[kept.part].asks and a.parts[m.part].asks:
                    kept.part = m.part        # the topic is what a part asks, not only the story's
            else:
                merged[m.topic.id] = m
        main = list(merged.values())
        # the part that names its topic leads; else a part that asks before one that tells a story
        asks = {i for i, p in enumerate(a.parts) if p.asks}
        # (a name in the asker's introduction — 「我是沙弥，准备受具足戒」 — does not lead)
        main.sort(key=lambda m: (not (m.topic.id in named_parts and m.part in asks), m.part not in asks, -m.score))
        # the whole question's own topic leads when it outscores the parts' and clearly stands out
        # among the whole's (「…圆寂了。他留下了衣钵、书和存款。大家该怎么分？」 is about 亡比丘衣物,
        # not 鉢體 of the part that names the bowl), unless a part names its topic in the texts'
        # words.  Without the clarity test it led on the example words of a story (吃饭时说话、东张
        # 西望 over 这种小过…怎么忏悔) and on a diffuse many (長幼次第 6.6 beside 不敬新受戒比丘戒 6.4):
        # tune +8 gold, a tune5 main topic lost; with it tune2 +2 gold and nothing lost
        if whole_top is not None and main and main[0].topic.id not in named_parts \
                and whole_top.score >= main[0].score:
            main = [whole_top] + [m for m in main if m.topic.id != whole_top.topic.id]
        nun_parts = {i for i, p in enumerate(a.parts) if p.nun}
        ranked = sorted(best.values(), key=lambda m: -m.score)
        both = {i for i, p in enumerate(a.parts) if p.both}
        ranked = [self._as_nun(m) if m.part in nun_parts - both else m for m in ranked]
        main = [x for m in main for x in self._versions(m, m.part in nun_parts, m.part in both)]
        return Matches(ranked, main, self._confidence(ranked, main), a)

    def _read_whole(self, a: Analysis, best: dict[str, TopicMatch]) -> TopicMatch | None:
        """A question of several parts is also read whole: 「老师父圆寂了。他留下了衣钵、书和存款。
        大家该怎么分才如法？」 asks about 亡比丘衣物 only with its parts together — a death, the things
        left, how to share them — while each part alone meets other topics.  The whole question's
        topics join the runners-up in ``best`` (never the parts' own main topics), at the asking
        part: against reading the parts only, tune sets +8 gold (tune2 +4, tune4 +2, tune5 +4,
        tune7 −2) and +7 main topics; dev, tune, tune3, tune6 and tune8 unchanged.
        Returns the whole's best topic when it clearly stands out, for match() to weigh as a lead."""
        asking = [i for i, p in enumerate(a.parts) if p.asks]
        if len(a.parts) < 2 or not asking:
            return None
        # only its loose channel: the words, names and phrasings of each part are counted already
        # (reading them again over the whole question changed no answer and cost a third more time)
        loose = self._loose(a, Part(0, len(a.simple), a.simple))
        read: list[TopicMatch] = []
        for tg in self.targets:
            lv = loose.get(self._order[id(tg)], 0.0)
            if not lv:
                continue
            if tg.topic.cls in GENERAL:
                lv *= GENERAL_WEIGHT
            if tg.topic.nun and not a.nun:
                lv *= NOT_NUN_WEIGHT
            prev = best.get(tg.topic.id)
            m = TopicMatch(tg.topic, lv, asking[-1], ["≈"], lv, 0.0)
            if prev is None or lv > prev.score:
                best[tg.topic.id] = m
            read.append(m)
        if not read:
            return None
        # a topic the whole question clearly points to, not the best of a diffuse many; the same
        # subject in another layer (亡比丘衣物 in 四分律's 衣犍度 and 亡五眾物 in 行事鈔, which
        # quotes it) is no rival to it
        read.sort(key=lambda m: -m.score)
        top = read[0]
        second = next((m.score for m in read[1:] if not self._same_subject(m.topic, top.topic)), 0.0)
        return top if top.score >= WHOLE_CLEAR * second else None

    def _same_subject(self, a: Topic, b: Topic) -> bool:
        """Two topics on one subject: a procedure and its chapter or sibling (_related), or a 行事鈔
        section and the 律 section it quotes (skeleton.quoted_vinaya: its cited places lie in the
        other's own sections)."""
        return _related(a, b) or b.id in self._quoted_topics(a.id) or a.id in self._quoted_topics(b.id)

    @functools.lru_cache(maxsize=4096)
    def _quoted_topics(self, tid: str) -> frozenset[str]:
        """The topics whose own sections hold the 律 passages a topic's section quotes."""
        if self.sections is None:
            return frozenset()
        topic = self.skeleton.get(tid)
        places = self.sections.retriever.places(self.skeleton.anchors(topic)) if topic else []
        return frozenset(x for pl in places if pl.role == "cited" for x in self.sections.topics_of(pl.doc))

    def _versions(self, m: TopicMatch, nun: bool, both: bool) -> list[TopicMatch]:
        """A part about monks and nuns alike (「比丘和比丘尼……一样吗」) gets both orders' rule;
        a part about nuns the nuns' rule; else the rule as matched."""
        if both:
            nun_m = self._as_nun(m)
            return [m, nun_m] if nun_m.topic.id != m.topic.id else [m]
        return [self._as_nun(m)] if nun else [m]

    def forced(self, question: str, ids: list[str]) -> Matches:
        """The reader chose the topics (「您是否想问」): they stand, in the order given."""
        from ..errors import QuestionError
        chosen = []
        for tid in ids:
            t = self.skeleton.get(tid)
            if t is None:
                raise QuestionError(f"没有主题 {tid}。可用 `nanshan topics --match 问题` 查看候选主题。")
            chosen.append(TopicMatch(t, SURE, 0, ["读者选定"]))
        return Matches(chosen, chosen, 1.0, analyse(question))

    def _target(self, topic: Topic) -> _Target:
        return next(tg for tg in self.targets if tg.topic.id == topic.id)

    def _as_nun(self, m: TopicMatch) -> TopicMatch:
        """A question about nuns is answered with the nuns' version of a monks' rule."""
        nid = self.nun_version.get(m.topic.id)
        if nid is None:
            return m
        return TopicMatch(self.skeleton.get(nid), m.score, m.part, m.evidence)

    def _confidence(self, ranked: list[TopicMatch], main: list[TopicMatch]) -> float:
        """High when the leading topic has strong evidence and stands clear of the next topic
        that is not its own parent, child or sibling procedure."""
        if not main:
            return 0.0
        lead = main[0]
        rivals = [m for m in ranked if m.topic.id != lead.topic.id and not _related(m.topic, lead.topic)]
        second = rivals[0].score if rivals else 0.0
        # evidence of shared characters only (the loose and fuzzy channels) makes a topic likely,
        # not clear: 「别人送的东西能不能收」 meets 大盜戒 through 东西 alone
        evidence = lead.score - (1.0 - LOOSE_TRUST) * (lead.loose + lead.fuzzy)
        strength = min(1.0, evidence / SURE)
        lead_ok = 1.0 if lead.score >= MARGIN * second else (lead.score / max(second, 1e-6)) / MARGIN
        return round(strength * lead_ok, 2)


TWIN_SHARE = 0.6    # share of name bigrams at which two rules of one class are told apart by place only


def _twin(m: "TopicMatch", kept: "TopicMatch", question: str) -> bool:
    """A runner-up met by no evidence of its own that is a twin of a 眾學 rule already chosen: the
    眾學 come in families told apart only by where or how a thing is done (佛塔下 / 向佛塔 / 佛塔四邊
    嚼楊枝; 人坐己立 / 人在前己在後 說法), and a twin is dropped when the question (simplified) holds
    none of the characters that tell it apart.  Shared characters and glossary words meet all the
    twins alike, and three of them left no slot for the topic the question is about (露形 beside
    刷牙 in a bathing story; tune sets +2 gold, none lost, 5 of 511 questions change topics).
    Rules of other classes alike in name differ in substance (畜錢寶 / 貿錢寶, 無根謗 / 假根謗) and
    are all kept."""
    if m.topic.cls != "sk" or kept.topic.cls != "sk" or not set(m.evidence) <= set(kept.evidence):
        return False
    mine, theirs = simplify(m.topic.names[0]), simplify(kept.topic.names[0])
    a, b = _bigrams(mine), _bigrams(theirs)
    if not a or not b or len(a & b) / min(len(a), len(b)) < TWIN_SHARE:
        return False
    return not any(ch in question for ch in set(mine) - set(theirs))


def _related(a: Topic, b: Topic) -> bool:
    return a.parent == b.id or b.parent == a.id or (a.parent is not None and a.parent == b.parent
                                                     and a.cls in ("procedure", "section"))
