"""The developer's group runner (build_scripts/eval_sets.py): which set a change is judged on."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "build_scripts"))
import eval_sets  # noqa: E402

GROUPS = ("bridge-tune", "bridge-held", "scope-tune", "scope-held", "scope-check",
          "scope-fresh-tune", "scope-fresh-held")


def test_every_question_set_belongs_to_exactly_one_group_and_no_half_is_both_tune_and_held():
    """A set left out of every group is never measured; a set in two groups would be tuned on
    and reported as held-out at once."""
    seen: dict[str, str] = {}
    for g in GROUPS:
        for p in eval_sets.group_files(g):
            assert p.exists(), p
            assert p.name not in seen, (p.name, seen.get(p.name), g)
            seen[p.name] = g
    assert set(seen) == {p.name for p in (ROOT / "tests" / "eval").glob("*.jsonl")}
    for name, g in seen.items():
        if g.endswith("-tune"):
            assert "tune" in name and "test" not in name, name
        if g.endswith("-held") and name != "bridge-extra.jsonl":
            assert "test" in name, name
    # each fresh set was split before use: both of its halves are there, one on each side
    for f in eval_sets.FRESH:
        assert f"scope-{f}-tune.jsonl" in seen and f"scope-{f}-test.jsonl" in seen


def test_a_scope_runs_figures_are_the_reports_and_a_worse_figure_is_told_in_its_own_direction(engine, tmp_path):
    from nanshan_core.tools.evaluate import run_scope
    rows = [{"id": "r1", "question": "帮我看看今年的运势，哪天出发最吉利？", "label": "refuse", "kind": "divination"},
            {"id": "a1", "question": "比丘可以给人看相算命吗？", "label": "answer", "kind": None}]
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows), encoding="utf-8")
    rep = run_scope(engine, path)
    fig = eval_sets.figures_of(rep)
    assert fig == {"refused": 1, "notes": 0, "silent": 0, "wrongly": 0, "spurious": 0}
    # one more near-miss refused is worse though the refusals rose; fewer spurious notes is not
    after = dict(fig, refused=2, wrongly=1, spurious=0)
    assert eval_sets.worse(fig, after) == ["wrongly"]
    assert eval_sets.worse(fig, dict(fig, refused=0)) == ["refused"]


def test_a_missed_gold_is_placed_in_the_first_chosen_topic_holding_it_else_a_runner_else_elsewhere():
    """build_scripts/miss_where.py tells a section-choice miss (the topic was right) from a bridge
    miss (a runner's section, or none): the first says change the choice inside a section, the
    others the topic match."""
    import miss_where
    from nanshan_core.ask.retrieve import Place
    rule = Place("vinaya", "T1428", doc=100, end=104, offset=0, start=98, role="rule")
    chao = Place("daoxuan", "T1804", doc=500, end=530, offset=0, start=500, role="treatment")
    runner = Place("vinaya", "T1428", doc=200, end=205, offset=0, start=200, role="rule")
    chosen = [[chao], [rule]]
    assert miss_where.where(98, "T1428", chosen, [runner]) == "topic1"      # the rule's story opens its place
    assert miss_where.where(104, "T1428", chosen, [runner]) == "elsewhere"  # end is exclusive
    assert miss_where.where(202, "T1428", chosen, [runner]) == "runner"
    assert miss_where.where(101, "T1421", chosen, [runner]) == "elsewhere"  # another work's passage numbers
    assert [miss_where.band(r) for r in (None, 0, 9, 10, 29, 30)] == \
        ["unscored", "r<10", "r<10", "r<30", "r<30", "r>=30"]


def test_the_miss_locator_reads_no_held_out_group():
    import miss_where
    with pytest.raises(SystemExit) as exc:
        miss_where.main(["bridge-held"])
    assert "bridge-held" in str(exc.value)
