"""Folding traditional text and variant characters to one searchable form.

Readers type simplified Chinese; CBETA is traditional and full of variant
forms (鉢/缽/盋, 婬/淫, 毘/毗).  Search therefore runs on a folded copy of the
text.  The folding is strictly one code point to one code point, decided per
character and never by phrase context, for two reasons:

* offsets carry over unchanged, so a hit at offset k in the folded text is the
  character at offset k in the traditional text the coordinate points at;
* the same character folds the same way in the question and in the corpus
  (OpenCC's phrase tables would turn 乾 into 干 in one context and keep it in
  another, and then the two would not meet).

The map is built at pack time from OpenCC t2s, the rare-character table of the
CBETA headers and ``resources/variants.tsv``, and stored in the pack so that a
question is folded exactly as the index was.
"""
from __future__ import annotations

import functools
from pathlib import Path

from ..paths import resource_path


@functools.lru_cache(maxsize=1)
def _opencc():
    import opencc
    return opencc.OpenCC("t2s")


def t2s_char(ch: str) -> str:
    """OpenCC t2s of one character, kept only when it stays one character."""
    out = _opencc().convert(ch)
    return out if len(out) == 1 else ch


def load_variants(path: Path | None = None) -> dict[str, str]:
    """variants.tsv: ``target<TAB>variants[<TAB>note]``; every variant folds to target (after t2s)."""
    path = path or resource_path("variants.tsv")
    table: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        parts = line.split("\t")
        target = t2s_char(parts[0].strip())
        for v in parts[1].strip():
            table[v] = target
            table[t2s_char(v)] = target
    return table


class Normalizer:
    """Folds text one code point at a time; the same instance serves index and queries."""

    def __init__(self, charmap: dict[str, str]):
        self.map = dict(charmap)
        self._trans = {ord(k): v for k, v in self.map.items()}
        self._variants = None

    @classmethod
    def build(cls, chars, gaiji: dict[str, str] | None = None,
              variants: dict[str, str] | None = None) -> "Normalizer":
        """The map for a corpus: every character seen, folded by gaiji, t2s and variants."""
        variants = load_variants() if variants is None else variants
        gaiji = gaiji or {}
        charmap: dict[str, str] = {}
        for ch in set(chars) | set(variants):
            folded = _fold_one(ch, gaiji, variants)
            if folded != ch:
                charmap[ch] = folded
        n = cls(charmap)
        n._variants = variants
        return n

    def fold(self, text: str) -> str:
        """Search form of ``text``; same length, same offsets."""
        out = text.translate(self._trans)
        if len(out) != len(text):  # pragma: no cover - guarded by construction
            raise AssertionError("normalisation changed the length of the text")
        return out

    def fold_query(self, text: str) -> str:
        """Like fold, but characters unknown to the corpus still get t2s and variant folding."""
        out = []
        for ch in text:
            if ch in self.map:
                out.append(self.map[ch])
            else:
                f = t2s_char(ch) if ord(ch) > 0x2E7F else ch
                if self._variants is None:
                    self._variants = load_variants()
                out.append(self._variants.get(f, f))
        return "".join(out)


def _fold_one(ch: str, gaiji: dict[str, str], variants: dict[str, str]) -> str:
    base = gaiji.get(ch, ch)
    s = t2s_char(base) if len(base) == 1 else base
    return variants.get(s, variants.get(base, s))


def simplify(text: str) -> str:
    """Per-character t2s of free text (questions, vernacular patterns): matching, not display."""
    return "".join(t2s_char(ch) if ord(ch) > 0x2E7F else ch for ch in text)
