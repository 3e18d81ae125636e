"""The bigram index: phrases found, punctuation never bridged, layers filterable."""
from whoosh import query as wq

from nanshan_core.index import CharNgramTokenizer


def _tokens(n, text):
    return [(t.text, t.pos) for t in CharNgramTokenizer(n)(text, positions=True)]


def test_bigrams_do_not_span_punctuation():
    assert _tokens(2, "誤殺。者是") == [("誤殺", 0), ("者是", 3)]
    assert _tokens(1, "殺，人") == [("殺", 0), ("人", 2)]


def test_supplementary_plane_characters_are_tokens():
    assert _tokens(2, "迦𫄨那") == [("迦𫄨", 0), ("𫄨那", 1)]


def _phrase(pack, term):
    folded = pack.normalizer.fold_query(term)
    return wq.Phrase("bi", [folded[i:i + 2] for i in range(len(folded) - 1)])


def test_phrase_search_finds_the_passage_and_its_coordinate(full_pack):
    with full_pack.ix.searcher() as s:
        q = wq.And([_phrase(full_pack, "断人命不犯波罗夷"), wq.Term("work", "T1435")])
        hits = s.search(q, limit=5)
        assert len(hits) >= 1
        top = hits[0]
        assert top["para_id"] == "pT23p0377c2308"
        assert top["start"] == "T23n1435_p0377c23"


def test_layer_filter_and_no_bridging(full_pack):
    with full_pack.ix.searcher() as s:
        q = wq.And([_phrase(full_pack, "捉錢"), wq.Term("layer", "yuanzhao")])
        hits = s.search(q, limit=50)
        assert len(hits) > 0 and all(h["layer"] == "yuanzhao" for h in hits)
        # 「錢、若金銀」: 錢若 never forms a bigram across the 、
        rec = full_pack.record_by_para("pT22p0619b2305") if False else None
        q2 = wq.And([_phrase(full_pack, "捉錢若"), wq.Term("work", "T1428")])
        assert all("捉錢若" in full_pack.record(h["record"]).text for h in s.search(q2, limit=50))
