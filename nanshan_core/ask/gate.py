"""The scope gate: refuse what is not the Vinaya's to answer, answer what is, and say plainly
when the texts are silent.  Decided by code alone; a model is never consulted, so no
prompt can talk the app out of an outcome.

Four outcomes:
* refuse — with the kind's reply and what the app can do instead (kinds: invented or
  altered quotations; a verdict on a particular person or community; medical, legal and
  tax, financial advice; doctrine and metaphysics beyond the Vinaya; divination);
* answer;
* answer with a scope note — a question with a Vinaya part and an out-of-scope part gets
  the Vinaya answer and a note that the rest is for a doctor / lawyer / adviser;
* silent topic — phones, cars, electronic payment … are answered with 「律典对此无明文」
  first, then the rules that bear on the thing by principle (依义推及).

How a kind is recognised: a small naive Bayes classifier over character 1-3-grams,
trained when first used from the labelled questions in resources/scope (the tune half
and further questions written for training; the test half is in tests/eval) plus the topics' modern phrasings as examples of in-scope speech; each part of the
question is classified on its own (「比丘尼能不能告官？按现在的民法怎么起诉？」 has
two parts and two answers).  Whether a Vinaya subject is present comes from the topic
bridge.  A few words no classifier should have to learn (a temple's or master's name
with a verdict asked of it, 「编一段原文」) are patterns in resources/scope/rules.json.
"""
from __future__ import annotations

import functools
import json
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from ..corpus import works
from ..corpus.normalize import simplify
from ..paths import load_resource_json, resource_path
from ..text import is_word_char

KINDS = ("invent", "judge", "medical", "legal", "financial", "doctrine", "divination")
WHOLE_KINDS = ("invent", "judge")        # never answered in part: they ask for a made-up text or a verdict
REFUSE_AT = 0.75         # posterior of an out-of-scope kind at which a part is out of scope
LOOSE_SUBJECT = 4.0      # what a topic met only by shared characters adds to a part's subject
STRONG_SUBJECT = 8.0     # topic evidence that frames a text as the Vinaya's as much as a word of it does
SURE_OUT = 0.99           # a part this surely out of scope lends the answer no topic (engine._in_scope_text)
OUT_SURE = 0.15           # posterior of 'answer' below which a text with no Vinaya in it is out of scope
OPEN_KIND_AT = 0.05        # … when this much of it is one kind that needs no one judged
LEX_WEIGHT = 0.4         # what each domain word adds to a kind's posterior (at most three count)
FOLLOW_UP = 8            # characters up to which a part after an out-of-scope request only continues it
FAINT_SUBJECT = 1.5      # topic evidence of a part the classifier finds in scope that still earns a scope note
# posterior at which the classifier alone, with no domain word and no word of the Vinaya, turns a
# part away (「早上一刷牙就干呕…这是怎么回事」 names no illness); leave-one-file-out over
# resources/scope (`nanshan eval --scope-cv`): 0.99 caught 729 of 803 refusals, 0.8 740 (0.7 the
# same), near-misses wrongly refused 2 of 536 either way
ALONE_AT = 0.8
# … and never when it asks leave (这样可以吗) for an act the topics know, in a part with a Vinaya
# subject (SUBJECT_AT): 「…请同一位师父应贡，早上去我家吃一餐，中午再去我妈妈家吃，这样可以吗？」 is
# 展轉食, though the classifier reads meals as diet (medical 0.999); 「…能不能让物业罚他？」 asks
# leave for no act of the Vinaya.  Leave-one-file-out 740 -> 738 caught; gate tune sets unchanged
SUBJECT_AT = 2.5         # topic evidence (bridge score) at which a part has a Vinaya subject
# a refusal offers the question's own topic to ask about instead (Gate._suggestion) only on firm
# evidence (names, keywords, phrasings met word for word: not the loose or fuzzy channels) and
# never a 篇 of 行事鈔, one of its sections or a chapter heading: a doctrine heading (化教歎戒)
# is no act a reader did or saw
SUGGEST_FIRM = 4.0
UNSUGGESTED = frozenset({"pian", "chapter", "section"})
# a request addressed to the app about a text: with the classifier sure it asks for a made-up
# text, enough (「替我措个辞」); 「式叉摩那给我涂油」 is no text
_REQUEST = ("你", "帮我", "替我", "给我", "请你", "帮忙", "麻烦",
            # the letter's register: 恳请法师…补足, 烦请代撰, 能否请师父拟 (请问 is no request)
            "请您", "烦请", "恳请", "能否请", "可否请", "请法师", "请师父", "劳烦", "拜托")
_TEXT = ("写", "文", "句", "段", "条", "页", "卷", "字", "引", "稿", "词", "故事", "对联", "序", "出处", "行号")


# 「我站在殿外请师父开示几句」 tells of a request made to someone else; a letter's request to
# the reader opens its clause or follows 想/能否/恳/烦: 「想请法师写一段」「能否请师父拟……」
# 「师兄传给我一段话」「他发给我看」「想把地捐给我们寺」 tell of something handed over, not a request
_TOLD_REQUEST = re.compile(r"(?<=[^\W否恳烦敬谨想特])请(?:法师|师父)|[传发寄转送拿递交塞借留带捐赠卖还施]给我")


def _untold(plain: str) -> str:
    """The text without the requests it only tells of."""
    return _TOLD_REQUEST.sub("", plain)


def _requests(plain: str) -> bool:
    """Does the text ask the app (you, 帮我, 恳请法师 …) for something?"""
    return any(w in _untold(plain) for w in _REQUEST)


_LEAVE = re.compile(r"(可以|可不可以|能不能|能否|还能|允许|允不允许|开不开)(.{0,12}?)(吗|么|？|\?|$)")


@dataclass(frozen=True)
class Refusal:
    kind: str
    label: str
    reply: str
    suggestion: str | None = None       # an in-scope question to ask instead


@dataclass
class Decision:
    outcome: str                        # refuse / answer / scope_note / silent
    kind: str | None = None             # the out-of-scope kind (refuse, scope_note)
    reply: str = ""                     # the refusal, or the scope note
    suggestion: str | None = None       # an in-scope question the reader can ask instead
    silent: list[dict] = field(default_factory=list)   # silent things met: {"thing", "topics", "terms"}
    parts: list[dict] = field(default_factory=list)    # per part: text, kind, p, subject
    out_parts: list[int] = field(default_factory=list)  # scope_note: the parts the note is about

    @property
    def refusal(self) -> Refusal | None:
        if self.outcome != "refuse":
            return None
        return Refusal(self.kind, _data()["kinds"][self.kind]["label"], self.reply, self.suggestion)

    def to_json(self) -> dict:
        return {"outcome": self.outcome, "kind": self.kind, "reply": self.reply or None,
                "suggestion": self.suggestion, "silent": self.silent}


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    return load_resource_json("scope/rules.json")


@functools.lru_cache(maxsize=None)
def _words(kind: str, key: str = "words") -> tuple[str, ...]:
    """A kind's domain words (or its 'not_words'), simplified once: classify asks for every
    kind on every part of every question."""
    return tuple({simplify(w) for w in _data()["kinds"][kind].get(key, [])})


def _alternation(words) -> str:
    """A regular-expression alternation of words, simplified, longest first."""
    return "|".join(sorted((re.escape(simplify(w)) for w in words), key=len, reverse=True))


def _without_lookalikes(kind: str, q: str) -> str:
    """A (simplified) text with the words that only look like a kind's own blanked out (编号, 编集
    are not 编 a made-up text; 带句话 is a message: 'not_words')."""
    for w in _words(kind, "not_words"):
        q = q.replace(w, "，")
    return q


@functools.lru_cache(maxsize=None)
def _stems(kind: str) -> re.Pattern | None:
    """A kind's words by their form (drug names by their stems: 奥美拉唑, 雷尼替丁), or None."""
    stems = _data()["kinds"][kind].get("stems")
    return re.compile(stems) if stems else None


def _lex_hits(kind: str, q: str) -> int:
    """How many of a kind's domain words a (simplified) text holds, look-alikes left out."""
    q = _without_lookalikes(kind, q)
    stems = _stems(kind)
    return sum(1 for w in _words(kind) if w in q) + (len(set(stems.findall(q))) if stems else 0)


@functools.lru_cache(maxsize=1)
def _text_words() -> tuple[str, ...]:
    return tuple(simplify(w) for w in _data()["text_words"])


@functools.lru_cache(maxsize=1)
def _vinaya_words() -> tuple[str, ...]:
    """rules.json's words, and the titles of the default corpus's works (四分律, 資持記, 戒本疏 …):
    a question that names a text of the Vinaya asks about the Vinaya."""
    titles = [w.short for w in works.catalog().values()]
    titles += [t for layers in works.layer_titles().values() for t in layers.values()]
    return tuple(dict.fromkeys(simplify(w) for w in [*_data()["vinaya_words"], *titles]))


@functools.lru_cache(maxsize=1)
def _not_vinaya() -> re.Pattern:
    return re.compile(_alternation(_data()["vinaya_lookalikes"]))


# 「犯个小戒要下地狱几百万年」: the retribution of an offence is the Vinaya's own subject (行事鈔's
# 篇聚名報篇 gives each class its years in 泥犁); 「犯了戒还能不能往生极乐」 is not
_OFFENCE_REPAID = re.compile(r"[犯破](?:了|过|个|一|条|这|那|些|根本|小|大|重|轻|的){0,4}[戒罪]"
                             r".{0,12}(?:地狱|泥犁|罪报|果报|报应)")


# 「他要是签字同意停药，算不算犯了杀戒？」: whether an act is an offence is the Vinaya's own
# question, whatever domain the act comes from (a verdict on a person pointed at is not: judge)
_OFFENCE_ASKED = re.compile(r"(?:算不算|算是|是不是|是否|会不会|犯不犯|有没有|算)(?:犯|破)"
                            r"|犯(?:了)?(?:什么|哪)|[犯破][了过]?[^，。？！]{0,2}戒(?:吗|么|呢|？|\?)"
                            r"|(?:哪|什么|何)一?[类种条篇](?:的)?(?:过失|过|罪|戒)"
                            r"|(?:会不会|是不是|有没有|算不算)有?(?:罪过|过失)|有(?:罪过|过失)(?:吗|么|呢)")


# 「出家人可以買股票嗎」「比丘尼可以跟租户打官司吗」: leave asked for a monastic to do a thing
# of another domain is the Vinaya's question (販賣, 言人), not advice on the thing itself
_MONASTIC = r"出家人|比丘尼?|沙弥尼?|和尚|僧人|僧尼|尼师|式叉摩那"
_MAY = r"(?:可以|可不可以|能不能|能否|能够?)"
# 「比丘能看风水吗」 asks leave; 「师父能帮我算算吗」 asks the reader to do it
_NOT_FOR_ME = r"(?![^，。？！]{0,3}(?:帮|给|替)我)"
_ASKED = r"(?:吗|么|？|\?|$)"
_MONASTIC_LEAVE = re.compile(rf"(?:{_MONASTIC})[^，。？！]{{0,4}}(?:{_MAY}|允许|允不允许|准不准|许不许)"
                             rf"{_NOT_FOR_ME}[^，。？！]{{1,12}}{_ASKED}")
# … and so does an asker who says he is one (「我是刚出家的沙弥，…常有居士找我排盘，我能答应吗？」)
_OWN_LEAVE = re.compile(rf"我{_MAY}{_NOT_FOR_ME}[^，。？！]{{0,12}}{_ASKED}")


# whether someone may go forth or be ordained (负债的人能不能受戒, 是不是要先还清才能受): the
# Vinaya's own question of its 遮難, however much of the asker's own life (贷款, 抑郁症, 父母反对)
# the question tells
# (leave is asked by 能不能 / 可以 / 才能, or by a bare 能 that ends the question — 「欠钱的人能剃度受戒
# 吗」; 「这吉兆是不是说我今年能顺利受大戒，是这样吗」 asks an outcome)
_ORDAINED = r"(?:出家|受戒|受具|剃度|受大戒|受比丘尼?戒|受沙弥尼?戒|得戒|登坛)"
_ORDINATION_ASKED = re.compile(rf"(?:能不能|能否|可不可以|可以|可否|才能|还能|不能|不可以|不得)[^，。？！]{{0,4}}{_ORDAINED}"
                               rf"|能[^，。？！]{{0,4}}{_ORDAINED}(?:吗|么|呢|？|\?)"
                               r"|才能受(?:吗|么|？|\?|$)")


