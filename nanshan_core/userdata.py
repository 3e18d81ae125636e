"""The reader's own data: question history, bookmarks, settings.

Nothing the user wrote may be lost by a crash or a bad file.  Every write
goes to a temporary file in the same directory, is flushed to disk, and is
renamed over the old file (an atomic replace on every platform we ship to).
A file that cannot be read is moved aside as ``name.corrupt-<time>`` — kept,
not deleted — and the app goes on with an empty store and a message saying
where the old file went.
"""
from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from .paths import user_config_dir, user_data_dir

HISTORY_MAX = 200


def atomic_write_json(path: Path, data) -> None:
    atomic_write_text(path, json.dumps(data, ensure_ascii=False, indent=1))


def atomic_write_text(path: Path, text: str) -> None:
    """``text`` in ``path`` as UTF-8, or the old file untouched: never half of each."""
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """``data`` in ``path``, or the old file untouched: never half of each."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


@dataclass
class LoadResult:
    data: object
    message: str | None = None     # set when a corrupt file was moved aside


def load_json(path: Path, default, validate=None) -> LoadResult:
    """Read a JSON store; a corrupt one is moved aside (never deleted) and ``default`` returned."""
    path = Path(path)
    if not path.exists():
        return LoadResult(default)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if validate is not None and not validate(data):
            raise ValueError("unexpected structure")
        return LoadResult(data)
    except (OSError, ValueError, UnicodeDecodeError) as exc:
        aside = path.with_name(f"{path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(path, aside)
            where = f"已将原文件移到 {aside}"
        except OSError:
            where = "原文件无法移动，已保持原样"
        return LoadResult(default, f"{path.name} 无法读取（{type(exc).__name__}），{where}；程序已用空白记录继续。")


@dataclass
class Bookmark:
    coord: str
    note: str = ""
    created: str = ""
    text: str = ""           # the line as it read when bookmarked, for the list


def _bookmark_like(x) -> bool:
    """A bookmark as saved: a dict whose coord, and note / created / text if present, are text."""
    return (isinstance(x, dict) and isinstance(x.get("coord"), str)
            and all(isinstance(x.get(k, ""), str) for k in ("note", "created", "text")))


class UserData:
    """History, bookmarks and settings of one user; thread-safe; every change saved at once."""

    def __init__(self, data_dir: Path | None = None, config_dir: Path | None = None):
        self.data_dir = Path(data_dir or user_data_dir())
        self.config_dir = Path(config_dir or user_config_dir())
        self._lock = threading.Lock()
        self.messages: list[str] = []
        h = load_json(self.history_path, [], lambda d: isinstance(d, list) and all(isinstance(x, str) for x in d))
        b = load_json(self.bookmarks_path, [], lambda d: isinstance(d, list) and all(map(_bookmark_like, d)))
        s = load_json(self.settings_path, {}, lambda d: isinstance(d, dict))
        self.messages += [r.message for r in (h, b, s) if r.message]
        self.history: list[str] = list(h.data)
        self.bookmarks: list[Bookmark] = [Bookmark(**{k: v for k, v in x.items() if k in Bookmark.__dataclass_fields__})
                                          for x in b.data]
        self.settings: dict = dict(s.data)

    @property
    def history_path(self) -> Path:
        return self.data_dir / "history.json"

    @property
    def bookmarks_path(self) -> Path:
        return self.data_dir / "bookmarks.json"

    @property
    def settings_path(self) -> Path:
        return self.config_dir / "settings.json"

    # -- history --------------------------------------------------------------
    def add_history(self, question: str) -> None:
        q = question.strip()
        if not q:
            return
        with self._lock:
            self.history = [q] + [x for x in self.history if x != q]
            del self.history[HISTORY_MAX:]
            atomic_write_json(self.history_path, self.history)

    def clear_history(self) -> None:
        with self._lock:
            self.history = []
            atomic_write_json(self.history_path, self.history)

    # -- bookmarks -------------------------------------------------------------
    def add_bookmark(self, coord: str, note: str = "", text: str = "") -> Bookmark:
        with self._lock:
            bm = Bookmark(coord, note, time.strftime("%Y-%m-%d %H:%M"), text)
            self.bookmarks = [x for x in self.bookmarks if x.coord != coord] + [bm]
            self._save_bookmarks()
            return bm

    def update_bookmark(self, coord: str, note: str) -> None:
        with self._lock:
            for bm in self.bookmarks:
                if bm.coord == coord:
                    bm.note = note
            self._save_bookmarks()

    def remove_bookmark(self, coord: str) -> None:
        with self._lock:
            self.bookmarks = [x for x in self.bookmarks if x.coord != coord]
            self._save_bookmarks()

    def _save_bookmarks(self) -> None:
        atomic_write_json(self.bookmarks_path, [bm.__dict__ for bm in self.bookmarks])

    # -- saving elsewhere ---------------------------------------------------------
    def export(self, path: Path) -> Path:
        """Everything in memory (history, bookmarks with notes, settings) to a file the user
        chose: the way out when the data directory cannot be written (a full disk)."""
        with self._lock:
            data = {"history": self.history, "bookmarks": [bm.__dict__ for bm in self.bookmarks],
                    "settings": self.settings, "exported": time.strftime("%Y-%m-%d %H:%M")}
        atomic_write_json(Path(path), data)
        return Path(path)

    # -- settings -----------------------------------------------------------------
    def get(self, key: str, default=None):
        """A setting, or ``default`` when it is missing or of another type than the default
        (a hand-edited settings.json must not crash the window: font_scale "big")."""
        value = self.settings.get(key, default)
        if default is None or value is None or isinstance(value, type(default)):
            return value
        if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        return default

    def set(self, key: str, value) -> None:
        with self._lock:
            self.settings[key] = value
            atomic_write_json(self.settings_path, self.settings)
