"""Model answers remembered, so a question a model took a minute to answer comes back at once.

What is kept is the model's text and the terms it answered with, never a coordinate:
asking again runs A–B with those terms (fast and deterministic on the same pack) and
step D verifies the remembered text against the materials found now, exactly as it
verified it the first time.  The key holds everything that could make the answer
different: the question, the terms or topics the reader fixed, the pack's checksum and
the model file's identity.  A changed pack or model simply misses.  Only answers that
earned their place (verified, not set aside, not cut short) are kept.  The store lives in
the user cache: losing it costs only time.
"""
from __future__ import annotations

import functools
import hashlib
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

from ..paths import user_cache_dir
from ..userdata import atomic_write_json, load_json

FILE_NAME = "model_answers.json"
MAX_ENTRIES = 500
_HEAD = 1 << 20


def model_identity(path: str | os.PathLike) -> str:
    """The model file's size and the hash of its first and last MiB: renaming keeps it, replacing changes it.

    Read once per file state (path, size, mtime), not on every question."""
    st = Path(path).stat()
    return _identity(str(path), st.st_size, st.st_mtime_ns)


@functools.lru_cache(maxsize=8)
def _identity(path: str, size: int, mtime_ns: int) -> str:
    p = Path(path)
    h = hashlib.sha256(str(size).encode())
    with open(p, "rb") as fh:
        h.update(fh.read(_HEAD))
        if size > 2 * _HEAD:
            fh.seek(size - _HEAD)
            h.update(fh.read(_HEAD))
    return h.hexdigest()[:16]


def answer_key(question: str, terms: list[str] | None, topics: list[str] | None, pack_checksum: str,
               model_id: str) -> str:
    data = json.dumps([question.strip(), terms or None, topics or None, pack_checksum, model_id], ensure_ascii=False)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


@dataclass
class Remembered:
    text: str              # the model's answer as it wrote it (coordinates already stripped)
    terms: list[str]       # the terms it answered with
    category: str | None
    model_name: str
    saved: float           # time.time() when it was written
    generation: dict       # its timing when written

    @property
    def label(self) -> str:
        return f"已缓存（{self.model_name}，{time.strftime('%Y-%m-%d %H:%M', time.localtime(self.saved))}）"

    def to_json(self) -> dict:
        return {"text": self.text, "terms": self.terms, "category": self.category, "model_name": self.model_name,
                "saved": self.saved, "generation": self.generation}


def _valid(data) -> bool:
    return isinstance(data, dict) and all(isinstance(v, dict) and isinstance(v.get("text"), str)
                                          for v in data.values())


class AnswerCache:
    """A small JSON store of remembered answers; the oldest go first beyond MAX_ENTRIES."""

    def __init__(self, directory: Path | None = None):
        self.path = Path(directory or user_cache_dir()) / FILE_NAME
        loaded = load_json(self.path, {}, _valid)
        self.entries: dict[str, dict] = loaded.data
        self.message = loaded.message

    def get(self, key: str) -> Remembered | None:
        e = self.entries.get(key)
        if not e:
            return None
        try:
            return Remembered(e["text"], list(e.get("terms") or []), e.get("category"), str(e.get("model_name") or ""),
                              float(e.get("saved") or 0), dict(e.get("generation") or {}))
        except (TypeError, ValueError):
            return None

    def put(self, key: str, item: Remembered) -> None:
        self.entries.pop(key, None)
        self.entries[key] = item.to_json()
        while len(self.entries) > MAX_ENTRIES:
            self.entries.pop(next(iter(self.entries)))
        atomic_write_json(self.path, self.entries)

    def forget(self, key: str) -> None:
        if self.entries.pop(key, None) is not None:
            atomic_write_json(self.path, self.entries)

    def clear(self) -> int:
        n = len(self.entries)
        self.entries = {}
        if self.path.exists():
            self.path.unlink()
        return n

    def __len__(self) -> int:
        return len(self.entries)