# (能不能顺利受戒, 能否如愿出家: whether it will go well, an outcome asked of an omen or a coin)
_OUTCOME = re.compile(r"顺利|成功|如愿")


def _asks_ordination(q: str) -> bool:
    """Does a (simplified) text ask whether someone may go forth or be ordained (not how it will go)?"""
    return any(not _OUTCOME.search(m.group(0)) for m in _ORDINATION_ASKED.finditer(q)) \
        and bool(_asking_sentences(q))


def _leave_of_monastic_asker(q: str) -> bool:
    """Does a (simplified) text ask leave for the asker's own act, the asker introducing himself
    as a monastic (bridge.SELF_INTRO: 我是…沙弥, 末学是比丘尼)?"""
    from .bridge import SELF_INTRO
    return bool(_OWN_LEAVE.search(q)) and any(re.search(_MONASTIC, m.group(0)) for m in SELF_INTRO.finditer(q))


# 「出家师父吃饭是不是要饭和菜汤搭配着吃？」: what a monastic must or must not do is the Vinaya's
# question too; the classifier alone, reading everyday words of food or the body, may not turn it away
_MONASTIC_DUTY = re.compile(rf"(?:出家师父|出家众|{_MONASTIC})[^，。？！]{{0,8}}"
                            r"(?:是不是要|是不是得|要不要|需不需要|必须|应该|应当|该不该|是否要|是否需要|不能|不得|不许|不准)")


# (… and where or what pays best: 「开在哪里比较赚」「做什么最挣钱」)
_RECOMMENDATION = re.compile(r"(?:哪|什么)[^，。？！]{0,4}(?:比较好|更好|最好|好|划算|合适|靠谱|赚|挣钱|来钱)")


def _has_vinaya_word(q: str) -> bool:
    """Does a (simplified) text hold a word of the Vinaya, once the modern words that only
    contain one are blanked?  法律上 is not 律上, 纪律 not 律."""
    q = _not_vinaya().sub("　", q)
    return any(w in q for w in _vinaya_words()) or bool(_OFFENCE_REPAID.search(q))


def _vinaya_framed(text: str) -> bool:
    return _has_vinaya_word(simplify(text))


@functools.lru_cache(maxsize=1)
def _advice_words() -> tuple[str, ...]:
    return tuple(simplify(w) for w in _data()["advice_words"])


def _asks_advice(q: str) -> bool:
    """Does a (simplified) text hold a word of the asker's own situation or a request for advice
    (我妈, 帮我, 怎么办, 要不要 …: rules.json advice_words)?"""
    return any(w in q for w in _advice_words())


# 帮我 / 给我 said to the reader opens a clause or follows a word of asking (请帮我, 能不能给我,
# 您帮我); after anyone else's words it tells what someone did for the asker (护士要帮我打针擦身,
# 居士给我送了药): the story, not a request
_FOR_ME = re.compile(r"[帮给]我")
_ASKING_BEFORE = set("，。？！、；：,.?!;: 请烦以能否你您求忙驾")


def _asked_for_me(q: str) -> bool:
    return any(m.start() == 0 or q[m.start() - 1] in _ASKING_BEFORE for m in _FOR_ME.finditer(q))


def _requests_advice(q: str) -> bool:
    """Does a (simplified) text ask for advice (怎么办, 帮我, 哪种), beyond telling of the asker's
    own situation (我, 我妈: the advice words that open with 我)?  「我胃不好，我吃了是不是犯了戒？」
    tells of the asker and asks the Vinaya; 「我胃疼该吃哪种药」 asks advice."""
    return any(w in q for w in _advice_words() if not w.startswith("我") and not _FOR_ME.fullmatch(w)) \
        or _asked_for_me(q)


# -- the classifier ----------------------------------------------------------------------

def features(text: str) -> list[str]:
    """Character 1-, 2- and 3-grams of the simplified text (punctuation breaks them)."""
    s = simplify(text.lower())
    out = []
    runs = re.split(r"[^\w]+", s)
    for run in runs:
        run = "".join(c for c in run if is_word_char(c))
        for n in (1, 2, 3):
            out += [run[i:i + n] for i in range(len(run) - n + 1)]
    return out


class NaiveBayes:
    """Multinomial naive Bayes with additive smoothing and equal class priors (the labelled set
    is not a sample of what readers ask; the prior is not learned from it).

    Add-one smoothing stays: five-fold cross-validation inside the training questions found
    add-0.5 catching more refusals (288 against 273 of 327 held out, none wrongly refused of
    206 near-misses), but on the test half it wrongly refused one near-miss of 49 while
    catching six more of 84; most real questions are answerable, and a wrong refusal costs
    the reader the whole answer where a missed one still shows only verified quotations."""

    ALPHA = 1.0

    def __init__(self, examples: list[tuple[str, str]]):
        self.counts: dict[str, Counter] = defaultdict(Counter)
        for text, label in examples:
            self.counts[label].update(features(text))
        self.labels = sorted(self.counts)
        self.totals = {c: sum(v.values()) for c, v in self.counts.items()}
        self.vocab = len({f for v in self.counts.values() for f in v})

    def posterior(self, text: str) -> dict[str, float]:
        feats = features(text)
        logp = {}
        for c in self.labels:
            cnt, denom = self.counts[c], self.totals[c] + self.ALPHA * self.vocab
            logp[c] = sum(math.log((cnt.get(f, 0) + self.ALPHA) / denom) for f in feats)
        top = max(logp.values())
        exp = {c: math.exp(v - top) for c, v in logp.items()}
        z = sum(exp.values())
        return {c: v / z for c, v in exp.items()}


def training_examples(extra_answers: list[str] = ()) -> list[tuple[str, str]]:
    """The tune half of the labelled set: refusals by kind; near-misses, silent topics and
    in-scope speech as 'answer'.  Scope-note questions hold both kinds and teach neither."""
    out = []
    lines = []
    for path in sorted(resource_path("scope").glob("labelled-*.jsonl")):
        lines += path.read_text(encoding="utf-8").splitlines()
    for line in lines:
        if not line.strip():
            continue
        row = json.loads(line)
        if row["label"] == "refuse":
            out.append((row["question"], row["kind"]))
        elif row["label"] in ("answer", "silent"):
            out.append((row["question"], "answer"))
    out += [(t, "answer") for t in extra_answers]
    return out


# -- patterns no classifier should have to learn ----------------------------------------------

_PLACE = re.compile(r"([\u4e00-\u9fff]{2})(?:寺|庵|禅院|精舍|佛学院|道场)")
_PERSON = re.compile(r"([\u4e00-\u9fff]{2})(?:法师|和尚|长老|住持|方丈|禅师|老和尚|大师)")
# Characters that do not begin a proper name: 「在寺里」「这座寺」 are not names, 「灵隐寺」 is.
_NOT_NAME = set("在到去回进出住的个座所家院里本某这那此该各全一每别他她我你们小新老于从向离来是有和与及"
                "或了着过把被给让对为以可能会要想都也还就只才又再很太最更几多些附近各位寺庙间律戒"
                "请托求叫找帮替跟问送拜陪拿偷借占卖买捐搬用")   # 「居士请寺里的师父」「拿寺院的钱」: a verb before 寺 is no name


def names_someone(question: str) -> bool:
    """Does the question name a particular temple or person (灵隐寺, 某某法师)?"""
    q = simplify(question)
    for rx in (_PLACE, _PERSON):
        for m in rx.finditer(q):
            if not (set(m.group(1)) & _NOT_NAME):
                return True
    return False


def _starred(pattern: str) -> str:
    """A rules.json pattern as a regular expression: '*' stands for up to six characters."""
    return ".{0,6}".join(re.escape(simplify(p)) for p in pattern.split("*"))


@functools.lru_cache(maxsize=1)
def _patterns() -> dict[str, list[re.Pattern]]:
    return {kind: [re.compile(_starred(pat), re.IGNORECASE) for pat in info.get("patterns", [])]
            for kind, info in _data()["kinds"].items()}


@functools.lru_cache(maxsize=1)
def _made_text() -> dict[str, re.Pattern]:
    m = _data()["made_text"]
    make, alter, text = _alternation(m["make"]), _alternation(m["alter"]), _alternation(m["text"])
    whole = _alternation([w for w in m["make"] if any(t in w for t in m["text"])])   # 补一句, 整一段
    request = _alternation(_REQUEST)
    named = _alternation(_data()["taught"]["masters"] + _data()["masters"])
    # passed off as what: 当作《戒本疏》的原文, 说是…原话
    passed_as = f"(?:{_alternation(m['passing_as'])})[^。？！?!]{{0,10}}(?:{_alternation(m['passing_what'])})"
    # made to look like the canon's (帮我写一句看起来像四分律原文的话); looking like it alone describes a
    # text found (网上有句话看起来像律文，请查出处)
    looks = f"(?:{make}|{alter})(?![了过])[^。？！?!]{{0,40}}(?:{_alternation(m['appearance'])})"
    # written in a master's or a work's manner (用资持记的文风替他写一段, 仿道宣的口吻): made in his name;
    # a text found that only sounds like it (看起来像四分律的口气) is asked to be checked
    manner = (f"(?:{_alternation(m['manner_by'])})(?:{named}|{_alternation(_vinaya_words())})"
              f"[^。？！?!，,]{{0,4}}(?:{_alternation(m['manner'])})")
    # 「元照律师还写了哪些著作」: a text already made (写了, 编过) is told of, not asked for
    return {"made": re.compile(f"(?:{make}|{alter})(?![了过])[^。？！?!]{{0,14}}(?:{text})"
                               f"|(?:{text})[^。？！?!]{{0,10}}(?:{alter})|{whole}"),
            "passed_as": re.compile(passed_as),
            "asked_any": re.compile(f"{request}|把"),
            "asked": re.compile(f"(?:{request})[^。？！?!，,]{{0,6}}(?:{alter})"
                                # 「请把行事钞里讲非时食的那段改一下」: 请 opening a 把 clause asks the reader
                                f"|(?:{request}|(?<!\\w)请)把[^。？！?!]{{0,20}}(?:{alter})"),
            # 「您要是也找不到，就照着…来一句」: made when the real text is not found; 「造一句元照律师
            # 的话」: made in a master's name
            "passing": re.compile(f"{_alternation(m['passing'])}|{passed_as}|{looks}|{manner}"
                                  f"|(?:{_alternation(m['if_not_found'])})[^。？！?!]{{0,4}}?就"
                                  f"|(?:{make})(?:[一两几三四五六七八九十数]?[句段条则篇])?(?:{named})[^。？！?!]{{0,4}}的(?:话|原话|语录|教言)"),
            "deceit": re.compile(f"{_alternation(m['deceit'])}|{_unchecked(m)}|{looks}"),
            **{key: re.compile(_alternation(m[key])) for key in ("canon", "plain", "seeking")}}


def _unchecked(m: dict) -> str:
    """Saying that nobody will check the text, or that it need not be checked (「不必一条条去核对」
    「没人会去翻原书」), as structure: a quotation asked for on those terms is asked to be made."""
    check = _alternation(m["unchecked_check"])
    between = "(?:会|能|要|去|真|再|还|都|也|一条条|逐条|一一|一个个|一句句|有空|有闲心)*"
    return (f"(?:{_alternation(m['unchecked_who'])}){between}(?:{check})"
            f"|(?:{_alternation(m['unchecked_skip'])}){between}(?:{check})")


