"""The fourth pane 「其他」: works outside the three layers, only when they hold the strongest passage.

On the default pack nothing may change (a fixture of the default pack's answers, made by the code
before the pane existed and remade after each deliberate retrieval change, see
tests/data/make_default_materials.py);
on a small real pack with one work outside the three layers the pane appears for a question
only that work answers and stays away for one the three layers answer; on the real wider pack
(/work/scratch/widepack or NANSHAN_WIDE_PACK) the same holds over the whole 律部.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from nanshan_core.cli import format_result

DATA = Path(__file__).parent / "data"
WIDE = Path(os.environ.get("NANSHAN_WIDE_PACK") or "/work/scratch/widepack")
HEADS = ("【律本明文】", "【道宣判】", "【元照释】")
# 六物圖 (元照, a default work) and 四分律比丘戒本 (T1429, outside the default 21: 其他律部)
SMALL_OTHER_WORKS = ["T1900", "T1429"]


def _ranked_best(materials, layers) -> float:
    """Best retrieval score among materials whose score is the passage's own ranking score."""
    return max((m.score for m in materials if m.layer in layers and m.source != "link"), default=0.0)


def test_default_pack_answers_exactly_as_before(engine):
    """Every dev question: the same materials, in the same order, as the fixture records
    (tests/data/make_default_materials.py), and never a material of layer other."""
    expected = json.loads((DATA / "default_materials.json").read_text(encoding="utf-8"))
    assert len(expected["questions"]) == 30
    for q in expected["questions"]:
        res = engine.ask(q["question"])
        got = [f"{m.layer} {m.start_coord}" for m in res.materials]
        assert got == q["materials"], (q["id"], engine.pack.manifest.get("fingerprint"), expected["pack_fingerprint"])
        d = res.to_json()
        assert set(d["panes"]) == {"vinaya", "daoxuan", "yuanzhao"}
        assert all(m["layer"] != "other" and "group" not in m for m in d["materials"])
        assert "【其他】" not in d["answer"]["text"]


def test_default_pack_front_matter_is_never_other_work(engine):
    """The default pack has paragraphs of layer other (later prefaces, 科 tables) but no work of
    layer other: those paragraphs can never reach the 其他 pane."""
    n = engine.pack.db.execute("SELECT COUNT(*) FROM passages WHERE layer='other'").fetchone()[0]
    assert n > 0
    assert engine.retriever.other_works == frozenset()


@pytest.fixture(scope="module")
def other_engine(cbeta_dir, tmp_path_factory):
    from nanshan_core.ask.engine import Engine
    from nanshan_core.corpus.build import build_pack
    from nanshan_core.corpus.pack import Pack
    out = tmp_path_factory.mktemp("packs") / "with_other"
    build_pack(cbeta_dir, out, works=SMALL_OTHER_WORKS)
    return Engine(Pack(out, verify="full"))


def test_small_pack_other_pane_when_it_holds_the_strongest(other_engine):
    """飲酒 is in 四分律比丘戒本's rules and nowhere in 六物圖: the answer shows it under 【其他】,
    labelled 其他律部, with a verified line coordinate, after the three sections."""
    assert other_engine.retriever.other_works == {"T1429"}
    res = other_engine.ask("比丘可以喝酒吗？")
    others = [m for m in res.materials if m.layer == "other"]
    assert others and all(m.work == "T1429" and m.group == "其他律部" for m in others)
    assert len(others) <= other_engine.retriever.quotas.other_per_work
    assert max(m.score for m in others) > _ranked_best(res.materials, ("vinaya", "daoxuan", "yuanzhao"))
    assert [m.n for m in res.materials] == list(range(1, len(res.materials) + 1))
    d = res.to_json()
    assert d["panes"]["other"] and all(c["level"] == "line" for c in d["panes"]["other"])
    assert {m["group"] for m in d["materials"] if m["layer"] == "other"} == {"其他律部"}
    text = format_result(res)
    assert "【其他】" in text and "《四分律比丘戒本》（其他律部）：「" in text and "飲酒" in text
    assert all(text.index(h) < text.index("【其他】") for h in HEADS if h in text)
    assert "其他（其他律部）·《四分律比丘戒本》" in text          # the materials list says so too


def test_small_pack_no_other_pane_when_three_layers_are_stronger(other_engine):
    """漉水囊 is 六物圖's own subject: the 元照 pane answers, 其他 stays away (JSON and text)."""
    res = other_engine.ask("漉水囊怎么用？")
    assert any(m.layer == "yuanzhao" for m in res.materials)
    assert not [m for m in res.materials if m.layer == "other"]
    d = res.to_json()
    assert "other" not in d["panes"]
    assert "【其他】" not in format_result(res)


def test_a_work_outside_the_default_corpus_is_other_throughout(cbeta_dir, tmp_path):
    """X0703 (菩薩戒羯磨文釋) marks its text and commentary like the combined editions; outside
    the default corpus it must still be layer other in every record and passage, or its
    passages would stand in the 道宣 and 元照 panes."""
    from nanshan_core.ask.retrieve import Retriever
    from nanshan_core.corpus.build import build_pack
    from nanshan_core.corpus.pack import Pack
    build_pack(cbeta_dir, tmp_path / "x0703", works=["X0703", "T1900"])
    pack = Pack(tmp_path / "x0703", verify="sizes")
    layers = dict(pack.db.execute(
        "SELECT p.layer, COUNT(*) FROM passages p JOIN fascicles f ON p.fascicle=f.id "
        "WHERE f.work='X0703' GROUP BY p.layer").fetchall())
    assert set(layers) == {"other"} and layers["other"] > 10
    assert pack.db.execute("SELECT COUNT(*) FROM records r JOIN fascicles f ON r.fascicle=f.id "
                           "WHERE f.work='X0703' AND r.layer!='other'").fetchone()[0] == 0
    assert Retriever(pack).other_works == {"X0703"}


@pytest.fixture(scope="module")
def wide_engine():
    from nanshan_core.ask.engine import Engine
    from nanshan_core.corpus.pack import Pack
    if not (WIDE / "manifest.json").exists():
        pytest.skip(f"no wider pack at {WIDE} (build it with `nanshan build-corpus --works all --out DIR` "
                    "and set NANSHAN_WIDE_PACK=DIR); the small real pack above covers the 其他 pane in CI")
    return Engine(Pack(WIDE, verify="sizes"))


def test_wide_pack_other_pane_only_for_other_works(wide_engine):
    """Over the whole 律部: the dev questions' 其他 materials come only from works whose own
    layer is other (never a default work's front matter), each labelled with its group, and
    only when one of them scores above every passage the three layers were ranked by."""
    pack = wide_engine.pack
    assert len(wide_engine.retriever.other_works) > 100
    shown = 0
    for line in (Path(__file__).resolve().parents[2] / "shared" / "eval" / "questions-dev.jsonl").read_text(
            encoding="utf-8").splitlines():
        res = wide_engine.ask(json.loads(line)["question"])
        others = [m for m in res.materials if m.layer == "other"]
        for m in others:
            assert pack.works[m.work]["layer"] == "other"
            assert m.group in ("其他律部", "其他注疏") and m.group == pack.works[m.work]["grp"]
        assert len(others) <= wide_engine.retriever.quotas.other
        if others:
            shown += 1
            assert max(m.score for m in others) > _ranked_best(res.materials, ("vinaya", "daoxuan", "yuanzhao"))
            assert res.to_json()["panes"]["other"]
        else:
            assert "other" not in res.to_json()["panes"]
    assert 0 < shown < 30      # the strongest passage is elsewhere for some questions, not most
