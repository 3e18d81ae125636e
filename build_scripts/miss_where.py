"""Where each missed gold passage stood, for a tune group of bridge sets (a developer's tool).

Recall says a gold passage was not among the materials; this says why it was not, which is
what decides the next change:

* ``topic0`` … ``topic3``: inside the places of the chosen topic of that rank (the topic was
  right; its section's other passages took the slots);
* ``runner``: inside the places of a topic ranked next (Matches.runners: a near miss of the
  bridge);
* ``elsewhere``: in neither (the bridge missed the subject, or the passage lies outside every
  treatment the skeleton knows);

and, for each, the passage's rank among its layer's search scores (``unscored``: it holds no
term at all, so only a topic's place or the question's own words could bring it).  A refused
question's gold is left out (the run's "wrongly refused" counts it).

    .venv/bin/python build_scripts/miss_where.py bridge-tune [--list]

(a worktree's candidate: run the worktree's own copy, which reads its code and its corpus_pack)

Only tune groups are read (and the dev set): a held-out question looked at is one tuned on.
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "build_scripts"))
from eval_sets import TUNE_GROUPS, group_files  # noqa: E402
from nanshan_core.tools.evaluate import _rows  # noqa: E402

RANK_BANDS = ((10, "r<10"), (30, "r<30"))


def band(rank: int | None) -> str:
    """A search rank as a coarse band: near enough to be a quota question, or far."""
    if rank is None:
        return "unscored"
    return next((label for limit, label in RANK_BANDS if rank < limit), "r>=30")


def where(doc: int, work: str, topic_places: list[list], runner_places: list) -> str:
    """Which chosen topic's places (by rank), a runner's, or none, hold passage ``doc`` of ``work``."""
    for rank, places in enumerate(topic_places):
        if any(pl.work == work and pl.start <= doc < pl.end for pl in places):
            return f"topic{rank}"
    if any(pl.work == work and pl.start <= doc < pl.end for pl in runner_places):
        return "runner"
    return "elsewhere"


def misses(engine, rows: list[dict]):
    """(question row, gold, location, band) of every gold the materials miss."""
    from nanshan_core.errors import NanshanError
    from nanshan_core.tools.evaluate import gold_hit
    retriever = engine.retriever
    captured: dict = {}
    score = retriever.score_passages

    def keep(*args, **kwargs):
        captured["scored"] = score(*args, **kwargs)
        return captured["scored"]
    retriever.score_passages = keep
    try:
        for row in rows:
            if row.get("expect", "answer") != "answer":
                continue
            captured.clear()
            res = engine.ask(row["question"])
            if res.refused:
                continue
            scored = captured.get("scored", {})
            runners = [pl for m in res.selection.runners for pl in engine.topic_places(m.topic)]
            for g in row.get("gold", []):
                if gold_hit(engine, g, res.materials):
                    continue
                try:
                    hit = retriever.doc_at_line(engine.pack.line(g["coord"]).id)
                except NanshanError:
                    continue
                if hit is None:
                    continue
                doc = hit[0]
                # (its rank: how many passages of its layer the search scored higher)
                rank = sum(1 for d, v in scored.items() if v > scored[doc] and retriever._in_layer(d, g["layer"])) \
                    if doc in scored else None
                yield row, g, where(doc, g["work"], res.places, runners), band(rank)
    finally:
        retriever.score_passages = score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("group", help="a tune group: " + "、".join(g for g in TUNE_GROUPS if g.startswith(("dev", "bridge"))))
    ap.add_argument("--list", action="store_true", help="one line per missed gold (question, quote, location)")
    args = ap.parse_args(argv)
    if args.group not in TUNE_GROUPS or not args.group.startswith(("dev", "bridge")):
        raise SystemExit(f"只读调参题组（dev、bridge-tune）：{args.group} 不行 —— 看过的留出题就成了调参题")
    from nanshan_core.ask.engine import Engine
    from nanshan_core.corpus.pack import open_pack
    engine = Engine(open_pack(ROOT / "corpus_pack"))
    rows = [row for f in group_files(args.group) for row in _rows(f)]
    by_place: Counter = Counter()
    by_layer: Counter = Counter()
    for row, g, loc, rank in misses(engine, rows):
        by_place[(loc, rank)] += 1
        by_layer[(loc, g["layer"])] += 1
        if args.list:
            print(f"{row['id']}\t{g['work']}\t{loc}\t{rank}\t{row['question'][:40]}\t{g['quote'][:30]}")
    total = sum(by_place.values())
    print(f"{args.group}：未取到的金标 {total} 条")
    for loc in sorted({k[0] for k in by_place}):
        n = sum(v for k, v in by_place.items() if k[0] == loc)
        bands = "，".join(f"{b} {by_place[(loc, b)]}" for b in ("r<10", "r<30", "r>=30", "unscored") if by_place[(loc, b)])
        layers = "，".join(f"{x} {by_layer[(loc, x)]}" for x in ("vinaya", "daoxuan", "yuanzhao") if by_layer[(loc, x)])
        print(f"  {loc}: {n}（{bands}；{layers}）")
    return 0


if __name__ == "__main__":
    sys.exit(main())
