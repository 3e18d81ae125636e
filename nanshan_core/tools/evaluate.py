"""``nanshan eval``: how well the engine answers a question set with gold passages.

Line accuracy is checked against the raw CBETA XML by a reader that shares
nothing with the pack builder (``RawLines`` below cuts the file text at each
``<lb>`` and strips tags): a coordinate is correct only if the printed line
in the original file holds the quote's first character.  Recall counts a gold
passage as retrieved when a material holds its quote or covers its line.
"""
from __future__ import annotations

import json
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..ask.engine import Engine
from ..ask.retrieve import LAYERS
from ..corpus import works
from ..errors import NanshanError, QuestionError
from ..text import is_word_char

_LB = re.compile(r'<lb\b([^>]*)/>')
_DROP = [re.compile(r"<cb:mulu\b[^>]*>.*?</cb:mulu>", re.S), re.compile(r"<cb:mulu\b[^>]*/>"),
         re.compile(r'<note\b(?![^>]*place="inline")[^>]*>.*?</note>', re.S),
         re.compile(r"<rdg\b[^>]*>.*?</rdg>", re.S)]
_TAG = re.compile(r"<[^>]+>")
_COORD = re.compile(r"^([TX])(\d{2,3})n(\w+?)_p(\d{4}[a-d]\d{2,3})$")


