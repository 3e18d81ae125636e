"""The topic skeleton at run time: the pack's topics with the words people use for them.

The pack holds what the texts' structure gives (skeleton.py): each precept, 犍度,
procedure, 篇 and section, its classical names and where each layer treats it.
resources/topics/*.json adds what people say: modern phrasings, further
classical names, the search words specific to the topic, and for a nuns' rule
the monks' rule it repeats ("same_as", whose commentary then serves it too).
"""
from __future__ import annotations

import functools
import json
import sqlite3
from dataclasses import dataclass, field

from ..paths import resource_path
from .skeleton import CLASS_NAME

# Which work's treatment of a topic comes first in its layer: 四分律 before the other Vinayas,
# 行事鈔 and the 疏 before 含注戒本, 資持記 before 行宗記 and 濟緣記 (X0714/X0728 hold a 疏 and its
# 記: T1805 stood after them, so a topic given one or two slots of the 元照 layer showed 行宗記
# and not 資持記; in its place, tune sets +7 gold, dev ±0).
LAYER_WORKS_ORDER = ("T1428", "T1804", "T1805", "X0714", "X0728", "T1808", "T1806",
                     "T1425", "T1421", "T1435")
SKIP_ROLES = {("X0714", "heading")}
NUNS_PIAN = "p.29"          # 行事鈔 尼眾別行篇 (and 資持記's 釋尼眾篇): where 道宣 treats the nuns' own rules      # 「【律】十八畜錢寶戒。」 alone says nothing
CLASS_LABEL = {**CLASS_NAME, "khandhaka": "犍度", "chapter": "四分律章", "procedure": "羯磨法", "pian": "行事鈔篇",
               "section": "篇章", "class": "篇聚"}


@dataclass(frozen=True)
class TopicAnchor:
    layer: str
    work: str
    role: str
    line: int
    end_line: int | None
    col: int = 0             # where on the line it begins: the passage is the one holding that character


@dataclass
class Topic:
    id: str
    cls: str
    num: int
    names: list[str]
    nun: bool
    parent: str | None
    text: str = ""
    same_as: str | None = None
    phrasings: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    anchors: list[TopicAnchor] = field(default_factory=list)
    where: str = ""          # the chapter's name, when another topic has the same name (時藥 of 藥揵度 / 四藥受淨篇)

    @property
    def name(self) -> str:
        return self.names[0] if self.names else self.id

    @property
    def is_rule(self) -> bool:
        return self.cls in CLASS_NAME

    def label(self) -> str:
        """「非時食戒（單提第37）」「比丘尼：獨渡水戒（僧殘第7）」「安居犍度」: how the app names a topic."""
        if self.is_rule:
            who = "比丘尼" if self.nun else ""
            return f"{who}{self.name}（{CLASS_NAME[self.cls]}第{self.num}）"
        return f"{self.name}（{self.where}）" if self.where else self.name

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "label": self.label(), "class": CLASS_LABEL.get(self.cls, self.cls)}


def _load_resources() -> dict[str, dict]:
    """Every resources/topics/*.json merged: topic id -> {names, phrasings, keywords, same_as}."""
    out: dict[str, dict] = {}
    folder = resource_path("topics")
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        data = json.loads(path.read_text(encoding="utf-8"))
        for tid, entry in data.items():
            if tid.startswith("_"):
                continue
            slot = out.setdefault(tid, {})
            for k, v in entry.items():
                if isinstance(v, list):
                    slot.setdefault(k, [])
                    slot[k] += [x for x in v if x not in slot[k]]
                else:
                    slot[k] = v
    return out


@functools.lru_cache(maxsize=1)
def topic_resources() -> dict[str, dict]:
    return _load_resources()


def story_lines(pack) -> frozenset[int]:
    """Lines where a 四分律 rule's story begins (the skeleton's 'story' anchors): retrieval ends a
    rule's material there."""
    return frozenset(line for (line,) in anchor_rows(pack, ("story",), columns=("line",)))