def _seeks_text(q: str) -> bool:
    """Asking for the real text — to find it, check it, explain it in plain words — and nothing
    passed off as the canon's: the app's own work, whatever the classifier guesses."""
    rx = _made_text()
    if rx["passing"].search(q) and not _checks_a_text_passed_by_others(q):
        return False
    explains = bool(rx["plain"].search(q)) or "解释" in q      # 「帮我写一段白话解释」 makes an explanation
    return explains or (bool(rx["seeking"].search(q)) and not rx["made"].search(q))


@functools.lru_cache(maxsize=1)
def _disowning() -> re.Pattern:
    m = _data()["made_text"]
    return re.compile(f"(?:不会|绝不|决不|并不|不是|不想|不敢|无意|不|没有|不能)(?:要|去|拿来|用来|用它)?"
                      f"(?:{_alternation(m['passing'] + m['passing_as'] + m['appearance'])})")


# 「我不想自己瞎编，能不能把原文引给我？」「不确定就说不确定，千万别编」: a making the asker forbids
# asks for the real text, the app's own work
_MAKING_FORBIDDEN = re.compile(r"(?:千万别|千万不要|别|不要|不想|切勿|勿|不可|不许|不准|不用|莫)"
                               r"(?:自己|给我|帮我)?(?:瞎|乱|随便|胡乱)?(?:编造|编|捏造|杜撰|造假|凑)(?![错得的])")


def _forbids_making(q: str) -> bool:
    """Does a (simplified) question forbid the app to make a text up, and mean no deceit?"""
    return bool(_MAKING_FORBIDDEN.search(q)) and not _made_text()["deceit"].search(q)


def _unforbidden(q: str) -> str:
    """A (simplified) text with the making it forbids blanked."""
    return _MAKING_FORBIDDEN.sub("，", q)


def _read(text: str) -> str:
    """A text as the gate's patterns read it: simplified, a making the asker forbids blanked."""
    return _unforbidden(simplify(text))


def _disowned(q: str) -> str:
    """A (simplified) text with the passing-off it disowns blanked: 「会清楚标明是今人仿作，
    不冒充原文」 says the imitation will not be passed off as the canon."""
    return _disowning().sub("，", q)


# a text passed off by others (网上有人贴一段说是「四分律卷八」的律文) is a text found: asked to be checked
# (核对, 出处在哪), it is the app's own work, unless the app is asked to make or alter one itself
_TOLD_PASSING = re.compile(r"(?:有人|别人|人家|网上|网络上|网路上|群里|书上|文章|帖子|某)[^。？！]{0,12}?"
                           r"(?:说是|当作|当成|号称|声称|自称)")
# … and so is a text the asker suspects later hands made (「我怀疑是后来律师们归纳编出来的，求个出处」):
# whether it is the canon's is asked, nothing is to be made
_SUSPECTED_MADE = re.compile(r"(?:怀疑|疑心|恐怕|会不会|是不是|可能)[^。？！]{0,4}?"
                             r"(?:后人|后世|后来|古人|别人|有人|他们|[^。？！]{1,4}们)"
                             r"[^。？！]{0,8}?(?:编|造|杜撰|伪造|捏造|假托)")


def _checks_a_text_passed_by_others(q: str) -> bool:
    """Does a (simplified) text ask to check a text others passed off, asking the app to make none?"""
    rx = _made_text()
    passed = _TOLD_PASSING.search(q) or _SUSPECTED_MADE.search(q)
    return bool(passed) and bool(rx["seeking"].search(q)) and not rx["asked"].search(q) \
        and not rx["deceit"].search(q)


def _makes_text(q: str) -> bool:
    """A text made up or altered and passed off as the canon's, or a text of the canon the app is
    asked to alter: 「替我造几句规矩……说是古德遗训」, 「把那段换个说法……再当原文贴到群里」,
    「你把长衣那条的过十日改成过一个月」; 「你能帮我写一段白话解释吗」 passes nothing off.
    Words: rules.json 'made_text' (look-alikes such as 编号 blanked out first, as for the invent
    kind's domain words)."""
    q = _disowned(_without_lookalikes("invent", q))
    if _checks_a_text_passed_by_others(q):
        return False
    rx = _made_text()
    if rx["passed_as"].search(q) and rx["asked_any"].search(_untold(q)):
        return True               # 「把我这段话……当作《行事钞》的原文贴出去」: the asker's own text
    if not rx["made"].search(q):
        return False
    if rx["passing"].search(q):
        return True
    return bool(rx["asked"].search(q)) and bool(rx["canon"].search(q)) and not rx["plain"].search(q)


# 「比丘为了劝人持戒，自己编个故事说是佛陀的本生，算不算妄语？」: a text someone else made, and
# whether making it is an offence (妄語, 兩舌 …), is the texts' question on that monk's act; the
# app is asked to make nothing (「你帮我编一段…算不算犯戒」 still asks it to: _requests)
_MADE_BY_ANOTHER = re.compile(rf"(?:{_MONASTIC}|他|她|有人|有位|某)[^。？！]{{0,16}}"
                              r"(?:编|造|捏造|杜撰|假托|伪造|改)")
# whether an act is an offence of speech (算不算妄语) — beside _OFFENCE_ASKED's 算不算犯/破
_TELLING_OFFENCE = re.compile(r"(?:算不算|算是|是不是|是否|会不会|犯不犯|犯了?|属于)[^，。？！]{0,2}"
                              r"(?:犯|破|大?妄语|两舌|恶口|绮语|诳)|妄语(?:吗|么|罪|戒)")


def _made_by_another(q: str) -> bool:
    return bool(_MADE_BY_ANOTHER.search(q)) and bool(_TELLING_OFFENCE.search(q)) and not _requests(q)


# an offence named: the 報 of an offence (墮地獄…) is the texts' own subject (篇聚名報篇)
_OFFENCE_NAMED = re.compile(r"犯|罪|破戒|破了|波罗夷|僧残|波逸提|提舍尼|突吉罗|偷兰遮|根本戒|篇聚")
# the classes of offence by name (what the texts rank and repay), and their 篇聚
_CLASSES = "波罗夷|僧残|波逸提|提舍尼|突吉罗|偷兰遮|舍堕"
_CLASS_NAMED = re.compile(f"{_CLASSES}|篇聚|五篇|七聚")


@functools.lru_cache(maxsize=1)
def _fruit() -> re.Pattern:
    pats = _data()["kinds"]["doctrine"].get("fruit", [])
    return re.compile("|".join(_starred(pat) for pat in pats) or "(?!)")


def _fruit_asked(q: str) -> bool:
    """「他们死后到底去了哪里？」「我做的这件事将来会有什么样的果报？」「回向的功德分出去以后自己还剩
    多少？」: where someone goes after death, what an act brings in a later life, how merit is
    shared — asked with no offence named (「比丘犯了波罗夷，死后会有什么样的果报？」 asks the
    texts)."""
    return bool(_fruit().search(q)) and not _OFFENCE_NAMED.search(q)


# whether an act breaks a precept or falls in an offence class (犯法, 犯罪, 犯小人 are not the Vinaya's)
_PRECEPT_ASKED = re.compile(f"[犯破][了过]?[^，。？！]{{0,4}}(?:戒|{_CLASSES})")
# whether an act is one of the grave offences named as an act, asked (算不算偷盗, 是不是杀生, 属于妄语吗;
# 「受寄物不还算盗」 only says it): where the Vinaya is named, the question of its 盜 / 殺 / 婬 / 妄語
# rule (盗窃 is the law's word)
# (邪命, a monastic's wrong livelihood — telling fortunes, reading omens — is asked of the act the same way:
# 「出家人只是免费帮人看风水，也算邪命吗」)
_GRAVE_ACTS = r"(?:偷盗|盗(?!窃)|杀生|杀人|邪?淫|大?妄语|邪命)"
_ACT_NAMED = re.compile(rf"(?:算不算|是不是|属不属于|是否)[^，。？！]{{0,2}}{_GRAVE_ACTS}"
                        rf"|(?:算|属于|算是){_GRAVE_ACTS}[^，。？！]{{0,2}}(?:吗|么|呢)")
# a case put to the question before it: 如果 / 要是 / 万一 / 假如 … 呢
_CASE_OPENS = r"(?:另外|那|还有)?"
_CASE_WORDS = r"(?:如果|要是|万一|假如|假使|若是)"
_CASE_PUT = re.compile(_CASE_OPENS + _CASE_WORDS)
# a part that only puts a case, asking of it with 呢 alone: 「另外，如果是身体不好的老人家呢？」
_CASE_ONLY = re.compile(rf"[\s，,、]*{_CASE_OPENS}[\s，,、]*{_CASE_WORDS}[^？?！!。]*呢[？?]?\s*$")
_ASKS_ON = re.compile(r"还是|哪|怎|什么|多少|几|吗|么")


def _only_puts_a_case(q: str) -> bool:
    """Does a (simplified) part only put a case (如果…呢), asking nothing else and no advice?"""
    return bool(_CASE_ONLY.match(q)) and not _ASKS_ON.search(q) and not _requests_advice(q)


def _asks_grave_act(s: str, q: str | None = None) -> bool:
    """Does a (simplified) sentence ask whether an act is theft, killing, a lie …, the Vinaya named
    in it or in the text ``q`` around it?"""
    return bool(_ACT_NAMED.search(s)) and _has_vinaya_word(q or s)


def _asks_only_precept(q: str) -> bool:
    """Does a (simplified) text ask nothing but whether an act breaks a precept, however much of the
    asker's own life or of what someone did it tells (我胃不好, 我妈住院, 群里一位法师常说自己开悟)?
    Every question in it must ask so (a case put after it — 「如果他是真心以为…呢？」 — is the same
    question), no advice be asked (哪种药, 怎么办), and no unseen thing be what is asked (果报,
    业障, 运势: the doctrine's and divination's words, which a precept named does not make the
    texts' question; the story may tell of them: claiming them is 大妄語).  Where the Vinaya is
    named, whether an act is theft, killing or a lie (「按戒律算不算偷盗？」) asks so too."""
    asking = [s for s in _asking_sentences(q) if not _CASE_PUT.match(s)]
    return bool(asking) and all((_OFFENCE_ASKED.search(s) and _PRECEPT_ASKED.search(s)) or _asks_grave_act(s, q)
                                for s in asking) \
        and not _requests_advice(q) and not _fruit().search(q) \
        and not any(_lex_hits(k, s) for k in ("doctrine", "divination") for s in asking)


def pattern_kind(text: str) -> str | None:
    q = _read(text)
    # neither the structure nor the invent patterns apply to a text someone else made, nor to
    # one others pass off that the asker wants checked
    another = _made_by_another(q) or _checks_a_text_passed_by_others(q)
    if not another and _makes_text(q):
        return "invent"
    if _fruit_asked(q):
        return "doctrine"
    for kind, pats in _patterns().items():
        if any(p.search(q) for p in pats):
            if kind == "judge" and (not (names_someone(text) or _identifies(q)) or _asks_teaching_only(q)):
                continue
            if kind == "invent" and another:
                continue
            return kind
    return None


@functools.lru_cache(maxsize=1)
def _teaching() -> re.Pattern:
    t = _data()["taught"]
    who = _alternation(t["masters"] + _data()["pointers"]["roles"])
    return re.compile(f"(?:{who})[^，。？！]{{0,3}}(?:{_teaching_verb().pattern})")


@functools.lru_cache(maxsize=1)
def _teaching_verb() -> re.Pattern:
    """A verb of teaching (讲过, 开示, 《 …: rules.json taught.verbs)."""
    return re.compile(_alternation(_data()["taught"]["verbs"]))


def _asks_teaching(q: str) -> bool:
    """Does the (simplified) question ask what a master taught (弘一大师讲过……他是怎么论证的)?
    The Vinaya's masters' teaching is in scope; only their own conduct is not to be judged."""
    return bool(_teaching().search(q))


def _asks_teaching_only(q: str) -> bool:
    """A master's teaching asked about, and no verdict asked of the master himself in a clause
    that points back at him: 「我师父开示时说他已经开悟了，他这是真开悟还是犯了大妄语？」 reports
    a teaching only to ask a verdict on the teacher."""
    if not _asks_teaching(q):
        return False
    # (a clause that points back with a verb of teaching asks of the teaching: 「他有没有讲过…」)
    return not any(_anaphor().match(c) and _verdict().search(c) and not _teaching_verb().search(c)
                   for c in _clauses(q))


