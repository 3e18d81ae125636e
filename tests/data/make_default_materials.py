"""Write default_materials.json: the materials ("layer start-coordinate", in order) the engine
gives for every question of questions-dev.jsonl on the default pack.

The fixture pins what the default pack answers with (tests/test_other_pane.py compares
against it): a change meant for a wider pack must leave it untouched.  It was first made by
the code before the 「其他」 pane existed (71a1669); after a deliberate retrieval change it is
made again from a clean checkout of the commit that made the change, and the commit that
updates it says so:

    python tests/data/make_default_materials.py --pack corpus_pack

Last remade on 2026-12-06 (stop 55), after a part's best topic came to count the part's own main
topic too and a nuns' shared rule came to be placed at the monks' rule's Vinaya passages (dev-19's
third and fourth 律本 materials swapped places; dev recall 77/90 unchanged); before that on
2026-12-05 (stop 47), after an asking part's strongest topic came to weigh as that
part's own in the chosen topics (the materials of a few dev questions moved; dev recall 76/90
unchanged); before that on 2026-12-05 (stop 46), after a layer's topic share came to go to each chosen topic's
first place before any topic's second (five dev questions' 律本 materials changed by one passage,
another topic's rule for the main topic's second passage; dev recall 76/90 unchanged); before that on 2026-12-05 (stop 44), after the runner-up topics came to raise their sections in
道宣's and 元照's search (28 dev materials of those two layers moved, dev recall 76/90 unchanged);
before that on 2026-12-04 (stop 40), after 資持記's glosses opening 「N亦因…」/「N因前…」 came to be their rules' (dev-05's 單提 45 now has its own 元照 material; dev recall 76/90 unchanged); before that on 2026-12-04 (stop 40), after 資持記's rule glosses came to be found by their own number (「第九佛在舍衛」; dev-05's 元照 material moved from 單提 7's gloss to 單提 9's, and the 元照 materials of a few other dev questions, only 元照, moved; dev recall 76/90 unchanged); before that on 2026-12-04 (stop 38), after a 行事鈔 section's parallels in the other Vinayas came to be raised in the
search (dev-23's 五分律 material moved, dev recall 76/90 unchanged); before that on 2026-12-04 (stop 38), after 行事鈔 and 資持記 came to place 二不定, 四提舍尼 and 眾學 by name (one dev
question's 道宣/元照 materials moved, dev recall 76/90 unchanged); before that on 2026-12-04 (stop 37), after the word map's names for asked-about things became search terms and a
red envelope stopped being a silent thing (dev-01, dev-08, dev-22 moved, dev recall 76/90 unchanged); before that on 2026-12-03 (stop 35), after a combined edition's (X0714) place came to run over the whole block
on the rule and the asking words stopped inviting (dev-03 and others moved, dev recall 74 -> 76/90); before that (stop 34), after the 眾學 and 滅諍 topics gained phrasings and the question
analysis learnt greetings, pointers and follow-ups (dev materials moved, dev recall 74/90 unchanged); before that (stop 33), after a silent topic's rules stopped being pushed out by the
question's runners-up (dev-01 moved, dev recall 74/90 unchanged); before that (stop 33) after a chapter's opening stopped standing for a topic it only
surrounds (dev-01, 13, 20, 21 moved, dev recall 73 -> 74/90); before that (stop 33) after an answer came to be about up to four topics, not three
(11 dev questions' materials moved, dev recall 72 -> 73/90); before that on 2026-12-03 (stop 32), after 183 everyday words joined the word map (dev-08's and
dev-14's materials moved, dev recall 72/90 unchanged); before that on 2026-12-03 (stop 30), after a place came to open at the passage holding its anchor's
character, not the one holding its line's start (10 dev questions' materials moved, dev recall 72/90
unchanged); before that after 63 more ruling procedures (法/比丘尼/受戒/說戒/安居/自恣揵度;
5 dev questions' materials moved, dev recall unchanged); before that after 113 procedures of the 犍度 rulings joined the skeleton, a
sure topic's word came to survive the terms' cap and runners-up came to be measured within their part
(11 dev questions' materials moved, dev recall 72/90 unchanged); before that, after 犍度 procedures that 行事鈔 only quotes got those quotations
as their 道宣 and 元照 places (dev-20's 元照 materials moved, dev recall unchanged); on 2026-12-02 (stop 28), after 行事鈔 sections got the 四分律 passages they quote as
their 律本 places (11 dev questions' 律本 materials moved, dev recall 72/90, +1); in stop 27
after 比丘尼鈔 and 羯磨疏's 諫 list gave nuns' rules and the admonition rules places, and the
question's own words came to choose inside a topic's section
(6 dev questions' materials moved, dev recall unchanged), and again when a chapter's opening gave
its slot to the passage inside it the question points to (2 more moved, dev recall unchanged),
and again when the topics' own places came to take 5 of a layer's 8 slots (3 moved, dev recall
unchanged); in stop 26 after a question of several
parts came to be read whole too and monks' rules took their nuns' versions' names (1 dev
question's materials moved, dev recall unchanged); in stop 25 after 遮, 拘睒彌 and 滅諍 揵度's procedures got 行事鈔 and
資持記 places (5 dev questions' materials moved, dev recall unchanged); before that after the
seven 滅諍 got 含注戒本 and 戒本疏 places (5 dev questions); after the skeleton got nine more
sections (邪命, 臥法 …; 6 dev questions) and after a rule's 不犯
clause got a slot of its own beside the rule (11 dev questions); in stop 23 after both 不定
rules got their 戒本疏 heading, 疏 and 記 (dev-05, a monk alone with a woman); before that
in stop 22 after each chosen topic got its own passages in every layer (see the git log of
this file).  The script only
uses Engine.ask, Material.layer and Material.start_coord.  The pack's fingerprint is
recorded so that a mismatch can be told apart from a retrieval change (a rebuilt pack with
other passages).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path.cwd()           # the checkout whose engine is run (the starting commit, see above)
sys.path.insert(0, str(ROOT))

from nanshan_core.ask.engine import Engine  # noqa: E402
from nanshan_core.corpus.pack import Pack  # noqa: E402


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--pack", required=True)
    p.add_argument("--questions", default=str(Path(__file__).resolve().parents[3] / "shared" / "eval" / "questions-dev.jsonl"))
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
    # every module of the engine came from this checkout (an editable install elsewhere must not lend any)
    strays = [m.__file__ for name, m in sys.modules.items()
              if name.startswith("nanshan_core") and getattr(m, "__file__", None)
              and not Path(m.__file__).resolve().is_relative_to(ROOT.resolve())]
    if strays:
        raise SystemExit(f"modules from outside {ROOT}: {strays}")
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "diff", "--stat", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    out = {"commit": commit, "uncommitted": dirty.splitlines()[-1] if dirty else "", "pack_fingerprint": pack.manifest.get("fingerprint"), "questions": rows}
    Path(args.out).write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"{len(rows)} questions -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
