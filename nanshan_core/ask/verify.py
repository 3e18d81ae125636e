"""Step D: the only place coordinates are made.

A quotation is located in the material it cites, character for character as
CBETA has it (only line breaks and spaces in the quote are ignored).  The
offset of its first character goes through the material's line table to the
printed line, and that line's coordinate is written.  A quote found in
another material has its material number corrected and says so; a quote
found nowhere stays in the answer, marked 「此处出处未通过核验」 and without a
coordinate; a reference with no quotation can be placed only at its passage
and is labelled 段级 (paragraph), never passed off as a line.

Nothing here trusts the writer of the answer — extractive code or a model.
"""
from __future__ import annotations

import functools
import re
from array import array
from dataclasses import dataclass

from ..corpus.pack import Pack

UNVERIFIED_NOTE = "此处出处未通过核验"
LEVELS = ("line", "paragraph", "unverified")
_IGNORED = re.compile(r"[\s\u3000]+")
_ELLIPSIS = re.compile(r"…+|\.{3,}|⋯+")


@dataclass
class Citation:
    material: int | None
    quote: str
    coord: str | None
    level: str
    corrected_from: int | None = None
    offset: int | None = None        # where the quote starts in the material text (line level only)

    def to_json(self) -> dict:
        return {"material": self.material, "quote": self.quote, "coord": self.coord, "level": self.level,
                "corrected_from": self.corrected_from}

    @property
    def note(self) -> str | None:
        return UNVERIFIED_NOTE if self.level == "unverified" else None


def coord_at(pack: Pack, m, offset: int) -> str:
    """Line coordinate of character ``offset`` of a material's text (its start coordinate too)."""
    return pack.coord_of_line(m.line_id_at(offset))


@functools.lru_cache(maxsize=32)
def _squeezed(text: str) -> tuple[array, str]:
    """The offsets of a text's counted characters (not spaces nor line breaks) and those
    characters joined: an answer checks many quotes against the same few materials (some
    two dozen), so each material is squeezed once."""
    keep = array("i")
    at = 0
    for m in _IGNORED.finditer(text):
        keep.extend(range(at, m.start()))
        at = m.end()
    keep.extend(range(at, len(text)))
    return keep, _IGNORED.sub("", text)


def find(quote: str, text: str, seams: list[int] = ()) -> int | None:
    """Offset in ``text`` where ``quote`` begins, character for character as CBETA has it.

    Spaces and line breaks are ignored on both sides (a writer may break a quote
    across lines; CBETA has full-width spaces inside some lines); a quote elided
    with …… must have all its parts, in order, in the text.  No part may run across
    one of the material's ``seams``: the text on either side is not continuous on the page.
    """
    parts = [p for p in _ELLIPSIS.split(_IGNORED.sub("", quote or "")) if p]
    if not parts:
        return None
    keep, squeezed = _squeezed(text)

    def whole(at: int, part: str) -> bool:
        a, b = keep[at], keep[at + len(part) - 1]
        return not any(a < s <= b for s in seams)

    def next_at(part: str, pos: int) -> int:
        pos = squeezed.find(part, pos)
        while pos != -1 and not whole(pos, part):
            pos = squeezed.find(part, pos + 1)
        return pos

    first = next_at(parts[0], 0)
    while first != -1:
        pos = first + len(parts[0])
        for part in parts[1:]:
            pos = next_at(part, pos)
            if pos == -1:
                break
            pos += len(part)
        else:
            return keep[first]
        first = next_at(parts[0], first + 1)
    return None


def verify(pack: Pack, quote: str, material_n: int | None, materials: list) -> Citation:
    """Turn a (quote, 材料N) claim into a checked citation."""
    by_n = {m.n: m for m in materials}
    cited = by_n.get(material_n)
    if not (quote or "").strip():
        if cited is None:
            return Citation(material_n, "", None, "unverified")
        return Citation(material_n, "", coord_at(pack, cited, 0), "paragraph")
    order = ([cited] if cited else []) + [m for m in materials if m is not cited]
    for m in order:
        off = find(quote, m.text, m.seams)
        if off is not None:
            coord = coord_at(pack, m, off)
            corrected = material_n if m is not cited else None
            return Citation(m.n, quote, coord, "line", corrected, off)
    return Citation(material_n, quote, None, "unverified")


_QUOTE = re.compile(r"「([^「」]{1,400})」\s*[（(]\s*材料\s*(\d+)\s*[)）]")
_BARE_REF = re.compile(r"[（(]\s*材料\s*(\d+)\s*[)）]")
# Anything a writer might try to pass off as a location: canonical coordinates, CBETA
# citations, volume/page/line talk.  Only D writes coordinates.
COORD_LIKE = re.compile(
    r"[TX]\s?\d{1,3}\s?n\s?\d{3,4}[A-Za-z]?_?p?\d{3,4}[a-d]\d{1,2}"
    r"|CBETA[^。\n]{0,40}?p\.?\s*\d+[a-d]\d+"
    r"|[TX]\d{1,3}\s*[,，]\s*no\.?\s*\d+[^。\n]{0,20}"
    r"|(?:大正藏|卍續藏|卍续藏|續藏|续藏)\s*(?:第\s*)?\d+\s*[冊册]?[^。\n]{0,12}?\d+\s*[頁页]?\s*[a-d上中下]?\s*[欄栏]?\s*(?:第\s*)?\d*\s*行?"
    r"|第\s*\d+\s*[冊册]\s*第?\s*\d+\s*[頁页]"
    r"|第\s*\d+\s*[頁页]\s*[上中下]?[欄栏]?\s*第?\s*\d+\s*行"
    r"|\b[pP]\.\s*\d{1,4}\s*[a-d]\s*\d{1,2}", re.IGNORECASE)


def strip_coordinates(text: str) -> tuple[str, list[str]]:
    """Remove anything that looks like a coordinate or page reference; return what was removed.
    Repeated until nothing is left: removing one can expose another glued to it
    (「T22n1428_p0576b27p. 345b14」: the second has no word boundary until the first is gone)."""
    removed: list[str] = []
    while True:
        found = [m.group(0) for m in COORD_LIKE.finditer(text)]
        if not found:
            return text, removed
        removed += found
        text = COORD_LIKE.sub("〔已删除未经核验的出处〕", text)


def citations_in(pack: Pack, text: str, materials: list) -> list[Citation]:
    """Every 「…」(材料N) and bare (材料N) in a written answer, verified."""
    cits = []
    quoted_spans = []
    for m in _QUOTE.finditer(text):
        cits.append(verify(pack, m.group(1), int(m.group(2)), materials))
        quoted_spans.append(m.span())
    for m in _BARE_REF.finditer(text):
        if any(a <= m.start() < b for a, b in quoted_spans):
            continue
        cits.append(verify(pack, "", int(m.group(1)), materials))
    return cits