def _content(text: str) -> int:
    return sum(1 for c in text if is_word_char(c))


def _clauses(text: str) -> list[str]:
    """A text cut at its commas and stops, each clause without the spaces before it."""
    return [c.lstrip(" 、") for c in re.split(r"[，,。？！?!；;]", text)]


@functools.lru_cache(maxsize=1)
def _new_question() -> re.Pattern:
    return re.compile(_alternation(_data()["new_question"]))


@functools.lru_cache(maxsize=1)
def _masters() -> re.Pattern:
    return re.compile(_alternation(_data()["masters"]))


def _judges_a_master(q: str) -> bool:
    """「济公那样喝酒吃肉，他本人到底是犯了戒还是境界高？你下个判断。」: a well-known master named
    and a verdict asked anywhere in the question, not what he taught.  The Vinaya's own masters
    (道宣, 元照 …) are the app's subject: only a verdict on the master himself (「单就道宣本人来说，
    写这些算不算犯了大妄语？」) judges him."""
    if _masters().search(q) and _verdict_on_someone(q) and not _asks_teaching(q):
        return True
    return bool(_master_himself().search(q)) and _verdict_on_someone(q) and not _asks_teaching_only(q)


@functools.lru_cache(maxsize=1)
def _master_himself() -> re.Pattern:
    names = [m for m in _data()["taught"]["masters"] if m not in ("大师", "律师", "祖师")]
    # 「道宣律师自己说……这是不是他本人打了大妄语？」: the master named, then pointed back to as a person
    return re.compile(f"(?:{_alternation(names)})(?:律师|大师|律祖|祖师|法师)?"
                      f"(?:本人|自己本身|[^。？！?!]{{0,40}}?(?:他本人|她本人|这个人本身))")


def _identifies(q: str) -> bool:
    """「我们寺的当家」「隔壁庙里的师父」「那位法师」: a person the asker can point to."""
    return bool(re.search(_data()["identifies"], q) or _pointer().search(q))


@functools.lru_cache(maxsize=1)
def _pointer() -> re.Pattern:
    """The ways a question points at someone without naming them, as structure: a demonstrative
    (那位/这个 …), a relative (我舅舅…出家) or a post (抖音上那个…) followed within a few
    characters by a role, an order or a community; an indefinite (有位/有个 …) only by a role or
    a community (有位法师; 「有个比丘教人杀生，他算不算犯」 is the texts' own 「若比丘…」, a
    case, not a person); a possessive only by a role (我们寺的当家,
    我皈依的那位老和尚 — not 我们比丘尼, not 我们小庙的比丘尼: the asker's own community asking
    about its own practice is the Vinaya's question).  Words: rules.json 'pointers'."""
    p = _data()["pointers"]
    role = _alternation(p["roles"])
    who = f"(?:{role}|{_alternation(p['orders'])}|{_alternation(p['communities'])})"
    own = "(?:比丘|出家|僧|沙弥|尼众|尼师们|修行人|佛教徒|居士)"
    return re.compile(
        f"(?:那位|这位|那个|这个|那间|这间|那座|这座|那家|那边|对面)[^，。？！]{{0,12}}{who}"
        f"|(?<!如果)(?<!假如)(?<!要是)(?:某位|某个|有位|有个|有一位|有一个)[^，。？！]{{0,8}}"
        f"(?:{role}|{_alternation(p['communities'])})"
        f"|(?:我们|咱们|我的|我家|我)(?!{own})[^，。？！]{{0,6}}(?:{role})"
        # (the asker's own monastery told by a relative clause, a role in it: 我出家的寺院里，监院…)
        f"|我(?:出家|所在|常住|住|挂单|常去)的(?:{_alternation(p['communities'])})[^。？！]{{0,10}}(?:{role})"
        f"|我的?(?:{_alternation(p['kin'])})[^，。？！]{{0,12}}(?:出家|{who})"
        f"|(?:{_alternation(p['media'])})[^，。？！]{{0,12}}{who}"
        # (one who calls himself a monk, a master, a 活佛: a particular person, whatever he claims)
        f"|自称[^，。？！]{{0,6}}(?:{who}|{_alternation(p['claimed'])})"
        # (the asker's own teacher told as a disciple: 弟子皈依的师父, 末学依止的老和尚)
        f"|(?:{_alternation(p['disciples'])})[^，。？！]{{0,4}}的[^，。？！]{{0,4}}(?:{role})")


@functools.lru_cache(maxsize=1)
def _anaphor() -> re.Pattern:
    """A clause opening by pointing back at a person or community: 他, 这位 …, or a role or a
    community after 这样的 / 这样一个 (「这样一个道场，还能不能算如法的僧团？」)."""
    p = _data()["pointers"]
    such = f"(?:这样|这种|那样|那种)(?:一个|一位|一座|一所|的)(?:{_alternation(p['roles'] + p['communities'])})"
    return re.compile(f"^(?:{_alternation(p['anaphors'])}|{such})")


def _verdict_pointed_back(parts) -> bool:
    """A verdict asked in a part that points back (他…, 这位…) at someone an earlier part points
    at or names: 「蕅益大师自己退为菩萨沙弥，他这样做到底对不对？你评一评。」 splits into two
    parts, one naming the master and one asking the verdict of him.  Only an anaphor at the
    clause's opening carries the person over; a verdict word anywhere after a pointer does not
    (「我们寺的师父说……。这样算不算犯戒」 asks about a practice), nor does a role named again
    (「…请法师判定监院师父…」 counted so wrongly refused a held-out answerable question: roles
    such as 师父 are everywhere in real questions)."""
    pointed = False
    for part in parts:
        # clauses too: 「我们住持开示说自己开悟了，他这是真的开悟还是犯了大妄语？」 is one part;
        # only a sentence that asks asks a verdict (「…他一直说自己没犯。」 tells what he said)
        for sentence in _sentences(part.text):
            asking = _is_asking(simplify(sentence))
            back = False          # the sentence opened by pointing back (「这样一个道场，你看还能不能算…」)
            for k, clause in enumerate(_clauses(sentence)):
                q = simplify(clause)
                back = back or (k == 0 and bool(_anaphor().match(_opening(q))))
                # (「他这人怎么样我不评论，只想弄明白：律里…」 disclaims the verdict it points at)
                if (asking and pointed and (back or _anaphor().match(_opening(q))) and _verdict_in(q)
                        and not _DISCLAIMS.search(q)):
                    return True
                pointed = pointed or names_someone(clause) or _identifies(q)
    return False


@functools.lru_cache(maxsize=1)
def _verdict() -> re.Pattern:
    """The words of a verdict asked (是不是破戒, 评断, 给个结论 …): rules.json 'verdict'."""
    return re.compile(_data()["verdict"])


# 「我不是要评论当家师，只想知道律本身」: a verdict disclaimed is no verdict asked
_DISCLAIMS = re.compile(r"(?:不是|并不是|并非|无意|不想|不敢|不愿|不为|不去|不必|不予|不作|不做|(?<![是算判评])不)"
                        r"(?:要|想|去|妄加|随便|轻易|在)?"
                        r"[^，。？！；]{0,2}?(?:评|判|论断|断定|议论|批评|说三道四|定罪)")


def _undisclaimed(text: str) -> str:
    """The text's clauses without those that disclaim a verdict, joined by commas."""
    return "，".join(c for c in _clauses(text) if not _DISCLAIMS.search(c))


# the reader addressed before a clause's subject: 「您说他…」 as 「你觉得他…」, but 「您说的那条戒」 and
# 「你说过…」 speak of what the reader said
_ADDRESSEE = re.compile(r"(?:请问?|恳请|烦请|劳烦|拜托)(?:各位)?(?:法师|师父)|(?:法师|师父)(?:您|你)|(?:您|你)(?:觉得|认为|说说|说(?![的过了])|看)")
# A sentence that tells a story and then asks about monastics as a class or about the rules:
# 「我是县医院的护士，经常有出家师父来住院，想请问一下师父们生病的时候过了中午能不能吃东西？」
_CLASS_SUBJECT = re.compile(r"出家人|出家师父|出家众|出家男众|出家女众|和尚|僧人|僧尼|僧众|僧团|比丘|沙弥|尼姑|尼众|"
                            r"师父们|法师们|佛门|寺院里?的?规矩|戒律|律中|律里|四分律|戒条")
# … unless its question points back at someone or asks advice for the asker
_TAIL_POINTS = re.compile(r"[他她]|这位|那位|此人|我该|我要不要|我应该|怎么办|帮我|给我|替我|你说|你看|您看")
_CLAUSE_CUT = re.compile(r"[，,：:；;]")
_PLANS = re.compile(r"我(?:想|打算|准备)(?!知道|问|请问|请教|了解)")
_ANNOUNCED = re.compile(r"^(?:我|弟子|末学)?(?:想|很)?(?:请问|请教|问问?|知道|了解|好奇)(?:一下)?")


def _question_clause(text: str) -> int:
    """Where the question proper begins in one sentence that tells a story first: the last
    clause naming monastics as a class or the rules from which the question asks something of
    its own (not only 「佛门里有讲究吗」 about the asker's own matter told before it).

    The story's words (医院, 律师, 银行, 风水, 轮回) are its occasion, not what is asked: read
    whole, such sentences were refused by the classifier or by a domain word (blind gate set
    tune19: 17 of 42 answerable ones).  0 — the sentence read whole — when the question points
    back at someone or asks the asker's own advice (「…你说他是不是个假和尚？」「…我该怎么办？」),
    or when the story asks the app for something (「想请你虚构一段…，讨论出家人能不能上网」) or
    is the asker's own plan (「我想把宅基地转给堂哥，出家人还能不能继承？」)."""
    from .bridge import asks
    q = simplify(text)
    cuts = [m.end() for m in _CLAUSE_CUT.finditer(q)]
    for c, nxt in reversed(list(zip(cuts, cuts[1:] + [len(q)]))):
        clause, tail, story = q[c:nxt], q[c:], q[:c]
        # from a clause that names the class, the question must ask something of its own:
        # 「…哪天比较好，佛门里有讲究吗？」 only asks the rules about the asker's own matter
        if not _CLASS_SUBJECT.search(clause) or not _stands_alone(tail):
            continue
        if not asks(tail) or _TAIL_POINTS.search(tail) \
                or _pointer().search(_ANNOUNCED.sub("", tail)) or _requests(story) or _OWN_PLAN.search(story) \
                or _PLANS.search(story) or not any(is_word_char(ch) for ch in story):
            return 0
        return c
    return 0


def _stands_alone(clause: str) -> bool:
    """A question with content of its own beyond the class it asks of (「出家人离开自己的衣有什么
    规定」), not one that only asks the rules about what was told before (「律里有没有限制」)."""
    return _content(_CLASS_SUBJECT.sub("", simplify(clause))) > FOLLOW_UP


# 「比丘尼跟男居士用LINE私聊，算不算违反…的规定？」: a question clause that opens with the verdict and
# no subject of its own (算不算, 违不违反 …) asks it of the act just told, thing and all
_JUDGES_THE_CASE = re.compile(r"\W*(?:这样|那)?(?:算不算|算是|算|犯不犯|犯了|违不违反|违反|违不违背|违背|合不合|"
                              r"如不如法|属不属于|属于)")


def _asked_of(sentence: str, clause_at: int) -> str:
    """Where a thing the texts never mention is asked of: the question clause alone when its last
    clause stands on its own (「坐高铁…，比丘尼受的戒为什么比比丘多」: the train is the occasion),
    else the whole sentence with its story (「夏天斋堂开空调，比丘自己去开关，律里有没有说法？」 asks
    of the air conditioner)."""
    from .bridge import points_back
    clause = sentence[clause_at:]
    if clause_at and _stands_alone(_CLAUSE_CUT.split(clause)[-1]) and not points_back(clause) \
            and not _JUDGES_THE_CASE.match(clause):
        return clause
    return sentence


