"""Concordance, R coordinates and CBETA's declarations of what a work holds — on the real files."""
import shutil

import pytest

from nanshan_core.corpus import coords
from nanshan_core.corpus.build import build_pack
from nanshan_core.library.concordance import SearchError, Searcher, plain_count
from nanshan_core.errors import CorpusError
from nanshan_core.corpus.works import all_works, find_work_files

PHRASES = ["突吉羅", "波羅夷", "捉錢", "非時食", "三種淨肉", "摩那埵", "須提那", "五錢", "戒體", "酒",
           "比丘，", "佛言：「聽"]


@pytest.fixture(scope="module")
def searcher(engine):
    return Searcher(engine.retriever)


@pytest.mark.fullpack
@pytest.mark.parametrize("phrase", PHRASES)
def test_concordance_counts_equal_a_plain_scan(full_pack, searcher, phrase):
    res = searcher.search([phrase])
    assert res.count == plain_count(full_pack, phrase) > 0
    assert sum(res.by_layer.values()) == sum(res.by_work.values()) == res.count


@pytest.mark.fullpack
def test_rows_carry_the_phrase_on_its_line(full_pack, searcher):
    res = searcher.search(["捉錢"])
    rows = searcher.rows(res, 0, res.count)
    assert res.occurrences == sorted(res.occurrences, key=lambda o: (o.doc, o.offset))   # canon order
    for r in rows:
        line = full_pack.line(r.coord)
        nxt = full_pack.line_by_id(line.id + 1).text
        assert full_pack.normalizer.fold("捉錢")[0] in full_pack.normalizer.fold(line.text + nxt)
        assert full_pack.normalizer.fold(r.match) == full_pack.normalizer.fold_query("捉錢")
    assert any(r.coord == "T22n1428_p0619b23" for r in rows)


@pytest.mark.fullpack
def test_script_insensitive_and_filters(searcher):
    assert searcher.search(["捉钱"]).count == searcher.search(["捉錢"]).count
    both = searcher.search(["捉錢", "金銀"])
    near = searcher.search(["捉錢", "金銀"], within=10)
    assert 0 < near.count <= both.count
    only = searcher.search(["突吉羅"], layer="yuanzhao")
    assert set(only.by_layer) == {"yuanzhao"}
    t1804 = searcher.search(["突吉羅"], works=["T1804"])
    assert set(t1804.by_work) == {"T1804"}


@pytest.mark.fullpack
def test_export_writes_every_row(searcher, tmp_path):
    res = searcher.search(["三種淨肉"])
    path = tmp_path / "c.csv"
    assert searcher.export_csv(res, path) == res.count
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    assert len(lines) == res.count + 1 and lines[0].startswith("经号")


def test_bad_phrases_get_a_message(searcher):
    with pytest.raises(SearchError, match="请输入"):
        searcher.search(["  "])
    with pytest.raises(SearchError, match="过长"):
        searcher.search(["戒" * 80])


@pytest.mark.fullpack
def test_an_r_coordinate_opens_the_same_line_as_its_x_coordinate(full_pack):
    x = full_pack.line("X40n0724_p0706a05")
    assert x.r == "R064_p0050a02"
    for form in ("R64_p0050a02", "R064_p0050a02", "R64, p. 50, a2", "卍續藏 64 50a02",
                 "X40, no. 724, p. 706, a5 // Z 1:64, p. 50, a2 // R64, p. 50, a2"):
        assert full_pack.line(form).id == x.id, form
    assert coords.parse("R64, p. 50, a2").human().startswith("新文豐版卍續藏 第64冊")


@pytest.mark.slow
def test_works_cbeta_publishes_incomplete_build_and_a_missing_file_stops(cbeta_dir, tmp_path):
    # X0733 declares 8 fascicles and CBETA has juans 2-8 and 10: built, with the juans it has
    m = build_pack(cbeta_dir, tmp_path / "x0733", ["X0733"])
    entry = m["works"][0]
    assert entry["juans"] == [2, 3, 4, 5, 6, 7, 8, 10] and entry["extent"] == 8
    # the same work with one file really missing stops the build, naming what is there
    tree = tmp_path / "cbeta"
    files = find_work_files(cbeta_dir, "X0733").files
    for f in files[1:]:
        dst = tree / f.relative_to(cbeta_dir)
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, dst)
    with pytest.raises(CorpusError, match="应有 8 卷，只找到 7 卷"):
        build_pack(tree, tmp_path / "broken", ["X0733"])


def test_all_works_lists_the_whole_vinaya_section(cbeta_dir):
    works = all_works(cbeta_dir)
    assert works[:3] == ["T1421", "T1425", "T1428"]
    assert {"X0733", "X0704", "T1429", "T1431"} <= set(works) and len(works) >= 140


def _plan(engine, through_index: bool) -> Searcher:
    s = Searcher(engine.retriever)
    s._index_is_cheaper = lambda folded: through_index and all(c.isalnum() for c in folded)
    return s


@pytest.mark.fullpack
@pytest.mark.parametrize("phrase", ["突吉羅", "比丘尼", "捉錢", "淨人", "酒"])
def test_both_query_plans_find_the_same_occurrences(engine, phrase):
    """The planner may count a common phrase by reading the text instead of listing it from
    the index; a reader paging through the results must see the very same rows."""
    by_index, by_scan = _plan(engine, True), _plan(engine, False)
    a, b = by_index.search([phrase]), by_scan.search([phrase])
    assert a.count == b.count > 0 and a.by_layer == b.by_layer and a.by_work == b.by_work
    middle = max(0, a.count // 2 - 5)
    assert a.page(middle, 10) == b.page(middle, 10)
    rows = by_scan.rows(b, middle, 10)
    assert rows and all(engine.pack.normalizer.fold(r.match) == engine.pack.normalizer.fold_query(phrase) for r in rows)


@pytest.mark.fullpack
def test_a_phrase_that_overlaps_itself_is_counted_at_each_start(engine, full_pack):
    """「日日」 inside 「日日日」 starts twice; a plain str.count would say once."""
    for through_index in (True, False):
        res = _plan(engine, through_index).search(["日日"])
        assert res.count == plain_count(full_pack, "日日")
    texts = _plan(engine, False).folded_corpus()
    assert sum(t.count("日日") for t in texts) < plain_count(full_pack, "日日")   # the case is real
