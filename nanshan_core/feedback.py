"""Reader feedback on quotations and material cards, kept on this machine only.

A reader marks a quotation or a card 有帮助 / 不相关 / 出处有误, perhaps with a
note.  Each mark is saved at once with what a maintainer needs to reproduce
it — the question, the chosen terms, the coordinate, the quoted words or the
card's material, and which pack and app answered — because a mark without its
question and pack cannot be acted on later.  Nothing is sent anywhere: a
teacher exports the marks as JSONL and passes the file on by hand.

The store is one JSON file in the user data directory, written like every
other user file (userdata.atomic_write_json: a kill mid-save leaves the old
file or the new one, whole); an unreadable file is moved aside, not deleted.
"""
from __future__ import annotations

import datetime as _dt
import json
import threading
import uuid
from collections import Counter
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from . import __version__
from .corpus.works import LAYER_NAMES
from .errors import NanshanError
from .paths import user_data_dir
from .userdata import atomic_write_json, atomic_write_text, load_json

FILE_NAME = "feedback.json"
KINDS = {"helpful": "有帮助", "irrelevant": "不相关", "wrong_source": "出处有误"}
FLAGS = ("irrelevant", "wrong_source")      # the kinds that point at something to fix
TARGETS = {"quote": "答案引文", "card": "材料卡片"}
MAX_NOTE = 500
CARD_EXCERPT = 120          # characters of a card's text kept to recognise it without the pack
TOP_COORDS = 10


class FeedbackError(NanshanError):
    """A mark that cannot be kept as given (unknown kind, a note too long)."""


@dataclass
class FeedbackRecord:
    kind: str                       # helpful | irrelevant | wrong_source
    target: str                     # quote (in the answer) | card (a material card)
    question: str
    terms: list = field(default_factory=list)
    coord: str | None = None        # the quote's verified line, or the card's first line
    note: str = ""
    quote: str = ""                 # the quoted words (a quote) or the card's opening (a card)
    level: str | None = None        # a quote's verification level: line | paragraph | unverified
    quotes: list = field(default_factory=list)   # a card's quotes: [{quote, coord, level}]
    material: int | None = None
    layer: str = ""
    work: str = ""
    title: str = ""
    juan: int | None = None
    category: str = ""
    model: str | None = None        # the model that wrote the answer; None: the program's excerpts
    pack: dict = field(default_factory=dict)      # built, fingerprint, schema, edition
    app_version: str = __version__
    created: str = ""
    id: str = ""

    @property
    def label(self) -> str:
        return KINDS.get(self.kind, self.kind)

    def to_json(self) -> dict:
        return asdict(self)

    def export_json(self) -> dict:
        """One exported line: the record plus the words a teacher reads (有帮助, 律本)."""
        return {"kind_label": self.label, "target_label": TARGETS.get(self.target, self.target),
                "layer_label": LAYER_NAMES.get(self.layer, self.layer), **self.to_json()}

    @classmethod
    def from_json(cls, d: dict) -> "FeedbackRecord":
        """Unknown keys (a later version's) are dropped rather than refused."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


def _record_like(x) -> bool:
    return (isinstance(x, dict) and x.get("kind") in KINDS and x.get("target") in TARGETS
            and isinstance(x.get("question"), str) and isinstance(x.get("terms", []), list)
            and all(isinstance(x.get(k, ""), str) for k in ("note", "quote", "id", "created")))


def _key(r: FeedbackRecord) -> tuple:
    return (r.kind, r.target, r.question, tuple(r.terms), r.coord, r.material, r.quote, r.pack.get("built"))


def _valid(data) -> bool:
    return isinstance(data, list) and all(map(_record_like, data))


def check_note(note: str | None) -> str:
    note = (note or "").strip()
    if len(note) > MAX_NOTE:
        raise FeedbackError(f"附注过长（{len(note)} 字），请精简到 {MAX_NOTE} 字以内。")
    return note


def pack_identity(manifest: dict | None) -> dict:
    """What tells one pack from another: when it was built, from which code (fingerprint),
    in which format (schema), from which CBETA edition."""
    m = manifest or {}
    return {"built": m.get("built"), "fingerprint": m.get("fingerprint"), "schema": m.get("schema"),
            "edition": (m.get("cbeta") or {}).get("edition"), "built_by": m.get("app_version")}


# -- records from an answer ------------------------------------------------------------------

def _context(result, manifest) -> dict:
    sel = result.selection
    return {"question": result.question, "terms": list(sel.texts), "category": sel.category or "",
            "model": (result.model or {}).get("name"),
            "pack": pack_identity(manifest)}


def quote_record(kind: str, result, citation, manifest: dict | None = None, note: str = "") -> FeedbackRecord:
    """A mark on one quotation of the answer."""
    m = next((x for x in result.materials if x.n == citation.material), None)
    return FeedbackRecord(kind=kind, target="quote", coord=citation.coord, note=note, quote=citation.quote,
                          level=citation.level, material=citation.material,
                          **_material_fields(m), **_context(result, manifest))


def card_record(kind: str, result, material, citations: list, manifest: dict | None = None,
                note: str = "") -> FeedbackRecord:
    """A mark on one material card, with the quotes the card shows."""
    text = material.text
    excerpt = text if len(text) <= CARD_EXCERPT else text[:CARD_EXCERPT] + "…"
    return FeedbackRecord(kind=kind, target="card", coord=material.start_coord, note=note, quote=excerpt,
                          quotes=[{"quote": c.quote, "coord": c.coord, "level": c.level} for c in citations],
                          material=material.n, **_material_fields(material), **_context(result, manifest))


def _material_fields(m) -> dict:
    if m is None:
        return {}
    return {"layer": m.layer, "work": m.work, "title": m.title, "juan": m.juan}


# -- the store --------------------------------------------------------------------------------

class FeedbackStore:
    """The reader's marks; thread-safe; every change written at once."""

    def __init__(self, data_dir: Path | None = None):
        self.path = Path(data_dir or user_data_dir()) / FILE_NAME
        self._lock = threading.Lock()
        loaded = load_json(self.path, [], _valid)
        self.message: str | None = loaded.message      # set when a corrupt file was moved aside
        self._records = [FeedbackRecord.from_json(d) for d in loaded.data]

    def add(self, record: FeedbackRecord) -> FeedbackRecord:
        if record.kind not in KINDS:
            raise FeedbackError(f"未知的反馈类别：{record.kind}（可用：{'、'.join(KINDS.values())}）")
        if record.target not in TARGETS:
            raise FeedbackError(f"未知的反馈对象：{record.target}")
        record.note = check_note(record.note)
        with self._lock:
            same = next((r for r in self._records if _key(r) == _key(record)), None)
        if same is not None:            # a double click, or the same mark again: counted once
            return same
        record.id = record.id or uuid.uuid4().hex[:12]
        record.created = record.created or _dt.datetime.now().astimezone().isoformat(timespec="seconds")
        with self._lock:
            self._records.append(record)
            try:
                self._save()
            except BaseException:
                self._records.remove(record)       # what is listed is what is on disk
                raise
        return record

    def set_note(self, record_id: str, note: str) -> FeedbackRecord:
        note = check_note(note)
        with self._lock:
            rec = next((r for r in self._records if r.id == record_id), None)
            if rec is None:
                raise FeedbackError("找不到这条反馈（可能已被删除）。")
            old, rec.note = rec.note, note
            try:
                self._save()
            except BaseException:
                rec.note = old
                raise
            return rec

    def list(self, kind: str | None = None) -> list[FeedbackRecord]:
        with self._lock:
            return [r for r in self._records if kind is None or r.kind == kind]

    def __len__(self) -> int:
        return len(self._records)

    def _save(self) -> None:
        atomic_write_json(self.path, [r.to_json() for r in self._records])

    def summary(self) -> dict:
        return summarise(self.list())

    def export_jsonl(self, path: str | Path) -> int:
        """Every record, one JSON object per line (UTF-8, characters as written); the count."""
        records = self.list()
        atomic_write_text(Path(path), "".join(json.dumps(r.export_json(), ensure_ascii=False) + "\n"
                                              for r in records))
        return len(records)


