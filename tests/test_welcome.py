"""The first screen's example questions, asked through the real engine on the full pack.

An example teaches only if clicking it gives a good answer: each must be
answered (not refused), land in the category the file files it under, and
quote checked lines in all three layers.  A corpus or engine change that
spoils one fails here, before a reader clicks it.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from nanshan_core.ask.retrieve import LAYERS
from nanshan_core.ask.terms import CATEGORIES
from nanshan_core.i18n import TRADITIONAL, localize

from app.welcome import coord_reading, load_examples, sample_coord

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = load_examples()
EVAL_FILES = [*(ROOT / "tests" / "eval").glob("*.jsonl"), *(ROOT / "resources" / "scope").glob("labelled-*.jsonl"),
              *(ROOT.parent / "shared" / "eval").glob("*.jsonl")]


def test_every_category_has_one_or_two_examples():
    counts = {c: sum(e.category == c for e in EXAMPLES) for c in CATEGORIES}
    assert counts.pop("超范围") == 0
    assert all(1 <= n <= 2 for n in counts.values()), counts
    assert len({e.question for e in EXAMPLES}) == len(EXAMPLES)


def test_no_example_is_taken_from_an_evaluation_set():
    asked = set()
    for path in EVAL_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                asked.add(json.loads(line).get("question", "").strip())
    assert asked, "no evaluation set found to compare with"
    assert not [e.question for e in EXAMPLES if e.question in asked]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.question for e in EXAMPLES])
def test_example_is_answered_in_its_category_from_all_three_layers(engine, example):
    result = engine.ask(example.question)
    assert not result.refused, result.selection.refusal
    assert result.selection.category == example.category
    for layer in LAYERS:
        assert [m for m in result.materials if m.layer == layer], f"no {layer} material"
        quoted = [c for c in result.answer.panes.get(layer, []) if c.level == "line"]
        assert quoted, f"the answer quotes no checked line of {layer}"


def test_the_explained_coordinate_is_a_line_of_the_pack(full_pack):
    coord = sample_coord()
    line = full_pack.line(coord)
    assert line.coord == coord and line.text.strip()
    assert coord_reading(coord) == "大正藏第22册、第1428号、第571页上栏（a）第22行"


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.question for e in EXAMPLES])
def test_example_in_traditional_is_the_same_question(engine, example):
    """In 繁體 the first screen shows and asks each example localized: the engine must take it as the
    same question (same terms, category and materials), or a 繁體 reader's click would teach otherwise."""
    asked = localize(example.question, TRADITIONAL)
    cn, tw = engine.ask(example.question), engine.ask(asked)
    assert tw.selection.category == cn.selection.category == example.category
    assert tw.selection.texts == cn.selection.texts
    assert [m.start_coord for m in tw.materials] == [m.start_coord for m in cn.materials]