_PRACTICE = re.compile(r"^(?:那)?(?:这样|这么做|这种做法|这种情况|这种事|如此|那样)")
# 「我这样是不是已经犯了盗戒？」「我吃了是不是犯了戒？」: the asker asks of their own act, whoever the
# story points at (the 师父 who asked them to fetch his money) — the texts' question, as 这样… is
_SELF_ACT = re.compile(r"^(?:我|弟子|末学|学人)(?:自己|本人)?(?!们|的|家)")
_OWN_OFFENCE = re.compile(r"犯|破戒|如法|罪")      # (_OFFENCE_ASKED misses 「我这样如法吗」)
_THIRD_PERSON = re.compile(r"[他她]")


def _asks_of_own_act(clause: str) -> bool:
    """A verdict clause the asker opens with themselves, asking whether their act is an offence,
    and in which nobody else stands (「我是不是可以认定他不是好比丘」 still judges him; 「我是不是该
    换个道场」 asks whether to leave the person judged before)."""
    return bool(_SELF_ACT.match(_opening(clause))) and bool(_OWN_OFFENCE.search(clause)) \
        and not _pointer().search(clause) and not _THIRD_PERSON.search(clause)


# the asking words a clause may open with before its subject (「请问这样做有没有犯戒」 asks of the act)
_ASKS_OPENING = re.compile(r"^(?:我?想)?(?:请问|请教|问一下|问问|想问|问(?!题))(?:一下)?[，,：:\s]*")


# 「请问这位造谣的师父犯了什么罪？」: which offence an act told in the question is, is the texts'
# own question (若比丘…犯…) even when the act is someone's; only a verdict on the person (还算不算
# 比丘, 定个罪) or one asked of the reader outright (_verdict_requested: 你直接告诉我他犯了什么罪)
# is judging, and so is the offence insisted on (「他到底犯了什么？」).  So is whether the act told —
# pointed at as 这样 / 这么做 — is a named offence or allowed at all (「他这样算不算盗？」,
# 「他这样做有没有问题？」 after 「有位师父私下跟我说：你给我就好」): the act's question, not one on the
# person; 「他这是不是犯了恶口？」 without 这样 stays a verdict (by-file CV of resources/scope: the
# broader form lost a refusal)
_CLASSIFIES = re.compile(r"犯了?(?:什么|哪|何)|(?:什么|何|哪种|哪个)罪|哪一?条|有没有(?:过失|罪过)|有(?:过失|罪过)吗"
                         r"|(?:这样|这么)做?(?:(?:算不算|是不是|算是)犯?了?(?:偷盗|盗|偷|杀生|杀|淫|妄语|两舌|恶口)戒?"
                         r"|(?:有没有|有什么|有)问题)")
_INSISTS = re.compile(r"到底|究竟")


def _verdict_in(clause: str) -> bool:
    """Does a clause ask a verdict, beyond asking which offence an act is?"""
    return bool(_verdict().search(clause if _INSISTS.search(clause) else _CLASSIFIES.sub("，", clause)))


_HIMSELF = re.compile(r"[他她其]本人")


def _with_rest(clauses: list[str]) -> list[tuple[str, str]]:
    """Each clause of a sentence with the clauses after it."""
    return [(c, "".join(clauses[k + 1:])) for k, c in enumerate(clauses)]


def _case_told(clause: str, rest: str) -> bool:
    """A fault put as a case (如果 / 要是 / 假如 … 有不如法的地方) before the clause that asks of it in
    the same sentence: 「如果我真的看到某位上座法师平时有不如法的地方，新戒可以当众讲出来吗？」 asks whether
    the asker may speak (舉罪), the texts' question; the verdict the case puts is not asked.  A
    verdict in the asking clause after it (「…，你说他还算比丘吗？」) still is."""
    case, verdict = _CASE_PUT.search(clause), _verdict().search(clause)
    return bool(case and verdict and case.start() < verdict.start() and _content(rest) > 0)


def _verdict_on_someone(q: str) -> bool:
    """Is a verdict asked, and of a person?  「我们寺的师父说过午可以喝牛奶，这样算不算犯戒？」
    asks whether the practice (这样…) is an offence — the Vinaya's own question — unless that
    clause speaks of the person again (这样的师父…, 他这样…).  A verdict with no subject at all
    (「我们寺的当家天天打麻将，是不是破戒了」) is asked of the person pointed at."""
    q = _undisclaimed("。".join(_asking_sentences(q)))
    verdicts = [(c, rest) for s in _sentences(q) for c, rest in _with_rest(_clauses(s)) if _verdict_in(c)]
    if not verdicts:
        return _verdict_in(q)                 # a verdict phrase across a comma
    asked = [c for c, rest in verdicts if not _case_told(c, rest)]
    if not asked:
        return False
    if _HIMSELF.search(q):
        return True           # 「单论他本人，这样做对不对？」: the practice asked of is the person's own
    return any(not (_PRACTICE.match(_opening(c)) or _asks_of_own_act(c))
               or _anaphor().match(_opening(c)) or _names_the_person(c) for c in asked)


# the words that join a further question to the one before (「另外他们俩谁更有资格…」)
_CONNECTOR = re.compile(r"^(?:另外|还有|此外|而且|再者|再说|那么|再问一下|顺便问一?下|顺便问问|顺便)[，,、\s]*")


def _opening(clause: str) -> str:
    """A clause from its subject on: the connective, address and asking words before it dropped
    (「请问他…」 and 「另外他…」 point back at the person as 「他…」 does, 「请问这样做…」 asks of
    the act)."""
    text = _CONNECTOR.sub("", clause.lstrip(" ，,"))
    return _ASKS_OPENING.sub("", _ADDRESSEE.sub("", text).lstrip(" ，,"))


# what someone else is told to have said, to the end of a sentence that does not ask (「前阵子同住的
# 师父说律中只许用铁钵和瓦钵，不锈钢钵不如法。」): his verdict, reported, not one asked of the reader
# (直说 / 明说 / 实说 are the reader asked to speak plainly: 「请法师就我师父本人直说无妨。」).  Unlike
# bridge._REPORTED, which only sets aside the clause of the speech to tell whether a part asks, a
# verdict reported runs on past the comma (「…说律中只许用铁钵和瓦钵，不锈钢钵不如法。」)
_REPORTED_SPEECH = re.compile(r"(?<![你您我直明实坦])(?:说|讲|认为|觉得)(?![说明法戒过])[^。？！?!]*(?=[。！!])")
SHORT_DEMAND = 12          # characters of a sentence that only demands the verdict asked before it
# a case put of an indefinite monastic: 如果 / 假如 … (有)一位 / 某个 … 比丘, 一个比丘, 比丘若 …
_INDEFINITE = r"(?:一位|一个|一名|某位|某个|某)"
_CASE_OF_ANYONE = re.compile(rf"(?:{_CASE_WORDS}|假设|若)[^，。？！]{{0,3}}?有?{_INDEFINITE}?(?:{_MONASTIC})"
                             rf"|(?<!那)(?<!这){_INDEFINITE}(?:{_MONASTIC})|(?:{_MONASTIC})(?:{_CASE_WORDS}|若)")


def _verdict_requested(q: str) -> bool:
    """Is the reader asked outright for a verdict on a person — 「法师您看他到底算不算破戒」,
    「请法师判定监院师父是否已犯僧殘」, 「你评判一下，监院这样还算不算合格」: a sentence that asks,
    addressed to the reader, with a verdict and the person (a role, 本人, 他/她) in it, or the
    verdict asked in one sentence and demanded in a short next one (SHORT_DEMAND)."""
    # (他 after a case put of any monk — 「假如一位比丘生病了…，他喝了算不算犯戒？」 — is that case, the
    # texts' own 「若比丘…」, where the question points at no one)
    case_of_anyone = bool(_CASE_OF_ANYONE.search(q)) and not (names_someone(q) or _identifies(q))

    def of_someone(s: str) -> bool:
        s = _undisclaimed(_REPORTED_SPEECH.sub("。", s))
        return bool(_verdict().search(s)) and (_names_the_person(s)
                                               or bool(_THIRD_PERSON.search(s)) and not case_of_anyone)

    def addressed(s: str) -> bool:
        return bool(_ADDRESSEE.search(s)) or _requests(s)
    sentences = _sentences(q)
    asking = [s for s in sentences if _is_asking(s)]        # as _asking_sentences, read once
    if any(of_someone(s) and addressed(_undisclaimed(s)) for s in asking):
        return True
    # … or asked of the person in one sentence and demanded of the reader in a short next one:
    # 「他这样还算一个守戒的比丘吗？你直接下判断。」
    # (the demand need not ask: 「…你看他应不应该被僧团驱摈？我想听你的判断。」)
    return any(a in asking and of_someone(a) and addressed(b) and _content(b) <= SHORT_DEMAND
               for a, b in zip(sentences, sentences[1:]))


# a sentence opening with 请 pleads (「请就她本人给个评价。」); 恳请/烦请/麻烦 … are _REQUEST words
_PLEA = re.compile(r"\W*请")


# someone told the asker a rule (「师兄说这样不行，要先…才能吃」) and the question asks whether it is
# so (这是真的吗): the texts' own question, however the story around it reads
_TOLD_RULE = re.compile(r"(?:说|讲|告诉我|提醒)[^。？！?]{0,16}?(?:不行|不可以|不能|不许|不准|不如法|犯戒|犯了|"
                        r"要先|得先|必须|才能|才可以)")
_IS_IT_SO = re.compile(r"真的吗|是真的|有这回事|有这个规定|有这规矩|有这种规定|是这样吗|真是这样|对吗|对不对")


def _checks_a_told_rule(q: str) -> bool:
    m = _TOLD_RULE.search(q)
    return m is not None and _IS_IT_SO.search(q, m.end()) is not None


def _guessed(p: dict) -> bool:
    """A part whose kind the classifier only guessed: no word of the kind's domain, not sure."""
    return p["p"] < SURE_OUT and _lex_hits(p["kind"], simplify(p["text"])) == 0


def _sentences(text: str) -> list[str]:
    """A text cut after each stop, the stops kept."""
    return re.split(r"(?<=[。！？?!；;])", text)


# words in quotation marks are someone's speech or the texts' (「他随口说“你最近要注意身体”」):
# not the asker's request
_SPEECH = re.compile(r"“[^”]*”|「[^」]*」|‘[^’]*’|『[^』]*』")


def _is_asking(sentence: str) -> bool:
    """Does a (simplified) sentence ask or request something, in the asker's own words?"""
    from .bridge import asks
    own = _SPEECH.sub("…", sentence)
    return bool(own.strip()) and bool(asks(own) or _requests(own) or _PLEA.match(own))


# 「到底怎么处理才能好起来？」: how an illness told is cured (Gate._takes_storys_kind)
_CURE_ASKED = re.compile(r"(?:才能|才会|就能|就会|能不能|会不会)(?:好起来|好|痊愈|康复|恢复|退烧|消肿)(?![^，。？！]{0,2}[的些])"
                         r"|好起来|好得快|治得好|治好")
# 「我自己在家怎么处理比较好？」: the asker's own advice on the matter just told, its subject left out
_OWN_ADVICE = re.compile(r"\W*(?:我|弟子|末学)(?:自己)?[^，。？！]{0,8}?(?:怎么|如何|该)")
_OWN_PLAN = re.compile(r"我[^，。？！]{0,12}[，,]?[^，。？！]{0,4}(?:要不要|该不该|还要不要|用不用|需不需要|是不是该|是不是要|能不能照常)")


def _plans_own(text: str) -> bool:
    """A part asking what the asker should do about his own plans, with no word of the Vinaya:
    right after a request surely out of scope (an omen read, a symptom) it goes on with that
    request (「我下午还要出远门，要不要改期？」), whatever topic its everyday words meet."""
    return bool(_OWN_PLAN.search(simplify(text))) and not _vinaya_framed(text)


_ALTERNATIVE = re.compile(r"^(?:还是说?|或者说?|抑或)")


