"""What a change did to a question set, question by question (a developer's tool).

Run the evaluation before and after a change and compare:

    .venv/bin/nanshan eval tests/eval/bridge-tune.jsonl --json > /tmp/before.json
    (change the code)
    .venv/bin/nanshan eval tests/eval/bridge-tune.jsonl --json > /tmp/after.json
    .venv/bin/python build_scripts/eval_diff.py /tmp/before.json /tmp/after.json

It prints each question whose gold passages (in materials) or main-topic hit changed, then the
totals before → after.  Use it on the tune half and the dev set; on a held-out set read only
the totals (``--totals``): a miss read there is a question tuned on.
"""
from __future__ import annotations

import argparse
import json
import sys


def totals(d: dict) -> str:
    recall = d["recall"]["overall"]
    topic = d.get("main_topic") or {}
    quoted = d.get("quoted", {}).get("overall", {})
    parts = [f"召回 {recall['hit']}/{recall['of']}"]
    if topic.get("of"):
        parts.append(f"主题 {topic['hit']}/{topic['of']}")
    if quoted:
        parts.append(f"引用 {quoted['hit']}/{quoted['of']}")
    parts.append(f"零命中 {len(d.get('zero_hit', []))}")
    return "，".join(parts)


def changes(before: dict, after: dict) -> list[str]:
    old = {q["id"]: q for q in before["per_question"]}
    out = []
    for q in after["per_question"]:
        p = old.get(q["id"])
        if p is None:
            out.append(f"{q['id']}：新问题")
            continue
        if p["gold"] != q["gold"] or p.get("topic_hit") != q.get("topic_hit"):
            gained = sum(1 for a, b in zip(p["gold"], q["gold"]) if b and not a)
            lost = sum(1 for a, b in zip(p["gold"], q["gold"]) if a and not b)
            topic = "" if p.get("topic_hit") == q.get("topic_hit") else \
                f"，主题 {'命中' if q.get('topic_hit') else '未中'}（原{'命中' if p.get('topic_hit') else '未中'}）"
            out.append(f"{q['id']}：gold +{gained} −{lost}{topic}")
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before")
    p.add_argument("after")
    p.add_argument("--totals", action="store_true", help="only the totals (for a held-out set)")
    args = p.parse_args()
    before = json.loads(open(args.before, encoding="utf-8").read())
    after = json.loads(open(args.after, encoding="utf-8").read())
    if not args.totals:
        for line in changes(before, after):
            print(line)
    print(f"之前：{totals(before)}")
    print(f"之后：{totals(after)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