def anchor_rows(pack, roles, works=None, columns=("topic", "work", "line", "col")) -> list[tuple]:
    """``columns`` of the skeleton's anchors of these roles (in these works, or any), without
    loading the whole skeleton: retrieval reads rule openings and combined editions' blocks so."""
    roles, works = list(roles), None if works is None else list(works)
    if not roles or works == []:
        return []
    sql = f"SELECT {', '.join(columns)} FROM topic_anchors WHERE role IN ({','.join('?' * len(roles))})"
    if works is not None:
        sql += f" AND work IN ({','.join('?' * len(works))})"
    try:
        return pack.db.execute(sql, roles + (works or [])).fetchall()
    except sqlite3.OperationalError:       # a pack built before the skeleton (or anchors' col) existed
        return []


class Skeleton:
    """All topics of a pack, with their words; read once per pack."""

    def __init__(self, pack):
        self.pack = pack
        self.topics: dict[str, Topic] = {}
        hand = topic_resources()
        db = pack.db
        try:
            rows = db.execute("SELECT id, cls, num, nun, parent, names, text, same_as FROM topics ORDER BY ord")
            rows = rows.fetchall()
        except sqlite3.OperationalError:       # a pack built before the skeleton existed (no such table)
            rows = []
        for tid, cls, num, nun, parent, names, text, same_as in rows:
            extra = hand.get(tid, {})
            t = Topic(tid, cls, num, list(json.loads(names)), bool(nun), parent, text or "",
                      extra.get("same_as") or same_as, list(extra.get("phrasings", [])),
                      list(extra.get("keywords", [])))
            for n in extra.get("names", []):
                if n not in t.names:
                    t.names.append(n)
            self.topics[tid] = t
        if rows:
            try:
                anchors = db.execute("SELECT topic, layer, work, role, line, end_line, col FROM topic_anchors").fetchall()
            except sqlite3.OperationalError:       # a pack built before anchors had a column
                anchors = [(*r, 0) for r in db.execute(
                    "SELECT topic, layer, work, role, line, end_line FROM topic_anchors").fetchall()]
            for tid, layer, work, role, line, end, col in anchors:
                if tid in self.topics:
                    self.topics[tid].anchors.append(TopicAnchor(layer, work, role, line, end, col))
        self._share_names()
        self.treated_as = self._procedures_named_as_rules()
        self._tell_apart()
        # a nuns' rule that repeats the monks' rule is treated where the monks' rule is
        self.nun_version: dict[str, str] = {}
        for t in self.topics.values():
            if t.same_as and t.same_as in self.topics:
                self.nun_version.setdefault(t.same_as, t.id)

    def _procedures_named_as_rules(self) -> dict[str, str]:
        """A 犍度's procedure the texts name as a rule (滅諍揵度's 現前毘尼 … 如草覆地 are the seven
        滅諍 of the 戒本) is treated where that rule is: 含注戒本 and 戒本疏 / 行宗記 state and explain
        each, while 行事鈔 gives the 犍度 no 篇 of its own."""
        rules: dict[str, str] = {}
        for t in self.topics.values():
            if t.is_rule and not t.nun:
                for n in t.names:
                    rules.setdefault(n, t.id)
        return {t.id: rules[t.names[0]] for t in self.topics.values()
                if t.cls == "procedure" and t.names and t.names[0] in rules}

    def _share_names(self) -> None:
        """A nuns' rule that is a monks' rule (same_as) carries that rule's names; the monks' rule
        takes the names the texts give the nuns' version too (戒本疏's 「著富羅入塔戒」 for the
        戒本's 著富羅入佛塔中), so either name finds the one rule.  The nuns' rule searches with the
        monks' rule's search words after its own (視比坐 for 嫌視比座戒: 108 such rules had none)."""
        for t in self.topics.values():
            monks = self.topics.get(t.same_as) if t.same_as else None
            if monks is not None:
                monks.names += [n for n in t.names if "尼" not in n and n not in monks.names]
                t.keywords += [k for k in monks.keywords if k not in t.keywords]

    def _tell_apart(self) -> None:
        """Topics of one name (時藥 is a procedure of 藥揵度 and a section of 四藥受淨篇) are labelled
        with their chapter, so that a list of chosen topics never reads 「時藥、時藥」."""
        by_name: dict[str, list[Topic]] = {}
        for t in self.topics.values():
            if not t.is_rule:
                by_name.setdefault(t.name, []).append(t)
        for same in by_name.values():
            if len(same) < 2:
                continue
            for t in same:
                up = self.topics.get(t.parent) if t.parent else None
                t.where = up.name if up else CLASS_LABEL.get(t.cls, t.cls)

    def __len__(self) -> int:
        return len(self.topics)

    def get(self, tid: str) -> Topic | None:
        return self.topics.get(tid)

    def children(self, tid: str) -> list[Topic]:
        return [t for t in self.topics.values() if t.parent == tid]

    def anchors(self, t: Topic, layer: str | None = None) -> list[TopicAnchor]:
        """Where each layer treats the topic: its own places first, then (for a nuns' rule that
        repeats a monks' rule, or a procedure named as a rule) that rule's places in works where it
        has none of its own — and, for the nuns' rule, the monks' rule's Vinaya places in any case
        (the Vinayas tell a shared rule's story and 不犯 at the monks' rule only)."""
        own = list(t.anchors)
        for other in (t.same_as, self.treated_as.get(t.id)):
            if other and other in self.topics:
                have = {a.work for a in own}
                own += [a for a in self.topics[other].anchors if a.work not in have
                        or (other == t.same_as and a.layer == "vinaya")]
        # 尼眾別行篇 is where 行事鈔 (and 資持記 on it) treats a nuns' own rule: it stands beside
        # 比丘尼鈔's and 羯磨疏's notes on the rule, in every layer
        if t.nun and t.is_rule and not t.same_as and NUNS_PIAN in self.topics:
            own += [TopicAnchor(a.layer, a.work, "chapter", a.line, a.end_line)
                    for a in self.topics[NUNS_PIAN].anchors if a.role != "exempt"]
        # a layer that does not treat the topic on its own treats the chapter around it: a
        # procedure's 犍度 and 篇, a section's 篇
        # (a 眾學 group's 疏 in 戒本疏 does not count: 行事鈔 and 資持記 treat the class whole)
        have_layers = {a.layer for a in own if a.role != "group"}
        ups = self._chapters_of(t)
        if t.same_as and t.same_as in self.topics:      # … and the monks' rule's chapter, which the
            ups += self._chapters_of(self.topics[t.same_as])   # commentaries treat (眾學 of the nuns)
        for up in ups:
            for a in up.anchors:
                if a.layer not in have_layers and a.role != "exempt":
                    own.append(TopicAnchor(a.layer, a.work, "chapter", a.line, a.end_line))
            have_layers |= {a.layer for a in own}
        rank = {w: i for i, w in enumerate(LAYER_WORKS_ORDER)}
        own.sort(key=lambda a: (rank.get(a.work, 99), a.role == "exempt"))
        return [a for a in own if (layer is None or a.layer == layer) and (a.work, a.role) not in SKIP_ROLES]

    def _chapters_of(self, t: Topic) -> list[Topic]:
        out = []
        if t.parent and t.parent in self.topics:
            out.append(self.topics[t.parent])
            grand = self.topics[t.parent].parent
            if grand and grand in self.topics:
                out.append(self.topics[grand])
        return out

    def matchable(self) -> list[Topic]:
        """Topics a question can be matched to: a nuns' rule that repeats a monks' rule is reached
        through the monks' rule (and chosen when the question is about nuns)."""
        return [t for t in self.topics.values() if not t.same_as]


