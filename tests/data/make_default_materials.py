"""Write default_materials.json: the materials ("layer start-coordinate", in order) the engine
gives for every question of questions-dev.jsonl on the default pack.

The fixture pins what the default pack answers with before the 「其他」 pane existed
(tests/test_other_pane.py compares against it), so it is made by running the code of the
commit *before* that change, not the current code:

    git worktree add /tmp/nanshan-base 71a1669
    cd /tmp/nanshan-base && python tests/data/make_default_materials.py \
        --pack /work/scratch/pack3 --out tests/data/default_materials.json

(this script only uses Engine.ask, Material.layer and Material.start_coord, which that
commit already has).  Generated at 71a1669 ("bench --model-block both …") on the default
21-work pack; the pack's fingerprint is recorded so a mismatch can be told apart from a
retrieval change.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from nanshan_core.ask.engine import Engine  # noqa: E402
from nanshan_core.corpus.pack import Pack  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--pack", required=True)
    p.add_argument("--questions", default=str(ROOT.parent / "shared" / "eval" / "questions-dev.jsonl"))
    p.add_argument("--out", default=str(Path(__file__).with_name("default_materials.json")))
    args = p.parse_args()
    pack = Pack(Path(args.pack), verify="sizes")
    engine = Engine(pack)
    rows = []
    for line in Path(args.questions).read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        q = json.loads(line)
        res = engine.ask(q["question"])
        rows.append({"id": q["id"], "question": q["question"],
                     "materials": [f"{m.layer} {m.start_coord}" for m in res.materials]})
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    out = {"commit": commit, "pack_fingerprint": pack.manifest.get("fingerprint"), "questions": rows}
    Path(args.out).write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} questions -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
