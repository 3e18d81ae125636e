"""Cross-validate the scope gate inside its training questions (a developer's tool).

The gate's classifier is trained on resources/scope/labelled-*.jsonl; its figures on those
questions are inflated (it has seen them), and the test half in tests/eval must not be used
to choose settings.  This splits the training questions into k folds, trains on k-1 and
decides the held-out fold with the real gate (patterns, lexicon, topic subject), so that a
setting can be chosen on questions the classifier has not seen:

    .venv/bin/python build_scripts/scope_cv.py [--alpha 1.0 0.5] [--folds 5] [--by-file] [--pack DIR]
                                               [--set NAME=VALUE]

Prints, per smoothing value: refusals caught, near-misses wrongly refused (each listed),
scope notes and silent topics recognised.

--by-file holds out one labelled file at a time and trains on the others.  The files were
written at different times, in different words; random folds share a file's wording between
training and held-out questions and flatter the gate (83% of refusals caught inside the old
two files, 53% on a third file written later).  Leaving a whole file out is the better
forecast of questions nobody wrote.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nanshan_core.ask import gate as gate_mod  # noqa: E402
from nanshan_core.ask.engine import Engine  # noqa: E402
from nanshan_core.corpus.pack import Pack  # noqa: E402
from nanshan_core.paths import default_pack_dir  # noqa: E402


def examples(rows: list[dict]) -> list[tuple[str, str]]:
    out = []
    for r in rows:
        if r["label"] == "refuse":
            out.append((r["question"], r["kind"]))
        elif r["label"] in ("answer", "silent"):
            out.append((r["question"], "answer"))
    return out


def run(engine: Engine, rows: list[dict], alpha: float, folds: int) -> Counter:
    """k random folds of all rows; a row's "_file" is ignored."""
    splits = [([r for i, r in enumerate(rows) if i % folds != k], [r for i, r in enumerate(rows) if i % folds == k])
              for k in range(folds)]
    return decide_held_out(engine, splits, alpha)


def run_by_file(engine: Engine, rows: list[dict], alpha: float) -> Counter:
    """Each labelled file held out in turn, trained on the others."""
    files = sorted({r["_file"] for r in rows})
    return decide_held_out(engine, [([r for r in rows if r["_file"] != f], [r for r in rows if r["_file"] == f])
                                    for f in files], alpha)


SHOW_MISSES = False     # --misses: also list the should-refuse questions not refused


def decide_held_out(engine: Engine, splits: list[tuple[list[dict], list[dict]]], alpha: float) -> Counter:
    model = type("Smoothed", (gate_mod.NaiveBayes,), {"ALPHA": alpha})
    stats: Counter = Counter()
    for train, held in splits:
        gate = gate_mod.Gate(engine.matcher)
        gate.nb = model(examples(train))
        for r in held:
            outcome = gate.decide(r["question"], engine.matcher.match(r["question"])).outcome
            stats[r["label"]] += 1
            if r["label"] == "refuse":
                stats["refused"] += outcome == "refuse"
                stats["refused_or_noted"] += outcome in ("refuse", "scope_note")
                stats[f"of:{r['kind']}"] += 1
                stats[f"ok:{r['kind']}"] += outcome == "refuse"
                if outcome != "refuse" and SHOW_MISSES:
                    print(f"  漏拒 {r['kind']}→{outcome}（alpha {alpha}）：{r['question']}")
            elif r["label"] == "answer" and outcome == "refuse":
                stats["wrongly_refused"] += 1
                print(f"  误拒（alpha {alpha}）：{r['question']}")
            elif r["label"] == "answer" and outcome == "scope_note":
                stats["wrongly_noted"] += 1      # answered, but with a note that part is out of scope
                print(f"  误加范围说明（alpha {alpha}）：{r['question']}")
            elif r["label"] == outcome:          # scope_note, silent
                stats[f"{outcome}_ok"] += 1
    return stats


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--alpha", type=float, nargs="+", default=[1.0, 0.5])
    p.add_argument("--folds", type=int, default=5)
    p.add_argument("--by-file", action="store_true", help="hold out one labelled file at a time")
    p.add_argument("--pack", default=None)
    p.add_argument("--misses", action="store_true", help="also list the should-refuse questions not refused")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="try another value of one of gate.py's settings (LEX_WEIGHT=0.5)")
    args = p.parse_args()
    global SHOW_MISSES
    SHOW_MISSES = args.misses
    for kv in args.set:
        name, value = kv.split("=", 1)
        if not hasattr(gate_mod, name):
            p.error(f"gate.py has no {name}")
        setattr(gate_mod, name, type(getattr(gate_mod, name))(value))
    rows = []
    for path in sorted((ROOT / "resources" / "scope").glob("labelled-*.jsonl")):
        rows += [{**json.loads(line), "_file": path.name}
                 for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    random.Random(7).shuffle(rows)
    engine = Engine(Pack(default_pack_dir(args.pack)))
    for alpha in args.alpha:
        s = run_by_file(engine, rows, alpha) if args.by_file else run(engine, rows, alpha, args.folds)
        print(f"alpha {alpha}: 拒答 {s['refused']}/{s['refuse']}（含范围说明 {s['refused_or_noted']}），"
              f"误拒 {s['wrongly_refused']}/{s['answer']}（误加范围说明 {s['wrongly_noted']}），范围说明 {s['scope_note_ok']}/{s['scope_note']}，"
              f"无明文 {s['silent_ok']}/{s['silent']}")
        kinds = sorted(k[3:] for k in s if k.startswith("of:"))
        print("  各类拒答：" + "；".join(f"{k} {s['ok:' + k]}/{s['of:' + k]}" for k in kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
