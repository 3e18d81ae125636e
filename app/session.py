"""What a window works on: one pack, the engine over it, and the reader's own data.

Opening is split in two so the window can appear at once: the manifest and
file sizes are checked before anything is shown (a missing or foreign pack
must send the user to the first-run dialog), while the sha256 check of every
file and the engine's warm-up run afterwards in the engine's worker thread,
ahead of the first question.  The sha256 check matters because Whoosh
unpickles its segment files: a tampered index must be refused, not loaded.
"""
from __future__ import annotations

import threading
import time
from functools import cached_property
from pathlib import Path

from nanshan_core.ask.engine import Engine
from nanshan_core.corpus.pack import FascicleRow, LineRow, Pack
from nanshan_core.paths import default_pack_dir
from nanshan_core.userdata import UserData

FASCICLE_CACHE = 24
_VERIFIED: set[tuple[str, str]] = set()     # (pack path, build time) checked in full by this process


class Session:
    def __init__(self, pack: Pack, userdata: UserData, engine: Engine | None = None):
        self.pack = pack
        self.engine = engine or Engine(pack)
        self.userdata = userdata
        self._lines: dict[int, list[LineRow]] = {}
        self._lines_lock = threading.Lock()

    @cached_property
    def gaiji(self) -> dict[str, dict]:
        return self.pack.gaiji()

    @cached_property
    def forms(self) -> dict:
        """How each rare character is painted, given the fonts this machine has (see display.py)."""
        from .display import resolve
        from .fonts import drawable
        return resolve(self.gaiji, drawable)

    @cached_property
    def fold(self):
        return self.pack.normalizer.fold

    def fold_query(self, text: str) -> str:
        return self.pack.normalizer.fold_query(text)

    def work_title(self, work: str) -> str:
        w = self.pack.works.get(work)
        return w["short"] if w else work

    def fascicle_lines(self, fid: int) -> list[LineRow]:
        """Lines of a fascicle, the last few kept in memory (going back and forth is common)."""
        with self._lines_lock:
            lines = self._lines.pop(fid, None)
        if lines is None:
            lines = self.pack.fascicle_lines(fid)
        with self._lines_lock:
            self._lines[fid] = lines
            while len(self._lines) > FASCICLE_CACHE:
                self._lines.pop(next(iter(self._lines)))
        return lines

    def prefetch(self, coords: list[str]) -> int:
        """Read ahead the fascicles an answer points into (worker thread): the reader is
        likely to open one of them next, and then it opens without touching the disk."""
        done = 0
        for fid in dict.fromkeys(self.pack.line(c).fascicle for c in coords):
            with self._lines_lock:
                cached = fid in self._lines
            if not cached:
                self.fascicle_lines(fid)
                done += 1
        return done

    def siblings(self, fascicle: FascicleRow) -> list[FascicleRow]:
        return self.pack.fascicles(fascicle.work)

    def warm_up(self) -> float:
        """Full checksum check, then load what the first question needs; returns milliseconds."""
        t = time.perf_counter()
        key = (str(self.pack.path), str(self.pack.manifest.get("built")))
        if key not in _VERIFIED:
            Pack(self.pack.path, verify="full")      # raises PackError on a damaged pack
            _VERIFIED.add(key)
        self.engine.warm_up()
        self.gaiji
        return (time.perf_counter() - t) * 1000


def open_session(pack_dir: str | Path | None = None, userdata: UserData | None = None) -> Session:
    """Open the pack (--pack, NANSHAN_PACK, or the default); PackError if there is none."""
    pack = Pack(default_pack_dir(pack_dir), verify="cached")
    return Session(pack, userdata or UserData())