def _continues_request(text: str) -> bool:
    """A part, with no word of the Vinaya, that is the request before it said again: the other
    half of an alternative question (「……吗？还是……？」), or the request to do it addressed to
    the reader (「请帮我判断是什么境界。」)."""
    plain = simplify(text).lstrip(" ，,、")
    return not _vinaya_framed(text) and (bool(_ALTERNATIVE.match(plain)) or _requests(plain))


def _asking_sentences(q: str) -> list[str]:
    """The sentences of a text that ask or request something: 「可他一直不肯表态，只说…。」
    tells what the asker's brother did, it asks no verdict of anyone."""
    return [s for s in _sentences(q) if _is_asking(s)]


@functools.lru_cache(maxsize=1)
def _person() -> re.Pattern:
    return re.compile(f"本人|{_alternation(_data()['pointers']['roles'])}")


def _names_the_person(clause: str) -> bool:
    """Does a clause speak of a person — 本人 or a role (这样的师父…) — other than the one
    addressed (请法师…, 法师您看…)?  「这样算不算犯戒」 speaks of no one: it asks about a practice."""
    return bool(_person().search(_ADDRESSEE.sub("", clause)))


def _occasion_of_request(i: int, parts: list[dict], analysed, out_parts: list[dict]) -> bool:
    """「本人是在佛学院任教的比丘，每个月学院发讲课费…。想问这些收入要不要交个人所得税？」: a part
    that asks nothing itself and is asked about only because the next question points back at it
    (这些, 这样) is the occasion of that question; when that question is out of scope, so is it."""
    if analysed[i].asks_itself:
        return False
    nxt = next((j for j in range(i + 1, len(parts)) if analysed[j].asks_itself), None)
    return nxt is not None and parts[nxt] in out_parts


# -- silent topics ---------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _silent() -> list[tuple[re.Pattern, dict]]:
    out = []
    for entry in _data()["silent"]:
        words = sorted({simplify(w) for w in entry["things"]}, key=len, reverse=True)
        out.append((re.compile("|".join(re.escape(w) for w in words)), entry))
    return out


# the medium a claim was met in (「在公众号文章里看到说比丘不能吃五辛」「抖音上有个视频说…」) is where the
# asker read it, not what is asked: a thing followed in its own clause by a verb of saying that
# opens the claim (not 说法 / 说戒, which are acts done with the thing)
_CLAIM_FOLLOWS = re.compile(r"[^，,。？！?!；;：:\s吗呢]{0,12}?(?:(?<!怎么)(?<!如何)(?<!什么)说(?![法经戒])|声称|写道|写着|提到)")
_CLAUSE_END = re.compile(r"[，,。？！?!；;：:]")


def _source_of_a_claim(q: str, m: re.Match) -> bool:
    """Does the thing ``m`` only name where a claim was read or heard?  Not when the claim itself
    holds it (听说有寺院用微信收供养, 师父说用手机支付没关系: 说 before it in its clause)."""
    opens = max((x.end() for x in _CLAUSE_END.finditer(q, 0, m.start())), default=0)
    return "说" not in q[opens:m.start()] and bool(_CLAIM_FOLLOWS.match(q, m.end()))


def silent_things(question: str) -> list[dict]:
    q = simplify(question)
    found = []
    for rx, entry in _silent():
        m = next((x for x in rx.finditer(q) if not _source_of_a_claim(q, x)), None)
        if m:
            found.append({"thing": m.group(0), "label": entry["label"], "topics": entry["topics"],
                          "terms": entry.get("terms", [])})
    return found


# -- the decision ---------------------------------------------------------------------------

