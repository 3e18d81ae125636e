"""Red lines: questions the app refuses, decided by code alone.

Doctrine and metaphysics outside Vinaya practice, verdicts on a named temple
or person, requests to invent or "improve" citations, and medical, legal or
financial advice are refused with a short note of what the tool does answer.
A refused question retrieves nothing and shows nothing as an answer; no model
output is consulted, so no prompt can talk the app out of a refusal.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .normalize import simplify
from .paths import load_resource_json

# Characters that do not begin a proper name: 「在寺里」「这座寺」 are not names, 「灵隐寺」 is.
_NOT_NAME = set("在到去回进出住的个座所家院里本某这那此该各全一每别他她我你们小新老于从向离来是有和与及"
                "或了着过把被给让对为以可能会要想都也还就只才又再很太最更几多些附近各位寺庙间")
_PLACE = re.compile(r"([\u4e00-\u9fff]{2})(?:寺|庵|禅院|精舍|佛学院|道场)")
_PERSON = re.compile(r"([\u4e00-\u9fff]{2})(?:法师|和尚|长老|住持|方丈|禅师|老和尚)")


@dataclass(frozen=True)
class Refusal:
    kind: str
    label: str
    reply: str


@functools.lru_cache(maxsize=1)
def _rules() -> tuple[list[dict], str]:
    data = load_resource_json("redlines.json")
    rules = []
    for r in data["rules"]:
        rules.append({**r,
                      "any_re": [_pattern(p) for p in r["any"]],
                      "unless_re": [_pattern(p) for p in r.get("unless", [])]})
    return rules, data.get("scope_note", "")


def _pattern(p: str) -> re.Pattern:
    return re.compile(".{0,6}".join(re.escape(simplify(part)) for part in p.split("*")), re.IGNORECASE)


def names_someone(question: str) -> bool:
    """Does the question name a particular temple or person (灵隐寺, 某某法师)?"""
    q = simplify(question)
    for rx in (_PLACE, _PERSON):
        for m in rx.finditer(q):
            if not (set(m.group(1)) & _NOT_NAME):
                return True
    return False


def check(question: str) -> Refusal | None:
    """The first red line the question crosses, or None."""
    rules, scope = _rules()
    q = simplify(question)
    for r in rules:
        if not any(rx.search(q) for rx in r["any_re"]):
            continue
        if any(rx.search(q) for rx in r["unless_re"]):
            continue
        if r.get("named") and not names_someone(question):
            continue
        return Refusal(r["kind"], r["label"], f"此问超出本工具的范围（{r['label']}）。{r['reply']}")
    return None


def scope_note() -> str:
    return _rules()[1]
