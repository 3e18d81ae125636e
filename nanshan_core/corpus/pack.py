"""Reading a built corpus pack: lines, records, fascicles, the index.

A pack is opened once per process and shared.  Opening checks the manifest
and the schema version before anything else touches the files, and checks
every file's sha256 (every entry point: CLI, GUI, bench, eval, the frozen app;
hashed again only when a file's stat changed) because Whoosh unpickles its
segment files: a tampered or truncated index must be refused, not loaded.
"""
from __future__ import annotations

import bisect
import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from . import coords
from . import index as nindex
from ..errors import CoordError, PackError
from ..paths import default_pack_dir
from .build import DB_NAME, MANIFEST, sha256_file
from .normalize import Normalizer


@dataclass(frozen=True)
class LineRow:
    id: int
    coord: str
    text: str
    r: str | None
    notes: list
    fascicle: int


@dataclass(frozen=True)
class RecordRow:
    id: int
    para_id: str
    kind: str
    layer: str
    text: str
    lines: list            # [[offset, line_id], ...]
    notes: list
    fascicle: int

    def line_id_at(self, offset: int) -> int:
        """The line holding character ``offset`` (the line table is sorted by offset)."""
        if not 0 <= offset < len(self.text):
            raise IndexError(f"offset {offset} outside record of {len(self.text)} characters")
        return line_in_table(self.lines, offset)


@dataclass(frozen=True)
class PassageRow:
    """Consecutive pieces of records read as one text; offsets map back to printed lines."""

    id: int
    fascicle: int
    layer: str
    segments: list          # [[record id, start, end], ...]
    text: str
    lines: list             # [[offset in this text, line id], ...] sorted by offset
    pieces: list            # [[offset in this text, record id, offset in record], ...]

    def line_id_at(self, offset: int) -> int:
        if not 0 <= offset < len(self.text):
            raise IndexError(f"offset {offset} outside passage of {len(self.text)} characters")
        return line_in_table(self.lines, offset)

    def record_at(self, offset: int) -> tuple[int, int]:
        """(record id, offset in that record) of a character of this passage."""
        for base, rid, roff in reversed(self.pieces):
            if base <= offset:
                return rid, roff + offset - base
        raise IndexError(offset)


def line_in_table(table: list, offset: int) -> int:
    """The line id of ``offset`` in an [[offset, line id], ...] table sorted by offset
    (records, passages and materials all map their text to printed lines this way)."""
    return table[max(0, bisect.bisect_right(table, offset, key=lambda row: row[0]) - 1)][1]


@dataclass(frozen=True)
class FascicleRow:
    id: int
    key: str
    work: str
    vol: int
    juan: int
    source: str
    first_line: int
    last_line: int