class Gate:
    """One per topic skeleton (its phrasings teach the classifier what in-scope speech is)."""

    def __init__(self, matcher=None, examples: list[tuple[str, str]] | None = None):
        """``examples``: the classifier's training questions (default: all of resources/scope;
        the leave-one-file-out measure passes all but one file's)."""
        self.matcher = matcher
        self.nb = NaiveBayes(training_examples() if examples is None else examples)

    def classify(self, text: str, subject: float = 0.0, alone: bool = False, framed: bool = False,
                 beside_vinaya: bool = False) -> tuple[str, float]:
        """The kind of a text ('answer' or an out-of-scope kind) and how strongly.

        Three kinds of evidence: the patterns (certain), the classifier's posterior, and the
        words of each kind's domain (症状、税、收益、业障、卦 …).  A domain word alone does not
        make a question out of scope — 「藥犍度許哪些藥」 is the Vinaya's own subject — unless the
        asker wants advice for a situation of their own (我…怎么办, 要不要) or the question has
        no Vinaya framing at all (律, 戒, 比丘, a matched topic).  ``alone``: the text is a whole
        question of one part, with no Vinaya question beside it to be the case of;
        ``beside_vinaya``: a part of a question that holds a word of the Vinaya."""
        kind = pattern_kind(text)
        q = _read(text)
        # (a monastic asking leave for his own act tells of himself as the texts' 比丘: only a request
        # for advice — 怎么办, 帮我 — is advice then)
        own_leave = _leave_of_monastic_asker(q) or _asks_ordination(q)
        advice = _requests_advice(q) if own_leave else _asks_advice(q)
        # what the texts rule (律里对比丘参与诉讼有什么规定), whether an act is an offence, or leave
        # asked for a monastic: the Vinaya's own question, whatever domain its thing comes from
        of_the_texts = not advice and any(w in q for w in _text_words())
        # (whether an act is an offence — 「拆佛塔会不会有罪过」 — is never turned away by the
        # classifier alone: with no word of a domain, 拆/重建 had read as a legal question)
        asks_offence = bool(_OFFENCE_ASKED.search(q))
        # (「…按戒律算不算盗？」 of the asker's own act: whether it is theft is the 盜戒's question, though
        # 税务局 or 海关 make the story a legal pattern's)
        offence = asks_offence or bool(_TELLING_OFFENCE.search(q)) or _asks_grave_act(q)
        monastic_leave = own_leave or bool(_MONASTIC_LEAVE.search(q))
        vinaya_form = offence or monastic_leave or of_the_texts
        if kind and not (kind not in WHOLE_KINDS and vinaya_form):
            return kind, 1.0
        post = self.nb.posterior(q)
        lex = {k: _lex_hits(k, q) for k in KINDS}
        # a word of the Vinaya, or the bridge found the Vinaya's own topic in it (叉腰, 背请)
        vinaya = framed or _has_vinaya_word(q) or subject >= STRONG_SUBJECT
        best, strength = "answer", 0.0
        # what the classifier alone may decide does not depend on the kind: asked once, the leave
        # (which scores the act against every topic) only when some kind needs it
        own = alone or _content(q) > FOLLOW_UP or bool(_RECOMMENDATION.search(q))
        leave_asked: list[bool] = []

        def leave() -> bool:
            if not leave_asked:
                leave_asked.append(bool(_MONASTIC_DUTY.search(q))
                                   or (subject >= SUBJECT_AT and self._asks_leave_for_act(q)))
            return leave_asked[0]

        pointed = names_someone(text) or _identifies(q)
        identified = pointed and _verdict_on_someone(q) and not _asks_teaching(q)
        if identified:                      # a verdict asked on someone the asker points to
            return "judge", 1.0
        if vinaya and not advice and offence:
            return "answer", 0.0     # 「不谈因果报应，单说律：比丘吃了…专门为他杀的鸡，犯什么？」
        if _asks_only_precept(q):
            # whether an act breaks a precept, the asker's own situation told (「可我胃不好，我吃了是不是
            # 犯了戒？」): the Vinaya's question, not advice on the situation
            return "answer", 0.0
        for k in KINDS:
            if k == "judge":
                continue                    # a verdict needs someone to be judged
            if k in WHOLE_KINDS:
                val = post.get(k, 0.0)
            else:
                val = post.get(k, 0.0) + LEX_WEIGHT * min(lex[k], 3)
                if lex[k] == 0:
                    # the classifier alone, on a few hundred examples, is not enough to turn a
                    # question away unless it is sure and nothing of the Vinaya is in it
                    # (on a text of its own: 「到底怎样才对？」 after a story is that story's question;
                    # 「买哪只比较好？」 asks for a pick of its own)
                    sure = post.get(k, 0.0) >= ALONE_AT and not vinaya and own and not asks_offence
                    val = post.get(k, 0.0) if sure and not leave() else 0.0
                elif vinaya and not advice and (lex[k] < 3 or monastic_leave
                                                or k == "doctrine" and of_the_texts and _CLASS_NAMED.search(q)):
                    # the Vinaya's own framing (出家人…开悟证果 is 大妄語) and no advice asked for
                    # (however many of a domain's words the act asked leave for holds: 紫微斗数 … 排盘);
                    # what the texts say of an offence class's 報 (律中说犯波罗夷的果报是…: 篇聚名報篇's
                    # subject) however many of the doctrine's words it holds — asked without the
                    # texts (犯了波罗夷…死后会堕哪层地狱), it stays the doctrine's
                    val = min(val, post.get(k, 0.0)) * 0.5
            if val > strength and val >= REFUSE_AT:   # domain words outweigh the in-scope posterior
                best, strength = k, min(val, 0.999)
        # (a question of one part only: a side part's domain word beside a Vinaya question —
        # 「乙肝这类算不算在里面？」 — is that question's case, and a story's word — 「我发高烧
        # 起不来」 before 「托师兄带句话行不行」 — its occasion)
        unframed = alone and not vinaya and not of_the_texts and subject < SUBJECT_AT
        if best == "answer" and not vinaya and (post.get("answer", 0.0) < 0.2 and subject < 2 * SUBJECT_AT or unframed):
            # nothing of the Vinaya in it, the classifier is sure it is not in scope (or no topic
            # is met either: 「四禅八定是哪八个…坐的时候怎么知道自己到了哪一层」), and words of
            # some kind's domain say which
            cands = [k for k in KINDS if lex[k] and k not in WHOLE_KINDS]
            if cands:
                best = max(cands, key=lambda x: post.get(x, 0.0) + LEX_WEIGHT * min(lex[x], 3))
                strength = REFUSE_AT
        if best == "answer" and post.get("answer", 0.0) < OUT_SURE and not vinaya and subject < SUBJECT_AT \
                and not asks_offence:
            # no domain word, but the classifier is all but sure the text is not the Vinaya's and
            # no Vinaya word or topic says otherwise: its likeliest kind that needs no one judged
            open_kinds = [k for k in KINDS if k not in WHOLE_KINDS]
            likeliest = max(open_kinds, key=lambda x: post.get(x, 0.0))
            # … when the text asks something: a story the classifier reads as a verdict asked
            # (「同寺一位师兄向我借了钵……被偷了。」) is not therefore a legal question
            # … and, for a part beside a Vinaya question, only when the classifier reads that kind
            # itself: a part read all as a verdict with no one pointed to (「萬一那位師兄忘了轉達，
            # 會怎樣？」 after asking how to send one's consent to the 誦戒) names no kind to refuse
            # the question on
            if _asking_sentences(q) and (not beside_vinaya or post.get(likeliest, 0.0) >= OPEN_KIND_AT):
                best, strength = likeliest, REFUSE_AT
        return best, strength

    def decide(self, question: str, matches=None) -> Decision:
        decision = self._decide(question, matches)
        if decision.outcome == "refuse":
            decision.suggestion = self._suggestion(decision.kind, question, matches) or decision.suggestion
        return decision

    def _suggestion(self, kind: str, question: str, matches) -> str | None:
        """The in-scope question a refusal offers, on the act the question is about when the
        skeleton knows it for sure: the kind's fixed offer (「比丘要指出别人的过失，律中有什么规定？」)
        answers in general, 「律中对「飲酒戒」是怎样规定的？」 is one click from the rule behind the verdict asked
        (rules.json kinds.*.topic_suggestion; a kind without one keeps its fixed suggestion)."""
        template = _data()["kinds"][kind].get("topic_suggestion")
        if not template or self.matcher is None:
            return None
        matches = matches if matches is not None else self.matcher.match(question)
        best = matches.main[0] if matches.main else None
        if best is None or not matches.sure or best.topic.cls in UNSUGGESTED \
                or best.score - best.loose - best.fuzzy < SUGGEST_FIRM:
            return None
        return template.format(topic=best.topic.names[0])

    def _decide(self, question: str, matches=None) -> Decision:
        from .bridge import analyse, narrowed_from
        a = matches.analysis if matches is not None else analyse(question)
        subject, firm = self._subjects(a, matches)
        parts = []
        # the story before the asker narrows the question (「…病的事我不在这里问，只想请问：…」)
        # is no request, and neither is the part's own text before the narrowing words
        first, narrowed_at = narrowed_from(a.parts)
        own = [part.text[narrowed_at:] if i == first else part.text for i, part in enumerate(a.parts)]
        told = own                        # each part whole, its story included
        cut = [_question_clause(t) for t in told]
        own = [t[c:] for t, c in zip(told, cut)]
        # (the parts' text is the analysis's, already simplified)
        framed = [c > 0 and not any(_lex_hits(k, t) for k in KINDS) for t, c in zip(own, cut)]
        beside = len(a.parts) > 1 and _has_vinaya_word(a.simple)
        for i, part in enumerate(a.parts):
            kind, p = self.classify(own[i], subject.get(i, 0.0), alone=len(a.parts) == 1, framed=framed[i],
                                    beside_vinaya=beside)
            parts.append({"text": part.text, "kind": kind, "p": round(p, 3), "subject": subject.get(i, 0.0),
                          "firm": firm.get(i, 0.0)})
        self._takes_storys_kind(parts, a.parts)
        # a question of one sentence whose story only sets the scene is its question clause
        whole_text = own[0] if len(a.parts) == 1 and cut[0] else question
        whole_kind, whole_p = self.classify(whole_text, max(subject.values(), default=0.0), alone=len(a.parts) == 1,
                                            framed=len(a.parts) == 1 and framed[0])
        patterned = pattern_kind(whole_text)
        if _forbids_making(a.simple):
            # the asker forbids the making (千万别编): what the question asks of a text, in any part, is
            # the real one (老师要我补上卷数……千万别编 asks where the passage stands)
            for p in parts:
                if p["kind"] == "invent":
                    p["kind"], p["p"] = "answer", 0.0
            patterned = None if patterned == "invent" else patterned
            whole_kind = "answer" if whole_kind == "invent" else whole_kind
        # a made-up text, or a verdict on someone the asker points to, is refused however
        # Vinaya-like the rest of the question is — unless a Vinaya question stands apart before
        # it (「律里比丘尼要满几夏才能度人？另外我们庵里那位师父…你看她是不是太心急了？」): that
        # question is answered and the request gets the kind's note
        if patterned in WHOLE_KINDS:
            return self._whole(patterned, parts, a.parts)
        q = a.simple                      # the question simplified, as the analysis read it
        if _verdict_pointed_back(a.parts) and not _asks_teaching_only(q):
            return self._whole("judge", parts, a.parts)
        # a verdict asked of a person and demanded of the reader outright (你直接下判断, 你说她是不是
        # 骗子) is judging whatever the classifier reads the story as (a historical master's war
        # counsel had read as answerable, a beggar in robes as doctrine)
        if _judges_a_master(q) or _verdict_requested(q):
            return self._whole("judge", parts, a.parts)
        # the story around a question («我在电商公司上班…») is not itself a request
        out_parts = [p for i, (p, part) in enumerate(zip(parts, a.parts))
                     if (part.asks or len(parts) == 1) and i >= first
                     # a story a later question asks about (「…他就回一句「…」。这在律里算什么问题？」)
                     # requests no text and no verdict of its own
                     and (part.asks_itself or p["kind"] not in WHOLE_KINDS
                          or not any(later.asks_itself for later in a.parts[i + 1:]))
                     # nor is a story of any kind that a later question asks the texts about
                     # (「我在派出所当辅警，认识一个…逃过营。律中说这种人能出家吗？」): it is that
                     # question's case, told, and the asker asks no advice on it
                     and (part.asks_itself or not self._case_of_a_text_question(parts, a.parts, i))
                     and self._out_of_scope(p["kind"], p["p"], p["text"])
                     and not self._goes_on_asking(parts, a.parts, i)]
        in_scope = self._in_scope(parts, a.parts, out_parts)
        # beside a Vinaya part, a side part whose kind was only guessed (「要不要赔？」「多大年纪
        # 才算老？」 with no word of a domain) earns no note sending the asker to a lawyer:
        # tune answerables with a spurious note 28 -> 15; by-file CV refusals unchanged, notes
        # 67 -> 65 of 90, wrong notes 4 -> 2
        if in_scope:
            out_parts = [p for p in out_parts if not _guessed(p)]
        # no part alone is out of scope, none is the Vinaya's, and the whole question is of a
        # kind: 「开悟之后还有没有烦恼？顿悟与渐修是什么关系？」 spreads its domain over two parts
        if not out_parts and not in_scope and self._out_of_scope(whole_kind, whole_p, question) \
                and not ((whole_p < SURE_OUT or _checks_a_told_rule(q))
                         and self._only_the_story_reads_out(parts, a.parts, whole_kind, q)):
            out_parts = parts
        whole = [p for p in out_parts if p["kind"] in WHOLE_KINDS]
        if whole:
            return self._whole(whole[0]["kind"], parts, a.parts)
        # a thing of a story part (「坐了一天高铁」 on the way to the question) is not asked about
        asked = [_asked_of(told[i], cut[i]) for i, part in enumerate(a.parts) if part.asks and i >= first]
        silent = silent_things("".join(asked) or question)
        advice = _asks_advice(q)
        # a thing the texts never name, asked of the Vinaya (出家人能不能用微信支付); the same thing
        # asked for one's own advice with no word of the Vinaya (信用卡分期和网贷哪个利息低) is not.
        # The topic evidence of an out-of-scope part is no sign of the Vinaya here: the thing
        # itself meets the rules that bear on it (余额宝 ~ 錢寶, 开车 ~ 乘)
        vinaya_asked = not out_parts or bool(in_scope) or any(_vinaya_framed(p["text"]) for p in parts)
        if silent and vinaya_asked and not any(p["p"] >= 1.0 for p in out_parts) and not (out_parts and advice):
            return Decision("silent", None, _data()["silent_note"], silent=silent, parts=parts)
        if not out_parts:
            return Decision("answer", parts=parts)
        kind = max(out_parts, key=lambda p: p["p"])["kind"]
        if kind not in KINDS:               # the whole question is of a kind, none of its parts
            kind = whole_kind
        if in_scope or self._asks_leave(out_parts, q):
            return Decision("scope_note", kind, _data()["kinds"][kind]["note"], parts=parts,
                            out_parts=self._lends_nothing(parts, out_parts, a.parts))
        return self._refuse(kind, parts)

    @staticmethod
    def _only_the_story_reads_out(parts: list[dict], analysed, kind: str, q: str) -> bool:
        """「过堂的时候我吃了一碗……想再要半碗，旁边的师兄说…要先找人“做个法”才能吃。这是真的吗？
        具体怎么做？」: every part that asks reads as in scope, only the story around them reads
        like a kind (eating, being full: medical), and no word of the kind's domain stands
        anywhere in the question.  Unless the whole reads surely of the kind (a throat that
        aches when chanting, then 「平时喝点什么能润一润？」), the story is the occasion of a
        Vinaya question, not a request for advice, and the question is answered."""
        asking = [p for p, part in zip(parts, analysed) if part.asks]
        return bool(asking) and len(asking) < len(parts) and all(p["kind"] == "answer" for p in asking) \
            and not _lex_hits(kind, q)

    @staticmethod
    def _takes_storys_kind(parts: list[dict], analysed) -> None:
        """「……想拿二十万入股，说每年分红能有两成。……这钱到底该不该拿出来？」: the last question
        asks advice (该不该, 要不要, 怎么办) about the story told before it and points back at it
        (这钱, 这事) or asks the asker's own (「我自己在家怎么处理比较好？」), with no word of the Vinaya;
        it is the story's question, and of the story's kind when the story is surely of one (the
        question alone, a few words, is too short to tell)."""
        asking = [i for i, part in enumerate(analysed) if part.asks]
        if not asking or asking[-1] == 0:
            return
        i = asking[-1]            # the last question; any before it must be the story's own kind
        p, text = parts[i], simplify(parts[i]["text"])
        if p["kind"] != "answer" or _vinaya_framed(parts[i]["text"]) or _has_vinaya_word(text):
            return
        # (… or asks how the illness told before it is cured: 「到底怎么处理才能好起来？」
        # 「应该给他吃什么、怎么照顾才会好？」 — the story's question whatever it points at)
        cure = bool(_CURE_ASKED.search(text))
        if not cure and (not (re.search("[这那]", text) or _OWN_ADVICE.match(text)) or not _requests_advice(text)):
            return
        told = [parts[j] for j in range(i) if parts[j]["kind"] in KINDS and parts[j]["kind"] not in WHOLE_KINDS
                and parts[j]["p"] >= SURE_OUT]
        if told and all(parts[j]["kind"] == told[0]["kind"] or (parts[j]["kind"] == "answer" and j not in asking)
                        for j in range(i)):
            p["kind"], p["p"] = told[0]["kind"], max(t["p"] for t in told)

    def _whole(self, kind: str, parts: list[dict], analysed) -> Decision:
        """A request for a made-up text or a verdict is refused whole, unless the question first
        asks the Vinaya something on its own (a part in scope by its words and topic, with no
        pattern of any kind, no person pointed at) and makes the request only after it: then
        that question is answered and the request gets the kind's note, lending the answer no
        topic.  Blind sets (5, 14, 15, 16) label every such two-part question a scope note."""
        at = self._vinaya_apart(parts, analysed)
        if at is None:
            return self._refuse(kind, parts)
        return Decision("scope_note", kind, _data()["kinds"][kind]["note"], parts=parts,
                        out_parts=list(range(at + 1, len(parts))))

    @staticmethod
    def _vinaya_apart(parts: list[dict], analysed) -> int | None:
        """The last of the leading parts that ask the Vinaya something on their own, when the rest
        hold the request: 「《四分律》里佛陀制过午不食，缘起是哪位比丘的事？」 before 「另外…你帮我补全」.
        A part that points outside itself (「羯磨疏里应该讲过这个吧？」), judges someone itself
        (「济公那样喝酒吃肉，他本人到底是犯了戒…」) or asks for a text to be made (「能不能…替我造
        几句…规矩？」) does not stand apart."""
        from .bridge import points_back
        at = None
        # quotations asked on the understanding that nobody will check them are made ones, however
        # the question first asks for them (「…注明出自哪一卷。…不必一条条去核对」)
        whole = _disowned(_without_lookalikes("invent", simplify("".join(p["text"] for p in parts))))
        deceit = bool(_made_text()["deceit"].search(whole))
        for i, (p, part) in enumerate(zip(parts, analysed)):
            if i == len(parts) - 1:
                break
            text = simplify(p["text"])
            # (a request for the real text the classifier takes for a made one — 「请把…那几句原话
            # 引出来，注明卷数」 — asks the Vinaya too)
            sought = p["kind"] == "invent" and p["p"] < 1.0 and _seeks_text(text) and not deceit
            own = ((p["kind"] == "answer" or sought) and part.asks_itself and pattern_kind(p["text"]) is None
                   and (p["subject"] >= SUBJECT_AT or _vinaya_framed(p["text"]))
                   and not (names_someone(p["text"]) or _identifies(text) or _masters().search(text))
                   and not _verdict_on_someone(text) and not points_back(text)
                   and not _made_text()["made"].search(_without_lookalikes("invent", text)))
            if not own:
                break
            at = i
        return at

    @staticmethod
    def _lends_nothing(parts: list[dict], out_parts: list[dict], analysed) -> list[int]:
        """The parts of a scope-noted question the answer takes no topic from: requests surely
        out of scope that ask on their own (「另外…想请您推荐一下是放银行定期还是买国债。」), not a
        story the Vinaya question points back to (「…附近诊所只有男医生。请问这种情况可以…吗？」)."""
        return [i for i, (p, part) in enumerate(zip(parts, analysed))
                if p in out_parts and p["p"] >= SURE_OUT and part.asks_itself]

    @staticmethod
    def _in_scope(parts: list[dict], analysed, out_parts: list[dict]) -> list[dict]:
        """The parts that earn a scope note instead of a refusal: a Vinaya subject by any
        evidence, save shared characters alone beside a request surely out of scope.  Requiring
        firm evidence everywhere (no loose channel) refused 15 more labelled questions, and
        three answerable multi-part questions of a fresh tune set (a nun asking for 酥油 when
        not ill, 受日 for a sick father, a 營事 monk's room): a long real question's Vinaya part
        is often met only loosely, and its side parts (「最多能请几天」) look like a kind's domain.
        A part that only tells the story and is itself of a kind (「末学出家三年，常住持午，近来
        夜里常饿得胃痛」) is the occasion of the out-of-scope request, not a Vinaya question."""
        out = []
        # a story part frames a Vinaya question only when something in scope is asked: 「我受了
        # 八关斋戒，打算明年去寺里挂单。…帮我算算哪个月出门最吉利」 asks nothing of the Vinaya
        asked_in = any(part.asks and p not in out_parts and p["kind"] == "answer"
                       for p, part in zip(parts, analysed))
        sure_out = any(p["p"] >= SURE_OUT and p["kind"] not in WHOLE_KINDS for p in out_parts)
        # beside a request, in a question where no part names a topic firmly or holds a word of the
        # Vinaya, a part met only by shared characters is no Vinaya question: 「为什么有人一辈子做好事
        # 却很苦…？三世因果是怎么算的？」 asks the doctrine twice, 「…心脏不太好…吃红景天防高反，真的
        # 管用吗？」 asks the doctor.  (A question that does name one — 受具足戒问遮难 — keeps its
        # loosely met follow-up 「如果债主同意…算不算还有遮？」 as the Vinaya's.)  Tune refusals 947 ->
        # 953, fresh tune 172 -> 173; held-out 892 -> 895, fresh held-out 148 -> 150; nothing else
        # moved in any scope set nor in the bridge sets' wrongly refused (16)
        loose_only = bool(out_parts) and not any(x["firm"] >= SUBJECT_AT or _vinaya_framed(x["text"])
                                                 for x in parts)
        for i, (p, part) in enumerate(zip(parts, analysed)):
            if p in out_parts:
                continue
            if not part.asks and (not asked_in or (p["kind"] != "answer" and p["p"] >= REFUSE_AT)):
                continue
            if _occasion_of_request(i, parts, analysed, out_parts):
                continue
            after_out = i > 0 and parts[i - 1] in out_parts
            if after_out and _content(p["text"]) <= FOLLOW_UP and not _vinaya_framed(p["text"]):
                continue      # 「……能否起诉名誉侵权？要准备哪些证据？」: a short follow-up of the request before
            if after_out and parts[i - 1]["p"] >= SURE_OUT and _plans_own(p["text"]):
                continue      # 「……这是什么预兆？我下午还要出远门，要不要改期？」: what to do about it
            if after_out and _continues_request(p["text"]):
                continue      # 「……因果真的存在吗？还是只是劝人向善的说法？」: the same question
            # a part met only faintly right after a request on no Vinaya subject continues it
            # (「……吃素要注意什么？炒菜的油还能不能吃？」); after a request on a Vinaya subject (酥油
            # asked when not ill) it may ask the 開緣 (「如果是生病的时候呢？」), and elsewhere it
            # may be a Vinaya question met loosely (「南山三大部是哪三部？各有多少卷？」)
            continues = after_out and parts[i - 1]["subject"] < SUBJECT_AT
            faint = p["kind"] == "answer" and p["subject"] >= FAINT_SUBJECT and not continues
            # beside a request surely out of scope, a subject met only by shared characters is that
            # request's own matter (「…多少天才投胎？这期间家人念经能改变去处吗？」): tune refusals
            # 944 -> 947, CV 744 -> 745, held-out 889 -> 892, nothing else moved (the faint path
            # held to it too lost notes and refused a near-miss)
            met = p["subject"] >= SUBJECT_AT and not (sure_out and p["firm"] < SUBJECT_AT)
            if loose_only and p["firm"] <= 0:
                continue
            if met or _vinaya_framed(p["text"]) or faint:
                out.append(p)
        return out

    @staticmethod
    def _case_of_a_text_question(parts: list[dict], analysed, i: int) -> bool:
        """Is part ``i`` a story that the next question asking of itself puts to the texts — a part
        in scope that names the Vinaya (律中, 比丘, 戒) and asks no advice of its own?"""
        later = next((j for j in range(i + 1, len(parts)) if analysed[j].asks_itself), None)
        if later is None:
            return False
        text = simplify(parts[later]["text"])
        return parts[later]["kind"] == "answer" and _has_vinaya_word(text) and not _asks_advice(text)

    @staticmethod
    def _goes_on_asking(parts: list[dict], analysed, i: int) -> bool:
        """「受比丘戒需要几位师父在场？在偏远地方凑不齐人怎么办？」: a part right after a Vinaya
        question that the classifier alone, with no word of any kind's domain and no pattern,
        calls out of scope goes on asking that question (its case, its exception)."""
        if i == 0:
            return False
        before, p = parts[i - 1], parts[i]
        if p["kind"] in WHOLE_KINDS or _new_question().match(p["text"].lstrip(" ，,、")):
            return False
        if _RECOMMENDATION.search(p["text"]):
            return False      # 「……买哪只比较好？」 asks for a pick, advice on the thing itself
        # the question before must have a Vinaya subject: 「出家人能不能买商业医疗险？哪一款性价比
        # 高一点？」 is framed by 出家人 but asks of no rule
        # — this part's or one asked before it, a question in between met faintly (「布料…请问这样放着
        # 可以吗？最多能放多久不做？」: the last was given a medical note)
        vinaya_before = any(parts[j]["kind"] == "answer" and analysed[j].asks and parts[j]["subject"] >= SUBJECT_AT
                            for j in range(i))
        # … and so does a case only put to it (「…可以吗？如果是生病要去医院呢？」: its 開緣 for
        # illness), whatever words of a domain the case holds; a case that asks on (「要是可以，这笔钱
        # 放定存还是基金？」, 「如果是钙片，一天吃几片呢？」) asks advice of its own
        text = simplify(p["text"])
        return (vinaya_before and pattern_kind(p["text"]) is None
                and (_only_puts_a_case(text) or _lex_hits(p["kind"], text) == 0))

    def _asks_leave_for_act(self, q: str, not_of: str | None = None) -> bool:
        """Does a (simplified) text ask leave (这样可以吗, 能不能…) for an act the topics know — and,
        with ``not_of``, an act with no word of that kind's domain in it?  The act is scored
        against every topic: callers ask it last."""
        asked = _LEAVE.search(q)
        if not asked or (not_of is not None and _lex_hits(not_of, asked.group(2))):
            return False
        return self._act_is_vinaya(asked.group(2))

    def _asks_leave(self, out_parts: list[dict], q: str) -> bool:
        """「过了中午胃疼，可以喝点糖水吗？」: asking whether something is allowed, about a Vinaya
        subject, without asking advice for oneself, is the Vinaya's own question (開遮) — the
        symptom or the thing's domain is only its occasion; a note covers that part.  So is asking
        what the texts or their masters say of it (「元照在资持记里怎么把持戒跟念佛往生联系起来」),
        which a pattern alone (念佛…往生) must not turn away.  ``q``: the question, simplified."""
        if any(p["kind"] in WHOLE_KINDS for p in out_parts):
            return False
        if all(p["subject"] >= SUBJECT_AT for p in out_parts) and not _asks_advice(q):
            if any(w in q for w in _text_words()):
                return True               # what the texts or their masters say of it (元照…往生)
            if not any(p["p"] >= 1.0 for p in out_parts) and self._asks_leave_for_act(q):
                return True
        # several requests, one of them leave for a Vinaya act in words of its own (「过了中午胃疼，
        # 可以喝点糖水吗？」) and another advice (「另外胃疼该吃哪种药？」): the first is the Vinaya's
        # question and the second earns the note, as when the first had no symptom in it
        return len(out_parts) > 1 and any(self._asks_leave_itself(p) for p in out_parts)

    def _asks_leave_itself(self, part: dict) -> bool:
        """A part that, on its own words, asks leave for an act the topics know and asks no advice;
        the act itself is no thing of the part's kind (喝点糖水, not 以寺院名义签合同): the
        kind's words stand only in its occasion (胃疼)."""
        text = simplify(part["text"])
        if part["subject"] < SUBJECT_AT or part["p"] >= 1.0 or _asks_advice(text):
            return False
        return self._asks_leave_for_act(text, not_of=part["kind"])

    def _act_is_vinaya(self, act: str) -> bool:
        """Is what leave is asked for a thing the Vinaya rules on (喝点糖水: 非時漿), not an outcome
        or an act of another domain (「盐水漱口能不能扛过去」, 「功德款能不能做国债逆回购」)?"""
        if self.matcher is None or len(act) < 2:
            return True
        from .bridge import analyse
        a = analyse(act)
        # any evidence, loose included (unlike _subjects, which caps it): an act's few characters
        # rarely name a topic outright
        return any(m.score >= SUBJECT_AT for p in a.parts for m in self.matcher.score_part(a, p))

    def _out_of_scope(self, kind: str, p: float, text: str) -> bool:
        """Is a text (part) of an out-of-scope kind?  A verdict needs someone to be judged; an
        invented text needs to be asked for (both are in the patterns when they are)."""
        if kind == "answer" or p < REFUSE_AT:
            return False
        if kind == "judge":
            q = simplify(text)
            return ((names_someone(text) or _identifies(q)) and _verdict_on_someone(q)
                    and not _asks_teaching_only(q))
        if kind == "invent":
            q = _read(text)
            plain = _without_lookalikes("invent", q)
            asked = _requests(plain) and any(w in plain for w in _TEXT)
            # a text meant to deceive (「糊弄一下审稿人」「看起来靠谱…对不对我自己不管」: rules.json
            # made_text.deceit) is what the kind is, whatever else the question seeks
            passed = bool(_made_text()["deceit"].search(_disowned(plain)))
            if p < 1.0 and not passed and _disowning().search(plain):
                return False      # 「会清楚标明是今人仿作，不冒充原文」: nothing is passed off
            return p >= 1.0 or (p >= 0.95 and (passed or ((_lex_hits("invent", q) > 0 or asked)
                                                        and not _seeks_text(q))))
        return True

    def _refuse(self, kind: str, parts: list[dict]) -> Decision:
        info = _data()["kinds"][kind]
        reply = f"此问超出本工具的范围（{info['label']}）。{info['reply']}"
        return Decision("refuse", kind, reply, info.get("suggestion"), parts=parts)

    def _subjects(self, a, matches) -> tuple[dict[int, float], dict[int, float]]:
        """How much Vinaya subject each part carries: its best topic's evidence, and of that the
        firm part alone (what the part's own words name, without shared characters)."""
        from . import bridge
        if self.matcher is None:
            return {}, {}
        out: dict[int, float] = {}
        firm: dict[int, float] = {}
        for i, part in enumerate(a.parts):
            # firm evidence counts in full; the loose channel at most LOOSE_SUBJECT, however much
            # the bridge trusts it for choosing among topics; a phrasing met only in other words
            # (「買黃金」 ~ 金銀) chooses among topics but is no sign that the Vinaya is asked
            own = [(m.score - m.loose - m.fuzzy, m.loose) for m in self.matcher.score_part(a, part)]
            out[i] = max((f + LOOSE_SUBJECT * loose / bridge.LOOSE_WEIGHT for f, loose in own), default=0.0)
            firm[i] = max((f for f, _ in own), default=0.0)
        return out, firm


def check(question: str) -> Refusal | None:
    """The gate without a topic skeleton (tests, tools): only refusals."""
    return _default_gate().decide(question).refusal


@functools.lru_cache(maxsize=1)
def _default_gate() -> Gate:
    return Gate(None)
