"""Step A′: the clue table — topics and the coordinates of their main passages.

Consulted before retrieval, it adds the passages keyword search may rank
low: where 四分律 states a rule and its 不犯 clauses, where 行事鈔 treats the
precept in 隨戒釋相篇, where 資持記 and the 疏記 explain it.  It holds
coordinates only, never text; every coordinate is checked against the pack by
the tests.  A clue fires when the chosen terms meet its keys.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from ..corpus.normalize import simplify
from ..paths import load_resource_json

MAX_CLUES = 3


@dataclass(frozen=True)
class Clue:
    id: str
    title: str
    keys: tuple
    coords: tuple
    simple_keys: tuple = ()    # the keys in simplified script, as terms are compared


@functools.lru_cache(maxsize=1)
def clue_table() -> tuple[Clue, ...]:
    data = load_resource_json("clues.json")
    return tuple(Clue(c["id"], c.get("title", c["id"]), tuple(c["keys"]), tuple(c["coords"]),
                      tuple(simplify(k) for k in c["keys"]))
                 for c in data["clues"])


def fire(terms: list[str], limit: int = MAX_CLUES, weights: list[float] | None = None) -> list[tuple[Clue, float]]:
    """Clues whose keys the terms meet, strongest first.

    A key met exactly counts its length, met in part (3+ characters) half; each
    times the trust in the term that met it, so a weak glossary match cannot fire
    a clue on its own."""
    pairs = [(simplify(t), w) for t, w in zip(terms, weights or [1.0] * len(terms)) if len(t) >= 2]
    if not pairs:
        return []
    out = []
    for c in clue_table():
        score = 0.0
        for sk in c.simple_keys:
            exact = [w for t, w in pairs if t == sk]
            if exact:
                score += len(sk) * max(exact)
                continue
            # a key inside a longer term, or a term inside a longer key, counts half —
            # only for three characters or more, so 比丘 in 奪比丘衣 counts nothing
            part = [min(len(sk), len(t)) * w for t, w in pairs if (sk in t or t in sk) and min(len(sk), len(t)) >= 3]
            score += 0.5 * max(part, default=0)
        if score >= 2:
            out.append((c, score))
    out.sort(key=lambda x: -x[1])
    return out[:limit]


def coords_for(fired: list[tuple[Clue, float]]) -> list[str]:
    """The fired clues' coordinates, taking each clue's first before any clue's second.

    A layer has only a few clue slots: when a question touches two topics, each
    gets its main passage rather than the first topic taking every slot."""
    seen, out = set(), []
    depth = max((len(c.coords) for c, _ in fired), default=0)
    for k in range(depth):
        for c, _ in fired:
            if k < len(c.coords) and c.coords[k] not in seen:
                seen.add(c.coords[k])
                out.append(c.coords[k])
    return out
