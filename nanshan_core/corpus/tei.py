"""Reading CBETA TEI P5 into printed lines and paragraph records.

The printed line is the unit a reader checks against the paper canon, so it
is the unit everything is built on.  Each file is walked once in document
order; every character of running text is given to exactly one printed line
(of the canon's own edition, T or X) and exactly one record (a paragraph, a
heading, a verse block, a list item ...).  A record keeps a line table —
(character offset, line index) at each place a new printed line begins inside
it — which is how a quotation found at offset k becomes a line coordinate.

Both CBETA layouts are read by the same walk: one file per fascicle (the 2014
distribution in ../shared/cbeta) and one file per work (CBETA's current
xml-p5), because fascicles are split at ``<milestone unit="juan">`` in both.

What is text: running text, ``<note place="inline">`` (kept, marked as note),
``<lem>``, ``<corr>``/``<reg>``, ``<g>`` (the character given).  What is not:
apparatus notes, ``<rdg>``, ``<sic>``, ``<anchor>``, ``<cb:mulu>`` (navigation
labels that are not printed), the back matter.  The ``<cb:mulu>`` labels are kept
apart as each fascicle's table of contents: CBETA's own structure of the work
(分, 犍度, 篇), which the library and the topic skeleton are built from.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from . import coords
from ..errors import CorpusError

TEI = "{http://www.tei-c.org/ns/1.0}"
CB = "{http://www.cbeta.org/ns/1.0}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"

# Elements that open a record; the outermost one wins (an <item> inside an
# <item> stays part of the outer record).
BLOCKS = {TEI + "p": "p", TEI + "head": "head", TEI + "lg": "lg", TEI + "item": "item",
          TEI + "byline": "byline", CB + "juan": "juan", CB + "docNumber": "docNumber",
          TEI + "trailer": "trailer", CB + "dialog": "p", TEI + "sp": "p"}
# Elements whose content is never running text.
SKIP = {TEI + "anchor", CB + "mulu", TEI + "rdg", TEI + "sic", TEI + "orig", TEI + "figure",
        TEI + "graphic", TEI + "pb", TEI + "milestone", TEI + "space", CB + "fan"}
MARKERS = {"律": "vinaya", "註": "daoxuan", "注": "daoxuan", "疏": "daoxuan"}
_MARKER_RE = re.compile(r"【([律註注疏])】")
_STRIP = str.maketrans("", "", "\n\r\t")


@dataclass
class Line:
    coord: coords.Coord
    text: str = ""
    r: str | None = None                 # parallel 新文豐 line (X texts), e.g. R062_p0309a01
    notes: list[list[int]] = field(default_factory=list)  # [start, end) of inline notes

    @property
    def key(self) -> str:
        return self.coord.canonical()


@dataclass
class Record:
    """A paragraph-like unit of one layer; ``lines`` maps offsets to line indexes."""

    para_id: str
    kind: str
    layer: str
    text: str = ""
    lines: list[list[int]] = field(default_factory=list)   # [[offset, line_index], ...]
    notes: list[list[int]] = field(default_factory=list)

    def line_at(self, offset: int) -> int:
        """Index (into the fascicle's lines) of the line holding character ``offset``."""
        if not 0 <= offset < max(len(self.text), 1):
            raise IndexError(offset)
        lo, hi = 0, len(self.lines) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.lines[mid][0] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return self.lines[lo][1]


@dataclass
class TocEntry:
    """One ``<cb:mulu>``: a heading of CBETA's table of contents and the line it stands on."""

    level: int | None       # nesting level (None for CBETA's 卷 markers)
    type: str               # 分 / 序 / 卷 / 其他 …
    label: str              # 「4 三十捨墮法」
    line: int               # index into the fascicle's lines


@dataclass
class Fascicle:
    work: str            # T1428, X0714
    canon: str           # T or X
    vol: int
    juan: int
    source: str          # file it came from (relative to the CBETA root when known)
    lines: list[Line] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    toc: list[TocEntry] = field(default_factory=list)

    @property
    def key(self) -> str:
        """T22n1428_002: volume, work and fascicle, as CBETA names fascicle files."""
        return f"{self.canon}{self.vol:02d}n{self.work[1:]}_{self.juan:03d}"


@dataclass
class Header:
    work: str
    canon: str
    vol: int
    title: str
    author: str
    extent: int | None
    edition: str
    availability: str
    source: str
    chars: dict[str, dict]  # CB id -> {char, unicode, normal, composition}


@dataclass
class LayerRules:
    """How a work's records are assigned to layers (see resources/works.json)."""

    default: str                      # vinaya / daoxuan / yuanzhao / combined
    front_matter: dict[str, str] = field(default_factory=dict)  # div start line -> layer
    records: dict[str, str] = field(default_factory=dict)       # record start line -> layer


def _u(mapping: str | None) -> str | None:
    if mapping and mapping.startswith("U+"):
        try:
            return chr(int(mapping[2:], 16))
        except ValueError:
            return None
    return None


def read_header(root: etree._Element, path: Path) -> Header:
    """Title, author, extent and the rare-character table of one file."""
    ns = {"t": TEI[1:-1], "cb": CB[1:-1]}
    m = re.match(r"([A-Z]+)(\d+)n(\w+?)(?:_\d+)?$", path.stem)
    if not m:
        raise CorpusError(f"{path}: 文件名不是 CBETA 的形式（如 T22n1428_001.xml）")
    canon, vol, num = m[1], int(m[2]), m[3]
    title = (root.findtext(".//t:titleStmt/t:title", namespaces=ns) or "").strip()
    title = re.sub(r"^.*?No\.\s*\w+\s*", "", title).strip() or title
    author = (root.findtext(".//t:titleStmt/t:author", namespaces=ns) or "").strip()
    extent_text = root.findtext(".//t:extent", namespaces=ns) or ""
    em = re.search(r"(\d+)", extent_text)
    edition = " ".join((root.findtext(".//t:editionStmt/t:edition", namespaces=ns) or "").split())
    date = root.find(".//t:editionStmt/t:edition/t:date", namespaces=ns)
    if date is not None and date.text:
        edition = f"{edition} {date.text.strip()}".strip()
    avail = " ".join("".join(root.find(".//t:availability", namespaces=ns).itertext()).split()) \
        if root.find(".//t:availability", namespaces=ns) is not None else ""
    bibl = " ".join("".join(root.find(".//t:sourceDesc/t:bibl", namespaces=ns).itertext()).split()) \
        if root.find(".//t:sourceDesc/t:bibl", namespaces=ns) is not None else ""
    chars: dict[str, dict] = {}
    for ch in root.iterfind(".//t:charDecl/t:char", namespaces=ns):
        cid = ch.get(XML_ID)
        info = {"unicode": None, "normal": None, "composition": None, "pua": None}
        for mp in ch.iterfind("t:mapping", namespaces=ns):
            kind = mp.get("type")
            if kind == "unicode":
                info["unicode"] = _u(mp.text)
            elif kind == "normal_unicode":
                info["normal"] = _u(mp.text)
            elif kind == "PUA":
                info["pua"] = _u(mp.text)
        for prop in ch.iterfind("t:charProp", namespaces=ns):
            name = (prop.findtext("t:localName", namespaces=ns) or "").strip()
            value = (prop.findtext("t:value", namespaces=ns) or "").strip()
            if name == "composition":
                info["composition"] = value
            elif name in ("normalized form", "normalized_form") and len(value) == 1 and not info["normal"]:
                info["normal"] = value
        chars[cid] = info
    work = f"{canon}{num}"
    return Header(work, canon, vol, title, author, int(em[1]) if em else None, edition, avail, bibl, chars)


class _Walker:
    """One pass over a file's <body>: builds fascicles, lines and records."""

    def __init__(self, header: Header, rules: LayerRules, source: str, path: Path):
        self.h = header
        self.rules = rules
        self.source = source
        self.path = path
        self.ed = header.canon
        self.fascicles: list[Fascicle] = []
        self.fasc: Fascicle | None = None
        self.line: Line | None = None
        self.record: Record | None = None
        self.block_depth = 0        # >0 while inside a block element
        self.note_depth = 0
        self.divs: list[dict] = []  # open cb:div: {"type", "start", "layer"}
        self.r_current: str | None = None
        self.orig_layer = "daoxuan"
        self.id_seen: dict[str, int] = {}
        self.gaiji: dict[str, str] = {}   # given char -> CB id, for the pack's gaiji table
        self.pending_toc: list[TocEntry] = []   # headings met before the fascicle's first line

    # -- structure ------------------------------------------------------------
    def fail(self, msg: str) -> None:
        where = f" (行 {self.line.coord.short()})" if self.line else ""
        raise CorpusError(f"{self.path}{where}: {msg}")

    def new_fascicle(self, juan: int) -> None:
        carry = None
        if self.fasc is not None and self.line is not None and not self.line.text \
                and self.fasc.lines and self.fasc.lines[-1] is self.line:
            # The line the milestone sits on has no text yet: it opens the new fascicle.
            carry = self.fasc.lines.pop()
        moved = [e for e in self.fasc.toc if e.line >= len(self.fasc.lines)] if carry is not None else []
        if moved:
            self.fasc.toc = self.fasc.toc[:-len(moved)]
        self.close_record()
        self.fasc = Fascicle(self.h.work, self.h.canon, self.h.vol, juan, self.source)
        self.fascicles.append(self.fasc)
        if carry is not None:
            self.fasc.lines.append(carry)
            for e in moved:
                e.line = 0
            self.fasc.toc.extend(moved)

    def on_lb(self, el) -> None:
        ed = el.get("ed") or self.ed
        n = el.get("n")
        if ed == self.ed:
            try:
                c = coords.parse_lb(self.h.canon, self.h.vol, self.h.work[1:], n)
            except Exception:
                self.fail(f"无法解析的行号 <lb n=\"{n}\">")
            if self.fasc is None:
                self.new_fascicle(self._file_juan())
            self.line = Line(c)
            self.fasc.lines.append(self.line)
            for entry in self.pending_toc:
                entry.line = len(self.fasc.lines) - 1
                self.fasc.toc.append(entry)
            self.pending_toc = []
        elif ed.startswith("R") and n:
            self.r_current = coords.r_coord(ed, n)
            if self.line is not None and not self.line.text:
                self.line.r = self.r_current

    def _file_juan(self) -> int:
        m = re.search(r"_(\d+)$", self.path.stem)
        return int(m[1]) if m else 1

    def layer_now(self) -> str:
        """The layer of text opened at this point (see LayerRules).  A work outside the default
        corpus is 'other' throughout: its own 疏/記 markup must not put it in 道宣's or 元照's layer."""
        if self.rules.default == "other":
            return "other"
        for d in reversed(self.divs):
            if d["type"] == "commentary":
                return "yuanzhao"
            if d["type"] == "orig":
                return self.orig_layer
        top = self.divs[0] if self.divs else None
        if top is not None and top["start"] in self.rules.front_matter:
            return self.rules.front_matter[top["start"]]
        if self.rules.default == "combined":
            return "other"
        if top is not None and top["type"] in ("xu", "w"):
            return "other"
        return self.rules.default

    def open_record(self, kind: str, xml_id: str | None) -> None:
        self.close_record()
        if xml_id is None:
            where = self.line.coord.short() if self.line else "0000a00"
            xml_id = f"{kind}{self.h.canon}{self.h.vol:02d}p{where}"
        k = self.id_seen.get(xml_id, 0)
        self.id_seen[xml_id] = k + 1
        pid = xml_id if k == 0 else f"{xml_id}.{k}"
        layer = self.layer_now()
        if self.line is not None and self.line.key in self.rules.records:
            layer = self.rules.records[self.line.key]
        self.record = Record(pid, kind, layer)

    def close_record(self) -> None:
        if self.record is not None and self.record.text:
            self.fasc.records.append(self.record)
        self.record = None

    # -- text -----------------------------------------------------------------
    def emit(self, text: str | None, kind_hint: str = "text") -> None:
        if not text:
            return
        text = text.translate(_STRIP)
        if not text:
            return
        if self.line is None or self.fasc is None:
            if text.strip():
                self.fail(f"正文出现在第一个 <lb> 之前：「{text[:20]}」")
            return
        if self.divs and any(d["type"] == "orig" for d in self.divs) and self.rules.default == "combined":
            pos = 0
            for m in _MARKER_RE.finditer(text):
                if m.start() > pos:
                    self._append(text[pos:m.start()])
                self.orig_layer = MARKERS[m[1]]
                self._split_record()
                self._append(m[0])
                pos = m.end()
            self._append(text[pos:])
        else:
            self._append(text)

    def _split_record(self) -> None:
        """A 【律】/【疏】 marker inside an orig div starts a new record of its layer."""
        if self.record is None:
            return
        if self.record.text:
            base = self.record.para_id.split("#")[0]
            kind = self.record.kind
            self.close_record()
            k = self.id_seen.get(base + "#", 0) + 1
            self.id_seen[base + "#"] = k
            self.record = Record(f"{base}#{k}", kind, self.orig_layer)
        else:
            self.record.layer = self.orig_layer

    def _append(self, text: str) -> None:
        if not text:
            return
        if self.record is None:
            self.open_record("text", None)
        rec, line = self.record, self.line
        li = len(self.fasc.lines) - 1
        if line.r is None and self.r_current and not line.text:
            line.r = self.r_current
        if not rec.lines or rec.lines[-1][1] != li:
            rec.lines.append([len(rec.text), li])
        if self.note_depth:
            _extend(line.notes, len(line.text), len(text))
            _extend(rec.notes, len(rec.text), len(text))
        line.text += text
        rec.text += text

    def on_mulu(self, el) -> None:
        """A table-of-contents heading points at the line it stands on (the next line when the
        fascicle has none yet)."""
        label = " ".join("".join(el.itertext()).split())
        level = el.get("level")
        entry = TocEntry(int(level) if level and level.isdigit() else None, el.get("type") or "", label, 0)
        if self.fasc is None or not self.fasc.lines:
            self.pending_toc.append(entry)
        else:
            entry.line = len(self.fasc.lines) - 1
            self.fasc.toc.append(entry)

    # -- the walk -------------------------------------------------------------
    def walk(self, el) -> None:
        tag = el.tag
        if not isinstance(tag, str):          # comments, processing instructions
            return
        if tag == TEI + "lb":
            self.on_lb(el)
            return
        if tag == CB + "mulu":
            self.on_mulu(el)
        if tag == TEI + "milestone" and el.get("unit") == "juan":
            try:
                juan = int(re.match(r"\d+", el.get("n") or "").group(0))
            except AttributeError:
                self.fail(f"卷号无法解析：<milestone n=\"{el.get('n')}\">")
            if self.fasc is None or juan != self.fasc.juan:
                self.new_fascicle(juan)
            return
        if tag in SKIP or (tag == TEI + "note" and not (el.get("place") or "").startswith("inline")) \
                or (tag == CB + "t" and (el.get(XML_ID_LANG) or "zh").split("-")[0] not in ("zh", "lzh")):
            # Not text, but a printed line may still begin inside it (never inside a variant reading).
            if tag != TEI + "rdg":
                for lb in el.iter(TEI + "lb"):
                    self.on_lb(lb)
            return
        opened_block = False
        opened_div = False
        if tag == CB + "div":
            start = self.line.key if self.line else ""
            self.divs.append({"type": el.get("type"), "start": start})
            if el.get("type") == "orig":
                self.orig_layer = "daoxuan"
            opened_div = True
            self.close_record()
        elif tag in BLOCKS and self.block_depth == 0:
            self.open_record(BLOCKS[tag], el.get(XML_ID))
            opened_block = True
        if tag in BLOCKS:
            self.block_depth += 1
        is_note = tag == TEI + "note"
        if is_note:
            self.note_depth += 1
        if tag == TEI + "g":
            self._gaiji(el)
        else:
            self.emit(el.text)
            for child in el:
                self.walk(child)
                self.emit(child.tail)
        if is_note:
            self.note_depth -= 1
        if tag in BLOCKS:
            self.block_depth -= 1
        if opened_block:
            self.close_record()
        if opened_div:
            self.divs.pop()
            self.close_record()

    def _gaiji(self, el) -> None:
        ref = (el.get("ref") or "").lstrip("#")
        given = "".join(el.itertext()).translate(_STRIP)
        info = self.h.chars.get(ref)
        if not given:
            # No character given: use the canonical one CBETA declares.
            given = (info or {}).get("unicode") or (info or {}).get("normal") or (info or {}).get("pua") or ""
            if not given:
                self.fail(f"缺字 {ref} 既无字形也无映射")
        if ref and len(given) == 1:
            self.gaiji[given] = ref
        self.emit(given)


XML_ID_LANG = "{http://www.w3.org/XML/1998/namespace}lang"


def _extend(spans: list[list[int]], start: int, length: int) -> None:
    if spans and spans[-1][1] == start:
        spans[-1][1] = start + length
    else:
        spans.append([start, start + length])


@dataclass
class ParsedFile:
    header: Header
    fascicles: list[Fascicle]
    gaiji: dict[str, str]


def read_file(path: Path, rules: LayerRules, source: str | None = None) -> ParsedFile:
    """Parse one CBETA file (a fascicle, or a whole work) into fascicles."""
    try:
        tree = etree.parse(str(path), etree.XMLParser(resolve_entities=False, huge_tree=True))
    except etree.XMLSyntaxError as exc:
        raise CorpusError(f"{path}: XML 格式错误，第 {exc.lineno} 行：{exc.msg}") from None
    except OSError as exc:
        raise CorpusError(f"{path}: 无法读取（{exc}）") from None
    root = tree.getroot()
    header = read_header(root, path)
    body = root.find(f"{TEI}text/{TEI}body")
    if body is None:
        raise CorpusError(f"{path}: 没有 <body>，不是 CBETA 正文文件")
    w = _Walker(header, rules, source or str(path), path)
    w.walk(body)
    if w.fasc is not None:
        w.close_record()
    if not w.fascicles or not any(f.lines for f in w.fascicles):
        raise CorpusError(f"{path}: 文件中没有任何 <lb> 行")
    # Every printed line of the canon's edition must have become exactly one Line.
    expected = sum(1 for lb in body.iter(TEI + "lb")
                   if (lb.get("ed") or header.canon) == header.canon
                   and not any(a.tag == TEI + "rdg" for a in lb.iterancestors()))
    got = sum(len(f.lines) for f in w.fascicles)
    if got != expected:
        raise CorpusError(f"{path}: 文件有 {expected} 个 <lb ed=\"{header.canon}\">，解析出 {got} 行")
    return ParsedFile(header, w.fascicles, w.gaiji)
