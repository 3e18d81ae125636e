"""Building the corpus pack from a CBETA tree.

The pack is everything the app reads at run time: printed lines, records with
their line tables, passages, the normalisation map, the Whoosh index and a
manifest with counts and checksums.  The build validates as it goes and stops
at the first anomaly with the file and line, because a silently wrong line
model would make every coordinate shown afterwards wrong.  It writes into a
temporary directory beside the target and renames it into place only when
complete, so an interrupted build never leaves a half pack behind.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import re
import shutil
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import index as nindex
from . import skeleton
from .. import __version__
from ..errors import BuildCancelled, CorpusError
from ..text import PASSAGE_TARGET, chunk_spans, cjk_count
from .links import LinkPassage, build_links
from .normalize import Normalizer
from .tei import Fascicle, Header, read_file
from .works import check_fascicles_complete, default_works, explains, find_work_files, normalise_work_id, work_info

# progress(stage, done, total, message); raise BuildCancelled inside to stop.
Progress = Callable[[str, int, int, str], None]

DB_NAME = "corpus.sqlite"
MANIFEST = "manifest.json"

SCHEMA_SQL = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE works(id TEXT PRIMARY KEY, canon TEXT, title TEXT, short TEXT, author TEXT,
                   layer TEXT, grp TEXT, extent INTEGER, edition TEXT, availability TEXT, source TEXT);
CREATE TABLE fascicles(id INTEGER PRIMARY KEY, key TEXT UNIQUE, work TEXT, vol INTEGER, juan INTEGER,
                       source TEXT, first_line INTEGER, last_line INTEGER);
CREATE TABLE lines(id INTEGER PRIMARY KEY, fascicle INTEGER, coord TEXT UNIQUE, r TEXT,
                   text TEXT, notes TEXT);
CREATE TABLE records(id INTEGER PRIMARY KEY, fascicle INTEGER, para_id TEXT UNIQUE, kind TEXT,
                     layer TEXT, text TEXT, lines TEXT, notes TEXT);
CREATE TABLE passages(id INTEGER PRIMARY KEY, fascicle INTEGER, layer TEXT, segments TEXT);
CREATE TABLE gaiji(char TEXT PRIMARY KEY, cb TEXT, unicode TEXT, normal TEXT, composition TEXT);
CREATE TABLE charmap(src TEXT PRIMARY KEY, dst TEXT);
CREATE INDEX lines_fasc ON lines(fascicle);
CREATE INDEX lines_r ON lines(r);
CREATE INDEX records_fasc ON records(fascicle);
CREATE TABLE links(src INTEGER, dst INTEGER, weight REAL);
CREATE INDEX links_src ON links(src);
CREATE TABLE passage_of_record(record INTEGER, passage INTEGER, start INTEGER, "end" INTEGER);
CREATE INDEX por_record ON passage_of_record(record);
CREATE TABLE toc(id INTEGER PRIMARY KEY, work TEXT, fascicle INTEGER, level INTEGER, type TEXT, label TEXT,
                 line INTEGER, continued INTEGER);
CREATE INDEX toc_work ON toc(work);
"""

# Records that are structure, not content: kept for reading, not offered as materials.
UNSEARCHED_KINDS = {"juan", "byline", "docNumber"}


@dataclass
class WorkData:
    id: str
    header: Header
    fascicles: list[Fascicle] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)
    gaiji: dict[str, str] = field(default_factory=dict)   # given character -> CB id
    juans: list[int] = field(default_factory=list)        # the fascicles CBETA publishes of it


def _noop(stage, done, total, message):
    pass


# What a pack is derived from besides CBETA: if any of these change, the pack is stale.
_FINGERPRINT_SOURCES = ("corpus/tei.py", "corpus/build.py", "corpus/index.py", "corpus/normalize.py", "text.py",
                        "corpus/works.py", "corpus/links.py", "corpus/skeleton.py")