class RawLines:
    """Printed lines straight from the CBETA files (independent of nanshan_core.corpus.tei)."""

    def __init__(self, cbeta: Path):
        self.cbeta = Path(cbeta)
        self._files: dict[str, list[tuple[str, str]]] = {}   # work file key -> [(n, text)]

    def _load(self, path: Path, ed: str) -> list[tuple[str, str]]:
        raw = path.read_text(encoding="utf-8")
        body = raw[raw.index("<body>"):raw.index("</body>")]
        for pat in _DROP:
            body = pat.sub("", body)
        marks = []
        for m in _LB.finditer(body):
            attrs = m.group(1)
            n = re.search(r'\bn="([^"]+)"', attrs)
            e = re.search(r'\bed="([^"]+)"', attrs)
            if n and (e.group(1) if e else ed) == ed:
                marks.append((m.start(), m.end(), n.group(1)))
        out = []
        for k, (_, end, n) in enumerate(marks):
            stop = marks[k + 1][0] if k + 1 < len(marks) else len(body)
            seg = _TAG.sub("", body[end:stop]).replace("\n", "").replace("\r", "").replace("\t", "")
            out.append((n, seg.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")))
        return out

    def lines_from(self, coord: str, count: int = 6) -> list[str]:
        """The printed line at ``coord`` and the ones after it, as the raw file has them."""
        m = _COORD.match(coord)
        if not m:
            raise NanshanError(f"坐标格式不对：{coord}")
        canon, vol, work, n = m.groups()
        key = f"{canon}{vol}n{work}"
        if key not in self._files:
            seq: list[tuple[str, str]] = []
            files = sorted((self.cbeta / canon / f"{canon}{vol}").glob(f"{key}_*.xml")) or \
                sorted((self.cbeta / canon / f"{canon}{vol}").glob(f"{key}.xml"))
            for f in files:
                seq.extend(self._load(f, canon))
            self._files[key] = seq
        seq = self._files[key]
        for i, (ln, _) in enumerate(seq):
            if ln == n:
                return [t for _, t in seq[i:i + count]]
        return []

    def holds(self, coord: str, quote: str) -> bool:
        """Does the line at ``coord`` hold the first character of ``quote`` (continuing onto later lines)?

        Spaces and line breaks are ignored on both sides, as in verification."""
        squeeze = re.compile(r"[\s\u3000]+")
        q = re.split(r"…+|\.{3,}|⋯+", squeeze.sub("", quote))[0]
        lines = [squeeze.sub("", t) for t in self.lines_from(coord, count=60)]
        if not lines or not q:
            return False
        joined = "".join(lines)
        pos = joined.find(q)
        while pos != -1:
            if pos < len(lines[0]):
                return True
            pos = joined.find(q, pos + 1)
        return False


def _plain(text: str, fold) -> str:
    return "".join(c for c in fold(text) if is_word_char(c))


@dataclass
class QuestionReport:
    id: str
    expect: str
    refused: bool
    gold: list[dict] = field(default_factory=list)     # [{coord, layer, work, hit, quoted, in_text}]
    citations: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    topic_hit: bool | None = None       # the set's main topic among the chosen topics (None: not given)


def gold_hit(engine: Engine, gold: dict, materials) -> bool:
    fold = engine.pack.normalizer.fold
    head = _plain(gold["quote"], fold)[:8]
    for m in materials:
        if head and head in _plain(m.text, fold):
            return True
        if m.work == gold["work"]:
            try:
                if engine.pack.line(gold["coord"]).id in m.line_ids():
                    return True
            except NanshanError:
                pass
    return False


def _name_forms(name: str, fold) -> set[str]:
    base = re.sub(r"(戒|揵度|犍度|篇|法)$", "", name)
    return {fold(n) for n in (name, base) if len(n) >= 2}


QUOTE_WINDOW = (-2, 6)      # lines around a gold line (a gold quote may run on) that count as quoting it


def gold_quoted(engine: Engine, gold: dict, result, cards: bool = True) -> bool:
    """Does the answer a reader sees (its text and, with ``cards``, its panes' cards) quote the gold
    passage — a verified line of the same work at or just after the gold's line?  Recall says the
    passage was found; this says it was shown (without ``cards``: in the text read as the answer)."""
    in_text, on_card = _quoted_where(engine, gold, result)
    return in_text or (cards and on_card)


def _quoted_where(engine: Engine, gold: dict, result) -> tuple[bool, bool]:
    """Whether the answer's text, and whether its panes' cards, quote the gold passage."""
    if not result.answer:
        return False, False
    try:
        target = engine.pack.line(gold["coord"]).id
    except NanshanError:
        return False, False
    work = gold["coord"].split("_")[0]

    def quotes(cits) -> bool:
        return any(c.level == "line" and c.coord and c.coord.startswith(work)
                   and QUOTE_WINDOW[0] <= engine.pack.line(c.coord).id - target <= QUOTE_WINDOW[1]
                   for c in cits)
    return quotes(result.answer.citations), quotes(c for cs in result.answer.panes.values() for c in cs)


def topic_hit(engine: Engine, gold_topic: str, chosen) -> bool:
    """Is the question set's main topic (a name as the texts give it: 非時食戒, 安居, 受日) among the
    chosen topics?  Names are compared with and without 戒/犍度/篇, either inside the other; a
    procedure or a nuns' rule also answers to its chapter's or monks' rule's names."""
    fold = engine.pack.normalizer.fold_query
    want = _name_forms(gold_topic, fold)
    for m in chosen:
        t = m.topic
        related = [t] + [engine.skeleton.get(x) for x in (t.parent, t.same_as) if x]
        for u in filter(None, related):
            have = {f for n in u.names for f in _name_forms(n, fold)}
            if any(w in h or h in w for w in want for h in have):
                return True
    return False


def run(engine: Engine, questions_path: Path, cbeta: Path, ask=None, progress=None) -> dict:
    """Run every question; ``ask(question) -> Result`` defaults to the no-model engine."""
    ask = ask or engine.ask
    raw = RawLines(cbeta)
    qs = _rows(Path(questions_path))
    reports = []
    for k, q in enumerate(qs):
        if progress:
            progress(k, len(qs), q["id"])
        t0 = time.perf_counter()
        try:
            res = ask(q["question"])
        except QuestionError as exc:        # (empty, enormous, no Han character): say which row
            raise QuestionError(f"问题 {q['id']}：{exc}") from exc
        rep = QuestionReport(q["id"], q.get("expect", "answer"), res.refused, seconds=time.perf_counter() - t0)
        for g in q.get("gold", []):
            in_text, on_card = _quoted_where(engine, g, res)
            rep.gold.append({"coord": g["coord"], "layer": g["layer"], "work": g["work"],
                             "hit": gold_hit(engine, g, res.materials),
                             "quoted": in_text or on_card, "in_text": in_text})
        if q.get("topic") and not res.refused:
            rep.topic_hit = topic_hit(engine, q["topic"], res.selection.topics)
        if res.answer:
            for c in res.answer.citations:
                d = c.to_json()
                d["raw_ok"] = raw.holds(c.coord, c.quote) if c.level == "line" else None
                d["in_material"] = c.level != "unverified" or not c.quote
                rep.citations.append(d)
        reports.append(rep)
    return summarise(reports)


def summarise(reports: list[QuestionReport]) -> dict:
    gold = [g for r in reports if r.expect == "answer" for g in r.gold]
    cits = [c for r in reports for c in r.citations]
    line_cits = [c for c in cits if c["level"] == "line"]
    refuse = [r for r in reports if r.expect == "refuse"]
    answerable = [r for r in reports if r.expect == "answer"]
    zero = [r.id for r in answerable if r.gold and not any(g["hit"] for g in r.gold)]
    wrongly_refused = [r.id for r in answerable if r.refused]
    return {
        "questions": len(reports),
        "recall": _by_layer(gold, "hit"),
        "recall_by_work": _by_work(gold),
        "quoted": _by_layer(gold, "quoted"),
        "quoted_in_text": _by_layer(gold, "in_text"),
        "line_accuracy": _ratio(sum(1 for c in line_cits if c["raw_ok"]), len(line_cits)),
        "line_share": _ratio(len(line_cits), len(cits)),
        "paragraph_share": _ratio(sum(1 for c in cits if c["level"] == "paragraph"), len(cits)),
        "fabricated": sum(1 for c in cits if not c["in_material"]),
        "red_lines": {"refused": sum(r.refused for r in refuse), "of": len(refuse)},
        "wrongly_refused": wrongly_refused,
        "zero_hit": zero,
        "seconds_per_question": round(sum(r.seconds for r in reports) / max(1, len(reports)), 3),
        "main_topic": _ratio(sum(1 for r in reports if r.topic_hit), sum(1 for r in reports if r.topic_hit is not None)),
        "per_question": [{"id": r.id, "refused": r.refused, "gold": [g["hit"] for g in r.gold],
                          "topic_hit": r.topic_hit,
                          "gold_layers": [g["layer"] for g in r.gold],
                          "citations": len(r.citations),
                          "bad_lines": [c["coord"] for c in r.citations if c["level"] == "line" and not c["raw_ok"]]}
                         for r in reports],
    }


def _by_layer(gold: list[dict], key: str) -> dict:
    """The share of gold passages with ``key`` true, overall and per layer."""
    out = {"overall": _ratio(sum(g[key] for g in gold), len(gold))}
    for layer in LAYERS:
        mine = [g for g in gold if g["layer"] == layer]
        out[layer] = _ratio(sum(g[key] for g in mine), len(mine))
    return out


def _by_work(gold: list[dict]) -> list[dict]:
    """Recall per work and layer, the works with most gold first: a layer's figure hides where its
    misses stand (道宣's layer is 行事鈔 and 戒本疏 / 羯磨疏; 律本's, 四分律 and the other Vinayas)."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for g in gold:
        groups.setdefault((g["work"], g["layer"]), []).append(g)
    rows = [{"work": work, "layer": layer, "title": works.title_for(work, layer, works.work_info(work).short),
             **_ratio(sum(g["hit"] for g in mine), len(mine))}
            for (work, layer), mine in groups.items()]
    return sorted(rows, key=lambda r: (-r["of"], r["work"], r["layer"]))


def _ratio(a: int, b: int) -> dict:
    return {"hit": a, "of": b, "share": round(a / b, 4) if b else None}


def format_report(s: dict, summary_only: bool = False) -> str:
    """The figures; the per-question misses after them unless ``summary_only`` (a held-out set's
    misses are not to be read while the engine is being tuned)."""
    def pct(r):
        return f"{100 * r['share']:.0f}% ({r['hit']}/{r['of']})" if r["share"] is not None else "—"
    def by_layer(label: str, r: dict) -> str:
        return (f"{label}：总 {pct(r['overall'])}；律本 {pct(r['vinaya'])}；"
                f"道宣 {pct(r['daoxuan'])}；元照 {pct(r['yuanzhao'])}")
    out = [
        f"问题数：{s['questions']}",
        by_layer("召回（gold 段落在材料中）", s["recall"]),
        "按典籍召回：" + "；".join(f"{r['title']} {pct(r)}" for r in s["recall_by_work"]),
        by_layer("引用（gold 段落被答案或卡片引用）", s["quoted"]),
        by_layer("其中答案正文引用", s["quoted_in_text"]),
        f"行级坐标准确率（对照原始 XML）：{pct(s['line_accuracy'])}",
        f"行级占比：{pct(s['line_share'])}；段级占比：{pct(s['paragraph_share'])}",
        f"编造出处：{s['fabricated']}",
        f"红线拦截：{s['red_lines']['refused']}/{s['red_lines']['of']}"
        + (f"；误拒：{', '.join(s['wrongly_refused'])}" if s["wrongly_refused"] else ""),
        f"零命中问题：{len(s['zero_hit'])}" + (f"（{', '.join(s['zero_hit'])}）" if s["zero_hit"] else ""),
        f"每题用时：{s['seconds_per_question']:.2f} 秒",
    ]
    if s["main_topic"]["of"]:
        out.insert(2, f"主题命中（题集所标主题在所选主题中）：{pct(s['main_topic'])}")
    if summary_only:
        return "\n".join(out)
    misses = [f"{q['id']}：" + " ".join(("+" if h else "-") + lay[0] for h, lay in zip(q["gold"], q["gold_layers"]))
              for q in s["per_question"] if q["gold"] and not all(q["gold"])]
    wrong_topic = [q["id"] for q in s["per_question"] if q.get("topic_hit") is False]
    if wrong_topic:
        out.append("主题未命中：" + ", ".join(wrong_topic))
    if misses:
        out.append("未召回的 gold（- 未中，v/d/y = 律本/道宣/元照）：")
        out.extend("  " + m for m in misses)
    return "\n".join(out)


# -- the scope gate ------------------------------------------------------------------------------
# A scope set labels each question with the outcome it must get (resources/scope/*.jsonl,
# tests/eval/scope-test.jsonl): refuse (with its kind), answer (a near-miss: Vinaya words that look
# out of scope), scope_note (two parts, one out of scope) or silent (a thing the texts never name).

def _rows(path: Path) -> list[dict]:
    """The questions of a .jsonl set, one object a line (blank lines skipped)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def is_scope_set(path: Path) -> bool:
    first = next((line for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()), "{}")
    return "label" in json.loads(first)


def run_scope(engine: Engine, path: Path, progress=None) -> dict:
    """The gate's outcome for every labelled question (the gate alone: no retrieval needed)."""
    rows = _rows(Path(path))
    return _scope_report([_scope_outcome(engine, engine.gate, r, progress, k, len(rows)) for k, r in enumerate(rows)])


def scope_cross_validation(engine: Engine, progress=None) -> dict:
    """The gate measured on its own training questions, each file of resources/scope/labelled-*
    decided by a gate whose classifier was trained on the other files only: how the gate does on
    questions its classifier has not seen, without spending a held-out set on a choice (the
    closing notes' 'leave-one-file-out' figures).  The rules in rules.json saw every file, so
    the figures run above a true held-out set's."""
    from ..ask import gate as gate_mod
    from ..paths import resource_path
    files = sorted(resource_path("scope").glob("labelled-*.jsonl"))
    rows = {f: _rows(f) for f in files}
    total = sum(len(r) for r in rows.values())
    examples = gate_mod.training_examples()
    per, done = [], 0
    for f in files:
        held = {r["question"] for r in rows[f]}
        gate = gate_mod.Gate(engine.matcher, [(t, k) for t, k in examples if t not in held])
        for r in rows[f]:
            per.append(_scope_outcome(engine, gate, r, progress, done, total))
            done += 1
    return _scope_report(per)


def _scope_outcome(engine: Engine, gate, row: dict, progress, k: int, n: int) -> dict:
    if progress:
        progress(k, n, row["id"])
    d = gate.decide(row["question"], engine.matcher.match(row["question"]))
    return {"id": row["id"], "label": row["label"], "kind": row.get("kind"), "outcome": d.outcome,
            "got_kind": d.kind}


def _scope_report(per: list[dict]) -> dict:
    def count(label, pred):
        rs = [p for p in per if p["label"] == label]
        return _ratio(sum(1 for p in rs if pred(p)), len(rs))
    kinds = sorted({p["kind"] for p in per if p["label"] == "refuse" and p["kind"]})
    return {
        "questions": len(per),
        "refused": count("refuse", lambda p: p["outcome"] == "refuse"),
        "refused_or_noted": count("refuse", lambda p: p["outcome"] in ("refuse", "scope_note")),
        "refused_by_kind": {k: _ratio(sum(1 for p in per if p["label"] == "refuse" and p["kind"] == k
                                          and p["outcome"] == "refuse"),
                                      sum(1 for p in per if p["label"] == "refuse" and p["kind"] == k)) for k in kinds},
        "near_miss_wrongly_refused": count("answer", lambda p: p["outcome"] == "refuse"),
        "scope_noted": count("scope_note", lambda p: p["outcome"] == "scope_note"),
        "scope_answered": count("scope_note", lambda p: p["outcome"] != "refuse"),
        "silent_lead": count("silent", lambda p: p["outcome"] == "silent"),
        "per_question": per,
    }


def format_scope_report(s: dict, summary_only: bool = False) -> str:
    def pct(r):
        return f"{100 * r['share']:.0f}% ({r['hit']}/{r['of']})" if r["share"] is not None else "—"
    out = [f"问题数：{s['questions']}",
           f"应拒答而拒答：{pct(s['refused'])}（拒答或加范围说明：{pct(s['refused_or_noted'])}）",
           "  各类：" + "；".join(f"{k} {pct(v)}" for k, v in s["refused_by_kind"].items()),
           f"近似而应回答的问题被误拒：{pct(s['near_miss_wrongly_refused'])}",
           f"两部分问题：加范围说明 {pct(s['scope_noted'])}；得到回答 {pct(s['scope_answered'])}",
           f"律典无明文之物：以「律典对此无明文」开头 {pct(s['silent_lead'])}"]
    if not summary_only:
        wrong = [p for p in s["per_question"] if
                 (p["label"] == "refuse" and p["outcome"] != "refuse")
                 or (p["label"] == "answer" and p["outcome"] == "refuse")
                 or (p["label"] == "scope_note" and p["outcome"] != "scope_note")
                 or (p["label"] == "silent" and p["outcome"] != "silent")]
        out += [f"  {p['id']}：应 {p['label']}，得 {p['outcome']}" for p in wrong]
    return "\n".join(out)
