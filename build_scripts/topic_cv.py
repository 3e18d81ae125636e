"""Cross-validate the topic bridge on its own modern phrasings (a developer's tool).

The bridge meets a question through the phrasings in resources/topics; a question worded
as one of them is found trivially.  What matters is a wording nobody wrote down.  This
splits every topic's phrasings into k folds, builds the real Matcher without one fold
and asks each held-out phrasing as a question, so that weights and channels can be
chosen on wordings the matcher has not seen — without touching the held-out question
sets in tests/eval:

    .venv/bin/python build_scripts/topic_cv.py [--folds 5] [--limit N] [--frame] [--json OUT]

Prints: how often the topic is the question's main topic (top 1), among the chosen
topics (top 3), and the same per class; --misses lists the misses of one fold.
"""
from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nanshan_core.ask.bridge import Matcher  # noqa: E402
from nanshan_core.ask.engine import Engine  # noqa: E402
from nanshan_core.corpus.pack import Pack  # noqa: E402
from nanshan_core.paths import default_pack_dir  # noqa: E402

FRAMES = ("请问师父，{}？", "{}，这样如法吗？", "阿彌陀佛，想請教：{}")


def fold_of(tid: str, i: int, folds: int) -> int:
    return (zlib.crc32(tid.encode()) + i) % folds


def run(engine: Engine, folds: int, limit: int | None, frame: bool, misses: bool) -> dict:
    skel = engine.skeleton
    topics = skel.matchable()
    saved = {t.id: list(t.phrasings) for t in topics}
    stats: Counter = Counter()
    per_cls: dict[str, Counter] = {}
    shown = 0
    try:
        for k in range(folds):
            held = []
            for t in topics:
                mine = [fold_of(t.id, i, folds) == k for i in range(len(saved[t.id]))]
                held += [(t, p) for p, out in zip(saved[t.id], mine) if out]
                t.phrasings = [p for p, out in zip(saved[t.id], mine) if not out]
            m = Matcher(skel)
            m.sections = engine.matcher.sections
            if limit:
                held = held[:: max(1, len(held) // limit)]
            for n, (t, p) in enumerate(held):
                q = p.replace("*", "")
                if frame:
                    q = FRAMES[n % len(FRAMES)].format(q)
                res = m.match(q)
                ok_ids = {t.id, skel.nun_version.get(t.id)}
                top1 = bool(res.main) and res.main[0].topic.id in ok_ids
                top3 = any(x.topic.id in ok_ids for x in res.chosen(3))
                c = per_cls.setdefault(t.cls, Counter())
                for s in (stats, c):
                    s["n"] += 1
                    s["top1"] += top1
                    s["top3"] += top3
                if misses and k == 0 and not top1 and shown < 80:
                    shown += 1
                    got = res.main[0].topic.label() if res.main else "—"
                    print(f"  {t.label()} ← {q}  得：{got}")
            print(f"fold {k}: {stats['top1']}/{stats['n']} top1 so far", file=sys.stderr)
    finally:
        for t in topics:
            t.phrasings = saved[t.id]
    return {"all": dict(stats), "classes": {c: dict(v) for c, v in sorted(per_cls.items())}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--limit", type=int, help="ask about this many held-out phrasings per fold")
    ap.add_argument("--frame", action="store_true", help="wrap each phrasing in a question's framing")
    ap.add_argument("--misses", action="store_true", help="list the first fold's misses")
    ap.add_argument("--pack", type=Path, default=None)
    ap.add_argument("--json", type=Path, help="write the figures here too")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="try another value of one of bridge.py's weights")
    args = ap.parse_args()
    from nanshan_core.ask import bridge
    for kv in args.set:
        name, value = kv.split("=", 1)
        if not hasattr(bridge, name):
            ap.error(f"bridge.py has no {name}")
        setattr(bridge, name, type(getattr(bridge, name))(value))
    engine = Engine(Pack(default_pack_dir(args.pack)))
    r = run(engine, args.folds, args.limit, args.frame, args.misses)
    a = r["all"]
    print(f"top1 {a['top1']}/{a['n']} = {a['top1'] / max(1, a['n']):.1%}   "
          f"top3 {a['top3']}/{a['n']} = {a['top3'] / max(1, a['n']):.1%}")
    for c, v in r["classes"].items():
        print(f"  {c:10s} top1 {v['top1'] / max(1, v['n']):.0%}  top3 {v['top3'] / max(1, v['n']):.0%}  (n {v['n']})")
    if args.json:
        args.json.write_text(json.dumps(r, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
