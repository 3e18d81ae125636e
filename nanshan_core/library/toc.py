"""The library: every work of a pack by group, its fascicles and CBETA's own table of contents.

A reader of the printed canon moves through a work by its 分, 犍度 and 篇; CBETA gives
these as ``cb:mulu`` entries, kept in the pack (table ``toc``) with the printed line each
stands on.  The groups are the pack's: 四律 / 五論 / 道宣 / 元照 / 合編, and in a wider
pack 其他律部 / 其他注疏.
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field

GROUP_ORDER = ("四律", "五論", "道宣", "元照", "合編", "其他律部", "其他注疏", "其他")


@dataclass
class TocNode:
    label: str
    level: int
    line: int                      # line id in the pack
    coord: str
    children: list["TocNode"] = field(default_factory=list)


@dataclass
class FascicleNode:
    id: int
    juan: int
    coord: str                     # its first line
    toc: list[TocNode] = field(default_factory=list)


@dataclass
class WorkNode:
    id: str
    title: str
    short: str
    author: str
    group: str
    fascicles: list[FascicleNode] = field(default_factory=list)

    def matches(self, text: str) -> bool:
        """The library filter: a work number (1804, T1804) or any part of its titles."""
        t = text.strip().upper()
        return not t or t in self.id or t.lstrip("TX").lstrip("0") in self.id.lstrip("TX").lstrip("0") \
            or text.strip() in self.title or text.strip() in self.short


def works(pack) -> list[tuple[str, list[WorkNode]]]:
    """[(group, [works])] in the library's order, each work with its fascicles and contents."""
    db = pack.db
    coords = dict(db.execute("SELECT f.id, l.coord FROM fascicles f JOIN lines l ON l.id=f.first_line"))
    fasc_of: dict[str, list[FascicleNode]] = {}
    for fid, work, juan in db.execute("SELECT id, work, juan FROM fascicles ORDER BY id"):
        fasc_of.setdefault(work, []).append(FascicleNode(fid, juan, coords.get(fid, "")))
    try:
        toc_rows = db.execute("SELECT t.fascicle, t.level, t.label || CASE WHEN t.continued THEN '（续）' ELSE '' END, "
                              "t.line, l.coord FROM toc t JOIN lines l ON l.id=t.line "
                              "WHERE t.label<>'' AND t.type<>'卷' ORDER BY t.id").fetchall()
    except Exception:          # a pack without a table of contents still lists its fascicles
        toc_rows = []
    by_fasc: dict[int, list] = {}
    for fid, level, label, line, coord in toc_rows:
        by_fasc.setdefault(fid, []).append(TocNode(label, level or 1, line, coord))
    out: dict[str, list[WorkNode]] = {}
    for wid, title, short, author, grp in db.execute("SELECT id, title, short, author, grp FROM works"):
        node = WorkNode(wid, title, short, author or "", grp or "其他", fasc_of.get(wid, []))
        for f in node.fascicles:
            f.toc = nest(by_fasc.get(f.id, []))
        out.setdefault(node.group, []).append(node)
    order = {g: i for i, g in enumerate(GROUP_ORDER)}
    return sorted(out.items(), key=lambda kv: order.get(kv[0], 99))


def nest(entries: list[TocNode]) -> list[TocNode]:
    """Flat entries with levels -> a tree (a deeper level goes under the last shallower one)."""
    roots: list[TocNode] = []
    stack: list[TocNode] = []
    for e in entries:
        while stack and stack[-1].level >= e.level:
            stack.pop()
        (stack[-1].children if stack else roots).append(e)
        stack.append(e)
    return roots


def where(fascicle: FascicleNode, line_id: int) -> list[TocNode]:
    """The path of contents entries a line stands under (outermost first): the reader's place."""
    path: list[TocNode] = []
    level = fascicle.toc
    while level:
        starts = [n.line for n in level]
        k = bisect.bisect_right(starts, line_id) - 1
        if k < 0:
            break
        path.append(level[k])
        level = level[k].children
    return path