def summarise(records: list[FeedbackRecord]) -> dict:
    """Counts by kind, by layer and by work (each split by kind), and the coordinates marked
    不相关 or 出处有误 most often — where a maintainer should look first."""
    def split(key) -> dict:
        out: dict[str, dict] = {}
        for r in records:
            k = key(r)
            if k:
                out.setdefault(k, Counter())[r.kind] += 1
        return {k: {"total": sum(c.values()), **{kind: c[kind] for kind in KINDS}}
                for k, c in sorted(out.items(), key=lambda x: -sum(x[1].values()))}
    by_kind = Counter(r.kind for r in records)
    titles = {r.work: r.title for r in records if r.work}
    flagged: dict[str, Counter] = {}
    for r in records:
        if r.kind in FLAGS and r.coord:
            flagged.setdefault(r.coord, Counter())[r.kind] += 1
    top = sorted(flagged.items(), key=lambda x: (-sum(x[1].values()), x[0]))[:TOP_COORDS]
    return {"total": len(records), "by_kind": {k: by_kind[k] for k in KINDS},
            "by_layer": split(lambda r: r.layer), "by_work": split(lambda r: r.work),
            "work_titles": titles, "notes": sum(1 for r in records if r.note),
            "flagged_coords": [{"coord": c, "total": sum(n.values()), **{k: n[k] for k in FLAGS}} for c, n in top]}


def _kinds_text(counts: dict, kinds=tuple(KINDS)) -> str:
    return " · ".join(f"{KINDS[k]} {counts.get(k, 0)}" for k in kinds)


def format_summary(summary: dict, path: Path | None = None) -> str:
    where = f"\n文件：{path}" if path else ""
    if not summary["total"]:
        return ("还没有反馈。在答案的引文或材料卡片上点「有帮助」「不相关」「出处有误」即可记下。" + where)
    out = [f"反馈共 {summary['total']} 条（{_kinds_text(summary['by_kind'])}），其中 {summary['notes']} 条有附注"]
    if summary["by_layer"]:
        out.append("按层：")
        out += [f"  {LAYER_NAMES.get(k, k)} {v['total']}（{_kinds_text(v)}）" for k, v in summary["by_layer"].items()]
    if summary["by_work"]:
        out.append("按典籍：")
        titles = summary.get("work_titles", {})
        out += [f"  {k}《{titles.get(k, '')}》 {v['total']}（{_kinds_text(v)}）" for k, v in summary["by_work"].items()]
    if summary["flagged_coords"]:
        out.append("标为不相关或出处有误最多的坐标：")
        out += [f"  {x['coord']}  {x['total']}（{_kinds_text(x, FLAGS)}）" for x in summary["flagged_coords"]]
    return "\n".join(out) + where