# -- coverage report ------------------------------------------------------------------------

REPORT_CLASSES = (("m", "比丘", ("pr", "sa", "ai", "np", "pc", "pd", "sk", "as"), 250),
                  ("n", "比丘尼", ("pr", "sa", "np", "pc", "pd", "sk", "as"), 348))
REPORT_LAYERS = ("vinaya", "daoxuan", "yuanzhao")
OTHER_VINAYAS = (("T1421", "五分"), ("T1425", "僧祇"), ("T1435", "十誦"))   # where the same rule is stated


def report(skeleton: Skeleton) -> dict:
    """Counts per class against the 戒本's, the 犍度 and 篇 found, and which topics lack a layer."""
    from .skeleton import EXPECTED
    topics = list(skeleton.topics.values())

    def layers_of(t: Topic) -> set[str]:
        return {a.layer for a in skeleton.anchors(t)}

    def rule_works(t: Topic) -> set[str]:
        return {a.work for a in skeleton.anchors(t) if a.role == "rule"}

    out: dict = {"orders": [], "chapters": {}, "missing": {}}
    for order, who, classes, total in REPORT_CLASSES:
        rows = []
        for cls in classes:
            items = [t for t in topics if t.id.startswith(f"{order}.{cls}.")]
            rows.append({"class": CLASS_NAME[cls], "count": len(items), "expected": EXPECTED[order][cls],
                         **{layer: sum(1 for t in items if layer in layers_of(t)) for layer in REPORT_LAYERS},
                         "other_vinayas": {w: sum(1 for t in items if w in rule_works(t)) for w, _ in OTHER_VINAYAS}})
        out["orders"].append({"order": who, "count": sum(r["count"] for r in rows), "expected": total,
                              "classes": rows})
    for cls, label in (("khandhaka", "犍度"), ("procedure", "犍度中的羯磨法"), ("pian", "行事鈔篇"),
                       ("section", "篇中章节")):
        items = [t for t in topics if t.cls == cls]
        out["chapters"][label] = {"count": len(items), "names": [t.name for t in items],
                                  **{layer: sum(1 for t in items if layer in layers_of(t))
                                     for layer in REPORT_LAYERS}}
    for layer in REPORT_LAYERS:
        out["missing"][layer] = [t.id for t in topics if t.cls != "class" and layer not in layers_of(t)]
    out["phrased"] = sum(1 for t in topics if t.phrasings or (t.same_as and skeleton.get(t.same_as)
                                                               and skeleton.get(t.same_as).phrasings))
    out["topics"] = len(topics)
    return out


