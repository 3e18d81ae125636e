"""The works of the corpus, their layers, and where their files are.

The default corpus and each work's layer are data (resources/works.json), not
code: adding a work to a wider pack means adding a line there.  This module
finds a work's files in either CBETA layout and checks that none is missing.
"""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import CorpusError
from ..paths import resource_path
from .tei import LayerRules

LAYERS = ("vinaya", "daoxuan", "yuanzhao")
LAYER_NAMES = {"vinaya": "律本", "daoxuan": "道宣", "yuanzhao": "元照", "other": "其他"}
WORK_RE = re.compile(r"^([TX])(\d{3,4}[A-Za-z]?)$")


@dataclass(frozen=True)
class WorkInfo:
    id: str                 # T1428
    short: str              # 四分律
    layer: str              # vinaya / daoxuan / yuanzhao / combined
    group: str              # 四律 / 五論 / 道宣 / 元照 / 合編
    front_matter: dict = field(default_factory=dict, hash=False, compare=False)
    records: dict = field(default_factory=dict, hash=False, compare=False)

    @property
    def canon(self) -> str:
        return self.id[0]

    @property
    def number(self) -> str:
        return self.id[1:]

    def rules(self) -> LayerRules:
        return LayerRules(self.layer, dict(self.front_matter), dict(self.records))


@functools.lru_cache(maxsize=1)
def catalog() -> dict[str, WorkInfo]:
    data = json.loads(resource_path("works.json").read_text(encoding="utf-8"))
    return {w["id"]: WorkInfo(w["id"], w["short"], w["layer"], w["group"], w.get("front_matter", {}),
                              w.get("records", {}))
            for w in data["works"]}


@functools.lru_cache(maxsize=1)
def layer_titles() -> dict[str, dict[str, str]]:
    """Combined editions: the title of each layer's own text (X0714: 四分律戒本 / 戒本疏 / 行宗記)."""
    data = json.loads(resource_path("works.json").read_text(encoding="utf-8"))
    return {w["id"]: w["layer_titles"] for w in data["works"] if w.get("layer_titles")}


def title_for(work_id: str, layer: str, default: str) -> str:
    return layer_titles().get(work_id, {}).get(layer, default)


def explains() -> dict[str, str]:
    """Commentary work -> the work it explains in order (資持記 -> 行事鈔)."""
    data = json.loads(resource_path("works.json").read_text(encoding="utf-8"))
    return {w["id"]: w["explains"] for w in data["works"] if w.get("explains")}


def default_works() -> list[str]:
    return list(catalog())


def work_info(work_id: str) -> WorkInfo:
    """Catalogued works keep their layer; an uncatalogued one (wider packs) is 'other', grouped as
    其他律部 (the Taishō's other Vinaya works) or 其他注疏 (the other commentaries)."""
    norm = normalise_work_id(work_id)
    return catalog().get(norm) or WorkInfo(norm, norm, "other", WIDER_GROUPS.get(norm[0], "其他"))


def normalise_work_id(text: str) -> str:
    """'T1428', 't1428', 'X714' -> 'T1428', 'X0714'."""
    m = WORK_RE.match(text.strip().upper() if text else "")
    if not m:
        raise CorpusError(f"经号格式不对：「{text}」，应如 T1428 或 X0714")
    digits = re.match(r"\d+", m[2]).group(0)
    return f"{m[1]}{int(digits):04d}{m[2][len(digits):].lower()}"


@dataclass
class WorkFiles:
    work: str
    files: list[Path]       # in reading order (volume, then fascicle)
    layout: str             # 'fascicle' (one file per 卷) or 'work' (one file per work)


def _sort_key(p: Path):
    m = re.match(r"[A-Z]+(\d+)n\w+?(?:_(\d+))?$", p.stem)
    return (int(m[1]), int(m[2] or 0)) if m else (0, 0)


def find_work_files(cbeta: Path, work_id: str) -> WorkFiles:
    """Locate a work's XML in a CBETA tree (2014 one-file-per-fascicle or current one-file-per-work)."""
    canon, num = work_id[0], work_id[1:]
    base = cbeta / canon
    if not base.is_dir():
        raise CorpusError(f"CBETA 目录 {cbeta} 下没有 {canon}/ 子目录，找不到 {work_id}")
    per_fasc = sorted(base.glob(f"{canon}*/{canon}*n{num}_*.xml"), key=_sort_key)
    per_fasc = [p for p in per_fasc if re.fullmatch(rf"{canon}\d+n{num}_\d+", p.stem)]
    if per_fasc:
        return WorkFiles(work_id, per_fasc, "fascicle")
    whole = sorted(base.glob(f"{canon}*/{canon}*n{num}.xml"), key=_sort_key)
    if whole:
        return WorkFiles(work_id, whole, "work")
    raise CorpusError(f"在 {cbeta} 中找不到 {work_id} 的 XML 文件（应如 {canon}??/{canon}??n{num}_001.xml）")


def check_fascicles_complete(work_id: str, juans: list[int], extent: int | None, files: list[Path]) -> list[int]:
    """The work holds every fascicle CBETA declares; returns the juan numbers it has.

    CBETA's <extent> counts the fascicles it publishes, which is not always 1..N: 四分律疏
    飾宗義記 X0733 declares 8 and has juans 2-8 and 10 (the others were lost before CBETA).
    So the count is checked against the declaration; only without one must the numbers
    run without a gap.  A file really missing leaves fewer fascicles than declared and
    stops the build with the numbers that are there."""
    have = sorted(set(juans))
    if extent:
        if len(have) >= extent:
            return have
        gaps = [j for j in range(1, max(have[-1], extent) + 1) if j not in have] if have else list(range(1, extent + 1))
        shown = "、".join(f"卷{j}" for j in gaps[:8])
        raise CorpusError(f"{work_id} 应有 {extent} 卷，只找到 {len(have)} 卷（缺：{shown}；在 {files[0].parent} 中）")
    missing = [j for j in range(have[0], have[-1] + 1) if j not in have] if have else []
    if missing:
        shown = "、".join(f"卷{j}" for j in missing[:8])
        raise CorpusError(f"{work_id} 缺少 {len(missing)} 卷：{shown}（在 {files[0].parent} 中找到 {len(have)} 卷）")
    return have


WIDER_GROUPS = {"T": "其他律部", "X": "其他注疏"}


def all_works(cbeta: Path) -> list[str]:
    """Every work in a CBETA tree (the whole 律部 of ../shared/cbeta): the default works first, in
    their order, then the others in canon order."""
    found: set[str] = set()
    for canon in ("T", "X"):
        base = Path(cbeta) / canon
        for p in base.glob(f"{canon}*/{canon}*.xml") if base.is_dir() else ():
            m = re.match(rf"{canon}\d+n(\w+?)(?:_\d+)?$", p.stem)
            if m:
                found.add(normalise_work_id(f"{canon}{m[1]}"))
    default = [w for w in default_works() if w in found]
    return default + sorted(found - set(default), key=lambda w: (w[0], w[1:]))