_FINGERPRINT_RESOURCES = ("works.json", "variants.tsv", "skeleton.json", "topics/nuns.json",
                          "topics/monks.json")


def source_fingerprint() -> str:
    """Hash of the code and resources that shape a pack (not of CBETA itself)."""
    from ..paths import resource_path
    h = hashlib.sha256(str(nindex.SCHEMA_VERSION).encode())
    here = Path(__file__).resolve().parent.parent      # the nanshan_core package
    for name in _FINGERPRINT_SOURCES:
        h.update((here / name).read_bytes())
    for name in _FINGERPRINT_RESOURCES:
        h.update(resource_path(name).read_bytes())
    return h.hexdigest()[:16]


def pack_is_current(path: Path, works: list[str] | None = None) -> bool:
    """True when ``path`` holds a complete pack built by this code for these works."""
    try:
        manifest = json.loads((Path(path) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    wanted = [normalise_work_id(w) for w in (works or default_works())]
    return (manifest.get("fingerprint") == source_fingerprint()
            and [w["id"] for w in manifest.get("works", [])] == wanted
            and all((Path(path) / rel).exists() for rel in manifest.get("files", {})))


def build_pack(cbeta: Path, out: Path, works: list[str] | None = None,
               progress: Progress | None = None) -> dict:
    """Build a pack from ``cbeta`` into ``out``; returns the manifest."""
    progress = progress or _noop
    t0 = time.perf_counter()
    cbeta = Path(cbeta)
    if not cbeta.is_dir():
        raise CorpusError(f"CBETA 目录不存在：{cbeta}")
    work_ids = [normalise_work_id(w) for w in (works or default_works())]
    if not work_ids:
        raise CorpusError("没有指定任何经典")
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    _clear_leftovers(out)
    tmp = out.parent / f".{out.name}.building-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir()
    try:
        data = _read_all(cbeta, work_ids, progress)
        timings = {"parse_s": round(time.perf_counter() - t0, 2)}
        _validate(data)
        manifest = _write(tmp, cbeta, data, progress, timings)
        manifest["build"]["seconds"] = round(time.perf_counter() - t0, 1)
        _write_manifest(tmp, manifest)
        _swap_into_place(tmp, out)
        return manifest
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _read_all(cbeta: Path, work_ids: list[str], progress: Progress) -> list[WorkData]:
    located = [find_work_files(cbeta, w) for w in work_ids]
    total = sum(len(wf.files) for wf in located)
    done = 0
    out: list[WorkData] = []
    for wf in located:
        info = work_info(wf.work)
        wd = None
        for path in wf.files:
            progress("parse", done, total, f"读取 {path.name}")
            parsed = read_file(path, info.rules(), source=str(path.relative_to(cbeta)))
            if parsed.header.work != wf.work:
                raise CorpusError(f"{path}: 文件头的经号是 {parsed.header.work}，不是 {wf.work}")
            if wd is None:
                wd = WorkData(wf.work, parsed.header)
            wd.fascicles.extend(parsed.fascicles)
            wd.files.append(path)
            wd.header.chars.update(parsed.header.chars)
            wd.gaiji.update(parsed.gaiji)
            done += 1
        progress("parse", done, total, f"已读取 {wf.work}")
        wd.juans = check_fascicles_complete(wf.work, [f.juan for f in wd.fascicles], wd.header.extent, wd.files)
        out.append(wd)
    return out


def _validate(data: list[WorkData]) -> None:
    """Each printed line exactly once; line numbers strictly increasing within each column."""
    seen: dict[str, str] = {}
    for wd in data:
        prev = None
        columns: set = set()
        chars = 0
        for fasc in wd.fascicles:
            for line in fasc.lines:
                key = line.key
                if key in seen:
                    raise CorpusError(f"{fasc.source}: 行 {key} 重复出现（另见 {seen[key]}）")
                seen[key] = fasc.source
                col = line.coord.column_key
                if prev is not None and col == prev.column_key:
                    if line.coord.line <= prev.line:
                        raise CorpusError(f"{fasc.source}: 行号未递增：{prev.short()} 之后是 {line.coord.short()}")
                elif col in columns:
                    raise CorpusError(f"{fasc.source}: 欄 {line.coord.short()[:5]} 在 {line.coord.short()} 处再次出现，行序错乱")
                columns.add(col)
                prev = line.coord
            chars += sum(len(r.text) for r in fasc.records)
        if chars == 0:
            raise CorpusError(f"{wd.id} 没有任何正文文字（{wd.files[0]}）")


def _write(tmp: Path, cbeta: Path, data: list[WorkData], progress: Progress, timings: dict) -> dict:
    t = time.perf_counter()
    gaiji_all: dict[str, tuple] = {}
    gaiji_fold: dict[str, str] = {}
    for wd in data:
        for given, ref in wd.gaiji.items():
            info = wd.header.chars.get(ref, {})
            gaiji_all[given] = (ref, info.get("unicode"), info.get("normal"), info.get("composition"))
            # Search folds a rare character to its normalised form (or a private-use
            # glyph to its Unicode code point), so 冐 finds the glyph CBETA gives.
            target = info.get("normal") or info.get("unicode")
            if target and target != given and len(target) == 1:
                gaiji_fold[given] = target
    chars = set()
    for wd in data:
        for f in wd.fascicles:
            for r in f.records:
                chars.update(r.text)
    norm = Normalizer.build(chars, gaiji_fold)

    db = sqlite3.connect(tmp / DB_NAME)
    db.executescript(SCHEMA_SQL)
    stats_works = []
    line_id = rec_id = 0
    fasc_id = 0
    passage_rows = []  # (segments [(record row, start, end)], work, layer, fascicle key, fascicle row, para_id, start coord, text)
    total_fasc = sum(len(wd.fascicles) for wd in data)
    done = 0
    for wd in data:
        info = work_info(wd.id)
        h = wd.header
        title = h.title.split("(")[0].strip()
        short = info.short if info.short != wd.id else _short_title(title)
        db.execute("INSERT INTO works VALUES(?,?,?,?,?,?,?,?,?,?,?)",
                   (wd.id, h.canon, title, short, h.author, info.layer, info.group, h.extent,
                    h.edition, h.availability, h.source))
        toc_seen: set = set()     # a heading repeated at a fascicle's start continues the one before
        w_stats = {"id": wd.id, "title": title, "short": short, "author": h.author,
                   "layer": info.layer, "group": info.group, "fascicles": len(wd.fascicles),
                   "juans": wd.juans, "extent": h.extent,
                   "paragraphs": 0, "lines": 0, "chars": 0, "cjk_chars": 0, "layers": {}}
        for fasc in wd.fascicles:
            done += 1
            progress("store", done, total_fasc, f"写入 {fasc.key}")
            fasc_id += 1
            first = line_id + 1
            line_ids = []
            for line in fasc.lines:
                line_id += 1
                line_ids.append(line_id)
                db.execute("INSERT INTO lines VALUES(?,?,?,?,?,?)",
                           (line_id, fasc_id, line.key, line.r, line.text,
                            json.dumps(line.notes) if line.notes else None))
            db.execute("INSERT INTO fascicles VALUES(?,?,?,?,?,?,?,?)",
                       (fasc_id, fasc.key, wd.id, fasc.vol, fasc.juan, fasc.source, first, line_id))
            for e in fasc.toc:
                key = (e.level, e.type, e.label)
                db.execute("INSERT INTO toc(work, fascicle, level, type, label, line, continued) VALUES(?,?,?,?,?,?,?)",
                           (wd.id, fasc_id, e.level, e.type, e.label, line_ids[e.line], int(key in toc_seen)))
                toc_seen.add(key)
            first_rec = rec_id + 1
            for rec in fasc.records:
                rec_id += 1
                table = [[off, line_ids[li]] for off, li in rec.lines]
                db.execute("INSERT INTO records VALUES(?,?,?,?,?,?,?,?)",
                           (rec_id, fasc_id, rec.para_id, rec.kind, rec.layer, rec.text,
                            json.dumps(table), json.dumps(rec.notes) if rec.notes else None))
                w_stats["paragraphs"] += 1
                w_stats["chars"] += len(rec.text)
                cjk = cjk_count(rec.text)
                w_stats["cjk_chars"] += cjk
                w_stats["layers"][rec.layer] = w_stats["layers"].get(rec.layer, 0) + cjk
            for segs in passages_of(fasc.records):
                rec0, a0, _ = segs[0]
                passage_rows.append((
                    [(first_rec + i, a, b) for i, a, b in segs], wd.id, fasc.records[rec0].layer, fasc.key,
                    fasc_id, fasc.records[rec0].para_id, fasc.lines[fasc.records[rec0].line_at(a0)].key,
                    "".join(fasc.records[i].text[a:b] for i, a, b in segs), fasc.juan))
            w_stats["lines"] += len(fasc.lines)
        stats_works.append(w_stats)
    db.executemany("INSERT INTO passages VALUES(?,?,?,?)",
                   [(k, row[4], row[2], json.dumps(row[0])) for k, row in enumerate(passage_rows, 1)])
    progress("store", total_fasc, total_fasc, "注释对应（資持記→行事鈔、記→疏）")
    link_rows = build_links([LinkPassage(k, row[1], row[8], row[2], norm.fold(row[7]))
                             for k, row in enumerate(passage_rows, 1)], explains())
    db.executemany("INSERT INTO links VALUES(?,?,?)", link_rows)
    db.executemany('INSERT INTO passage_of_record VALUES(?,?,?,?)',
                   [(rid, k, a, b) for k, row in enumerate(passage_rows, 1) for rid, a, b in row[0]])
    progress("store", total_fasc, total_fasc, "主题骨架（戒条、犍度、篇）")
    skel = skeleton.Builder(db, norm.fold, cbeta, [wd.id for wd in data])
    topics = skel.build()
    skeleton.write(db, topics)
    db.executemany("INSERT INTO gaiji VALUES(?,?,?,?,?)", [(k, *v) for k, v in sorted(gaiji_all.items())])
    db.executemany("INSERT INTO charmap VALUES(?,?)", sorted(norm.map.items()))
    db.executemany("INSERT INTO meta VALUES(?,?)", [("schema", str(nindex.SCHEMA_VERSION)),
                                                    ("app_version", __version__)])
    db.commit()
    db.execute("VACUUM")
    db.close()
    timings["store_s"] = round(time.perf_counter() - t, 2)

    t = time.perf_counter()
    ix = nindex.create(tmp / nindex.INDEX_DIR)
    w = nindex.writer(ix)
    try:
        for k, row in enumerate(passage_rows, 1):
            if k % 2000 == 0:
                progress("index", k, len(passage_rows), "建立检索索引")
            folded = norm.fold(row[7])
            w.add_document(passage=k, record=row[0][0][0], work=row[1], layer=row[2], fascicle=row[3],
                           para_id=row[5], start=row[6], bi=folded, uni=folded)
        progress("index", len(passage_rows), len(passage_rows), "提交索引")
        w.commit()
    except BaseException:
        w.cancel()
        raise
    timings["index_s"] = round(time.perf_counter() - t, 2)

    totals = {k: sum(ws[k] for ws in stats_works)
              for k in ("fascicles", "paragraphs", "lines", "chars", "cjk_chars")}
    totals["works"] = len(stats_works)
    totals["passages"] = len(passage_rows)
    totals["links"] = len(link_rows)
    totals["topics"] = len(topics)
    layers: dict[str, int] = {}
    for ws in stats_works:
        for k, v in ws["layers"].items():
            layers[k] = layers.get(k, 0) + v
    edition = _edition(data)
    return {
        "schema": nindex.SCHEMA_VERSION,
        "app_version": __version__,
        "fingerprint": source_fingerprint(),
        "built": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "cbeta": {"edition": edition, "source": str(cbeta), "licence":
                  data[0].header.availability or "Available for non-commercial use when distributed with this header intact.",
                  "distributor": "中華電子佛典協會 (CBETA)"},
        "works": stats_works,
        "totals": totals,
        "layer_cjk_chars": layers,
        "skeleton_notes": skel.notes,
        "build": {"timings": timings},
    }


def _short_title(title: str) -> str:
    """A work outside the catalogue is named by its header's title, without 卷 counts."""
    return re.sub(r"\s*[（(].*$", "", title).strip() or title


LEAD_MAX = 60    # a title or lead-in this short never stands alone as a passage


def passages_of(records) -> list[list[tuple[int, int, int]]]:
    """Group a fascicle's records into passages of readable size: [(record index, start, end), ...].

    Short consecutive records of one layer are read together (四分律 defines each
    word of a rule in its own tiny paragraph, and a quotation may run across
    them); a long record is cut at sentence ends into passages of its own.  A
    section title (安居策修篇第十一) goes with the text it heads: alone it would be
    a material that shows a reader nothing but a name.
    """
    out: list[list[tuple[int, int, int]]] = []
    cur: list[tuple[int, int, int]] = []
    size = 0
    layer = None

    def flush():
        nonlocal cur, size
        if cur:
            out.append(cur)
        cur, size = [], 0

    for i, rec in enumerate(records):
        if rec.kind in UNSEARCHED_KINDS:
            flush()
            continue
        spans = chunk_spans(rec.text)
        lead = cur if cur and rec.layer == layer and size <= LEAD_MAX else []
        if len(spans) > 1:
            if not lead:
                flush()
            first = lead + [(i, *spans[0])]
            cur, size = [], 0
            out.append(first)
            out.extend([[(i, a, b)] for a, b in spans[1:]])
            continue
        n = len(rec.text)
        if cur and not lead and (rec.layer != layer or size + n > PASSAGE_TARGET):
            flush()
        cur.append((i, 0, n))
        size += n
        layer = rec.layer
    flush()
    return out


def _edition(data: list[WorkData]) -> str:
    layouts = {"fascicle" if "_" in p.stem else "work" for wd in data for p in wd.files}
    if layouts == {"fascicle"}:
        return "CBETA TEI P5, 2014 distribution (one file per fascicle)"
    return "CBETA TEI P5 (one file per work)"


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _write_manifest(tmp: Path, manifest: dict) -> None:
    files = {}
    size = 0
    for p in sorted(tmp.rglob("*")):
        if p.is_file() and p.name != MANIFEST:
            rel = p.relative_to(tmp).as_posix()
            files[rel] = {"sha256": sha256_file(p), "bytes": p.stat().st_size}
            size += p.stat().st_size
    manifest["files"] = files
    manifest["build"]["bytes"] = size
    (tmp / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")


def _clear_leftovers(out: Path) -> None:
    """A build killed mid-way (power cut, SIGKILL) leaves its temporary directory beside the
    pack, hundreds of MB; the next build removes those whose process is gone.  They are
    never opened: a pack is only ever read at ``out``."""
    for p in out.parent.glob(f".{out.name}.*-*"):
        kind, _, pid = p.name[len(out.name) + 2:].rpartition("-")
        if kind in ("building", "old") and pid.isdigit() and not _pid_alive(int(pid)):
            shutil.rmtree(p, ignore_errors=True)


def _pid_alive(pid: int) -> bool:
    if os.name == "nt":             # os.kill would terminate it there: keep the leftover
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _swap_into_place(tmp: Path, out: Path) -> None:
    """Rename the finished pack over the old one; the old one is removed only after."""
    old = None
    if out.exists():
        old = out.parent / f".{out.name}.old-{os.getpid()}"
        if old.exists():
            shutil.rmtree(old)
        out.rename(old)
    tmp.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