class Pack:
    """A read-only corpus pack; thread-safe for reads (one sqlite connection per thread)."""

    def __init__(self, path: Path, verify: str = "sizes"):
        self.path = Path(path)
        self.manifest = self._load_manifest()
        self._check_files(verify)
        self._local = threading.local()
        self._ix = None
        self._spans: dict[int, list] = {}     # fascicle -> record line spans (see _record_spans)
        self._lock = threading.Lock()

    @cached_property
    def checksum(self) -> str:
        """One hash for the pack's content: the manifest's sha256 of every file (checked on opening)."""
        files = self.manifest.get("files") or {}
        listing = json.dumps({name: info.get("sha256") for name, info in sorted(files.items())}, sort_keys=True)
        return hashlib.sha256(listing.encode()).hexdigest()[:16]

    # -- opening ------------------------------------------------------------
    def _load_manifest(self) -> dict:
        mf = self.path / MANIFEST
        if not self.path.exists():
            raise PackError(f"找不到语料包：{self.path}。请先运行 `nanshan build-corpus` 生成。")
        if not mf.exists():
            raise PackError(f"{self.path} 不是完整的语料包（缺少 {MANIFEST}）。请重新运行 `nanshan build-corpus`。")
        try:
            manifest = json.loads(mf.read_text(encoding="utf-8"))
        except (ValueError, OSError) as exc:
            raise PackError(f"语料包清单 {mf} 已损坏（{exc}）。请重新生成语料包。") from None
        if manifest.get("schema") != nindex.SCHEMA_VERSION:
            raise PackError(f"语料包格式版本为 {manifest.get('schema')}，本程序需要 {nindex.SCHEMA_VERSION}。"
                            "请用 `nanshan build-corpus` 重新生成。")
        return manifest

    def _check_files(self, verify: str) -> None:
        """Every file the manifest lists, as it lists it — before anything is opened: Whoosh's
        files are pickles, so a pack is executable input.  ``cached`` hashes only files whose
        size, mtime, ctime or inode changed since they last matched (kept in the user cache;
        ctime cannot be set back by hand)."""
        files = self.manifest.get("files") or {}
        if DB_NAME not in files:
            raise PackError(f"语料包清单不完整：没有 {DB_NAME}。请重新生成语料包。")
        seen = _verified_cache() if verify == "cached" else {}
        changed = False
        t0 = time.perf_counter()
        for rel, info in files.items():
            p = self.path / rel
            if not p.exists():
                raise PackError(f"语料包缺少文件 {rel}。请重新生成语料包。")
            st = p.stat()
            if verify in ("sizes", "full", "cached") and st.st_size != info["bytes"]:
                raise PackError(f"语料包文件 {rel} 大小不符（可能已损坏）。请重新生成语料包 `nanshan build-corpus`。")
            if verify == "cached":
                key = str(p.resolve())
                stamp = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, info["sha256"]]
                if seen.get(key) == stamp:
                    continue
                changed = True
            if verify in ("full", "cached") and sha256_file(p) != info["sha256"]:
                raise PackError(f"语料包文件 {rel} 校验和不符（已被改动或损坏），不予打开。"
                                "请重新生成语料包 `nanshan build-corpus`。")
            if verify == "cached":
                seen[str(p.resolve())] = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, info["sha256"]]
        self.verify_ms = (time.perf_counter() - t0) * 1000
        if changed:
            _save_verified(seen)

    @property
    def db(self) -> sqlite3.Connection:
        conn = getattr(self._local, "db", None)
        if conn is None:
            uri = f"file:{(self.path / DB_NAME).as_posix()}?mode=ro"
            try:
                conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
                conn.execute("SELECT 1 FROM lines LIMIT 1")
            except sqlite3.DatabaseError as exc:
                raise PackError(f"语料包数据库无法打开（{exc}）。请重新生成语料包。") from None
            self._local.db = conn
        return conn

    @property
    def ix(self):
        with self._lock:
            if self._ix is None:
                try:
                    self._ix = nindex.open_index(self.path / nindex.INDEX_DIR)
                except Exception as exc:  # whoosh raises many kinds on a damaged index
                    raise PackError(f"检索索引无法打开（{exc}）。请重新生成语料包。") from None
            return self._ix

    @cached_property
    def normalizer(self) -> Normalizer:
        return Normalizer(dict(self.db.execute("SELECT src, dst FROM charmap")))

    @cached_property
    def works(self) -> dict[str, dict]:
        cur = self.db.execute("SELECT id, canon, title, short, author, layer, grp, extent FROM works")
        names = [d[0] for d in cur.description]
        return {row[0]: dict(zip(names, row)) for row in cur}

    def close(self) -> None:
        conn = getattr(self._local, "db", None)
        if conn is not None:
            conn.close()
            self._local.db = None
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    # -- lines --------------------------------------------------------------
    def _line(self, row) -> LineRow:
        return LineRow(row[0], row[1], row[2], row[3], json.loads(row[4]) if row[4] else [], row[5])

    def line(self, coord: str | coords.Coord) -> LineRow:
        """The printed line at a coordinate (any accepted form); CoordError if the pack has none."""
        c = coords.parse(coord) if isinstance(coord, str) else coord
        if c.canon == "R":
            return self._r_line(c)
        c = self.resolve(c)
        row = self.db.execute("SELECT id, coord, text, r, notes, fascicle FROM lines WHERE coord=?",
                              (c.start().canonical(),)).fetchone()
        if row is None:
            raise CoordError(self._missing_message(c))
        return self._line(row)

    def _r_line(self, c: coords.Coord) -> LineRow:
        """A 新文豐 (R) coordinate opens the X line it begins on (the XML gives each X line its R line)."""
        row = self.db.execute("SELECT id, coord, text, r, notes, fascicle FROM lines WHERE r=? ORDER BY id LIMIT 1",
                              (c.start().canonical(),)).fetchone()
        if row is None:
            raise CoordError(f"语料包中没有{c.human()}（{c.canonical()}）这一行")
        return self._line(row)

    def line_by_id(self, line_id: int) -> LineRow:
        row = self.db.execute("SELECT id, coord, text, r, notes, fascicle FROM lines WHERE id=?",
                              (line_id,)).fetchone()
        if row is None:
            raise CoordError(f"语料包中没有第 {line_id} 行")
        return self._line(row)

    def coord_of_line(self, line_id: int) -> str:
        return self.db.execute("SELECT coord FROM lines WHERE id=?", (line_id,)).fetchone()[0]

    def resolve(self, c: coords.Coord) -> coords.Coord:
        """Fill in the work number of a citation that named only volume and page (大正藏 40 345b14)."""
        if c.work is not None:
            return c
        pattern = f"{c.canon}{c.vol:02d}n%_p{c.page:04d}{c.col}{c.line:02d}"
        rows = self.db.execute("SELECT coord FROM lines WHERE coord LIKE ?", (pattern,)).fetchall()
        if not rows and c.canon == "X":
            # 「卍續藏 62 309a03」 may name the 新文豐 reprint, which readers still use most
            r = coords.Coord("R", c.vol, None, c.page, c.col, c.line)
            hit = self.db.execute("SELECT coord FROM lines WHERE r=? LIMIT 1", (r.canonical(),)).fetchone()
            if hit:
                return coords.parse(hit[0])
        if not rows:
            raise CoordError(self._missing_message(c))
        if len(rows) > 1:
            works = "、".join(r[0].split("_")[0] for r in rows)
            raise CoordError(f"{c.human()} 对应多部经典（{works}），请写明经号")
        parsed = coords.parse(rows[0][0])
        return coords.Coord(c.canon, c.vol, parsed.work, c.page, c.col, c.line, c.line_end)

    def _missing_message(self, c: coords.Coord) -> str:
        name = c.canonical() if c.work else c.human()
        if c.work:
            wid = f"{c.canon}{c.work}"
            if wid not in self.works:
                return f"语料包中没有 {wid} 这部经典，无法打开 {name}"
            first, last = self.db.execute(
                "SELECT MIN(coord), MAX(coord) FROM lines WHERE coord LIKE ?",
                (f"{c.canon}{c.vol:02d}n{c.work}_p%",)).fetchone()
            if first:
                return f"{name} 不存在：{wid} 在第 {c.vol} 冊的行从 {first[-7:]} 到 {last[-7:]}"
            return f"{name} 不存在：{wid} 不在第 {c.vol} 冊"
        return f"语料包中没有 {name} 这一行"

    # -- fascicles ------------------------------------------------------------
    def fascicle(self, fid: int) -> FascicleRow:
        row = self.db.execute("SELECT id, key, work, vol, juan, source, first_line, last_line "
                              "FROM fascicles WHERE id=?", (fid,)).fetchone()
        if row is None:
            raise PackError(f"语料包中没有第 {fid} 卷")
        return FascicleRow(*row)

    def fascicles(self, work: str | None = None) -> list[FascicleRow]:
        q = "SELECT id, key, work, vol, juan, source, first_line, last_line FROM fascicles"
        args: tuple = ()
        if work:
            q += " WHERE work=?"
            args = (work,)
        return [FascicleRow(*r) for r in self.db.execute(q + " ORDER BY id", args)]

    def fascicle_lines(self, fid: int) -> list[LineRow]:
        rows = self.db.execute("SELECT id, coord, text, r, notes, fascicle FROM lines "
                               "WHERE fascicle=? ORDER BY id", (fid,))
        return [self._line(r) for r in rows]

    # -- records ----------------------------------------------------------------
    def _record(self, row) -> RecordRow:
        return RecordRow(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]),
                         json.loads(row[6]) if row[6] else [], row[7])

    _REC = "SELECT id, para_id, kind, layer, text, lines, notes, fascicle FROM records"

    def record(self, rid: int) -> RecordRow:
        return self._recent_records(rid)

    @cached_property
    def _recent_records(self):
        """The records read lately, kept (the pack is read-only): a material reading on fetches
        passage after passage of one long record, and each fetch had read the record's whole
        line table again (answer p50 +23% in ``nanshan bench`` when reading on across passages)."""
        return lru_cache(maxsize=128)(self._fetch_record)

    def _fetch_record(self, rid: int) -> RecordRow:
        row = self.db.execute(self._REC + " WHERE id=?", (rid,)).fetchone()
        if row is None:
            raise PackError(f"语料包中没有记录 {rid}")
        return self._record(row)

    def record_by_para(self, para_id: str) -> RecordRow:
        row = self.db.execute(self._REC + " WHERE para_id=?", (para_id,)).fetchone()
        if row is None:
            raise PackError(f"语料包中没有段落 {para_id}")
        return self._record(row)

    def records_of_fascicle(self, fid: int) -> list[RecordRow]:
        return [self._record(r) for r in self.db.execute(self._REC + " WHERE fascicle=? ORDER BY id", (fid,))]

    def records_at_line(self, line_id: int) -> list[RecordRow]:
        """Records holding text on a line (a line can be shared by several paragraphs)."""
        fid = self.db.execute("SELECT fascicle FROM lines WHERE id=?", (line_id,)).fetchone()
        if fid is None:
            return []
        out = []
        for rid, first, last in self._record_spans(fid[0]):
            if first <= line_id <= last:
                rec = self.record(rid)
                if any(lid == line_id for _, lid in rec.lines):
                    out.append(rec)
        return out

    def _record_spans(self, fid: int) -> list[tuple[int, int, int]]:
        """(record id, first line id, last line id) of a fascicle's records, kept for the session:
        the clue table sends every question to a line, and decoding a whole fascicle's line
        tables each time cost more than the search itself."""
        cache = self._spans
        if fid not in cache:
            with self._lock:
                cache[fid] = self.db.execute(
                    "SELECT id, json_extract(lines, '$[0][1]'), json_extract(lines, '$[#-1][1]') "
                    "FROM records WHERE fascicle=? ORDER BY id", (fid,)).fetchall()
        return cache[fid]

    def coord_at(self, rec: RecordRow, offset: int) -> str:
        """Line coordinate of character ``offset`` of a record."""
        return self.coord_of_line(rec.line_id_at(offset))

    # -- passages -----------------------------------------------------------------
    def passage(self, pid: int) -> PassageRow:
        row = self.db.execute("SELECT id, fascicle, layer, segments FROM passages WHERE id=?", (pid,)).fetchone()
        if row is None:
            raise PackError(f"语料包中没有第 {pid} 段检索段落")
        segments = json.loads(row[3])
        text_parts, lines, pieces = [], [], []
        base = 0
        for rid, a, b in segments:
            rec = self.record(rid)
            text_parts.append(rec.text[a:b])
            pieces.append([base, rid, a])
            # the lines the piece [a, b) touches: from the one holding a (a long record has hundreds
            # of lines, and a material reading on fetches passage after passage of it)
            first = max(bisect.bisect_right(rec.lines, a, key=lambda x: x[0]) - 1, 0)
            for off, lid in rec.lines[first:]:
                if off >= b:
                    break
                pos = base + max(off, a) - a
                if not lines or lines[-1][1] != lid:
                    lines.append([pos, lid])
            base += b - a
        return PassageRow(row[0], row[1], row[2], segments, "".join(text_parts), lines, pieces)

    def passages_of_record(self, rid: int) -> list[tuple[int, int, int]]:
        """(passage id, start, end) of each passage holding part of a record, in order."""
        return self.db.execute('SELECT passage, start, "end" FROM passage_of_record WHERE record=? '
                               "ORDER BY start", (rid,)).fetchall()

    def page_lines(self, canon: str, vol: int, page: int) -> list[str]:
        """Coordinates of every line printed on one page of a volume, of whichever works are on it
        (a work can begin mid-page): the reader's page locator draws the page from these."""
        works = [r[0] for r in self.db.execute(
            "SELECT DISTINCT work FROM fascicles WHERE vol=? AND work LIKE ?", (vol, f"{canon}%"))]
        out: list[str] = []
        for work in works:
            head = f"{canon}{vol:02d}n{work[len(canon):]}_p"
            out += [r[0] for r in self.db.execute(
                "SELECT coord FROM lines WHERE coord >= ? AND coord < ? ORDER BY id",
                (f"{head}{page:04d}", f"{head}{page + 1:04d}"))]
        return out

    def gaiji(self) -> dict[str, dict]:
        rows = self.db.execute("SELECT char, cb, unicode, normal, composition FROM gaiji")
        return {r[0]: {"cb": r[1], "unicode": r[2], "normal": r[3], "composition": r[4]} for r in rows}


def _verified_path() -> Path:
    from ..paths import user_cache_dir
    return user_cache_dir() / "verified-packs.json"


def _verified_cache() -> dict:
    try:
        data = json.loads(_verified_path().read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _save_verified(seen: dict) -> None:
    """Best effort: a cache that cannot be written only costs the next start its hashing."""
    path = _verified_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(seen), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass


_OPEN: dict[tuple, Pack] = {}
_OPEN_LOCK = threading.Lock()


def open_pack(path: str | Path | None = None, verify: str = "cached") -> Pack:
    """The shared Pack for a path (--pack, NANSHAN_PACK, or the default)."""
    p = default_pack_dir(path).resolve()
    with _OPEN_LOCK:
        pack = _OPEN.get((p, verify))
        if pack is None:
            pack = Pack(p, verify=verify)
            _OPEN[(p, verify)] = pack
        return pack