def format_report(r: dict) -> str:
    lines = [f"主题骨架：共 {r['topics']} 个主题，{r['phrased']} 个带白话说法", ""]
    for o in r["orders"]:
        mark = "✓" if o["count"] == o["expected"] else "✗"
        lines.append(f"{o['order']}戒：{o['count']} 条（应为 {o['expected']}）{mark}")
        others = any(n for c in o["classes"] for n in c["other_vinayas"].values())
        lines.append("  篇聚      条数/应有   律本   道宣   元照" +
                     ("   " + "  ".join(name for _, name in OTHER_VINAYAS) + "（同条）" if others else ""))
        for c in o["classes"]:
            lines.append(f"  {c['class']:<6}  {c['count']:>4}/{c['expected']:<4}  {c['vinaya']:>5}  "
                         f"{c['daoxuan']:>5}  {c['yuanzhao']:>5}" +
                         ("".join(f"  {c['other_vinayas'][w]:>4}" for w, _ in OTHER_VINAYAS) if others else ""))
    lines.append("")
    for label, c in r["chapters"].items():
        lines.append(f"{label}：{c['count']} 个（律本 {c['vinaya']}、道宣 {c['daoxuan']}、元照 {c['yuanzhao']}）")
        if label in ("犍度", "行事鈔篇"):
            lines.append("  " + "、".join(c["names"]))
    lines.append("")
    for layer, ids in r["missing"].items():
        name = {"vinaya": "律本", "daoxuan": "道宣", "yuanzhao": "元照"}[layer]
        shown = "、".join(ids[:40]) + ("……" if len(ids) > 40 else "")
        lines.append(f"缺{name}层的主题 {len(ids)} 个：{shown}")
    return "\n".join(lines)
