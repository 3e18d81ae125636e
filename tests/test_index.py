"""The bigram index: phrases found, punctuation never bridged, layers filterable."""
from whoosh import query as wq

from nanshan_core.corpus.index import CharNgramTokenizer


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
        psg = full_pack.passage(hits[0]["passage"])
        off = psg.text.index("斷人命不犯波羅夷")
        # the hit is located back in the traditional text and on its printed line
        assert full_pack.coord_of_line(psg.line_id_at(off)) == "T23n1435_p0377c23"
        assert full_pack.coord_of_line(psg.line_id_at(off + 6)) == "T23n1435_p0377c24"  # 羅 begins c24


def test_layer_filter_and_no_bridging(full_pack):
    with full_pack.ix.searcher() as s:
        q = wq.And([_phrase(full_pack, "捉錢"), wq.Term("layer", "yuanzhao")])
        hits = s.search(q, limit=50)
        assert len(hits) > 0 and all(h["layer"] == "yuanzhao" for h in hits)
        # 「捉錢、若金銀」: the 、 stops a phrase, so 捉錢若 only matches where the text has it unbroken
        q2 = wq.And([_phrase(full_pack, "捉錢若"), wq.Term("work", "T1428")])
        found = s.search(q2, limit=50)
        assert all("捉錢若" in full_pack.passage(h["passage"]).text for h in found)
        q3 = wq.And([_phrase(full_pack, "捉錢"), wq.Term("work", "T1428")])
        assert any("捉錢、" in full_pack.passage(h["passage"]).text for h in s.search(q3, limit=50))


def test_short_definition_paragraphs_are_read_together(full_pack):
    """四分律 defines each word of a rule in its own tiny paragraph; a passage joins them."""
    with full_pack.ix.searcher() as s:
        hits = s.search(wq.And([_phrase(full_pack, "盜心取"), wq.Term("work", "T1428")]), limit=50)
        texts = [full_pack.passage(h["passage"]).text for h in hits]
    assert any("盜者，盜心取也。隨不與取者，若五錢、若直五錢。" in t for t in texts)


def test_retrieval_finds_phrases_exactly_where_whoosh_phrase_queries_do(engine):
    """Retrieval lines up bigram positions itself (faster than Whoosh's span machinery); for every
    glossary term of three or more characters the documents and start positions are Whoosh's own."""
    from nanshan_core.paths import load_resource_json
    glossary = load_resource_json("glossary.json")
    terms = sorted({t for e in glossary["entries"] for t in e.get("terms", []) if len(t) >= 3})
    assert len(terms) > 300
    retriever, norm = engine.retriever, engine.pack.normalizer
    checked = 0
    for term in terms:
        folded = norm.fold_query(term)
        if len(folded) < 3:
            continue
        expected = {}
        m = _phrase(engine.pack, term).matcher(retriever.searcher)
        while m.is_active():
            expected[m.id()] = sorted({sp.start for sp in m.spans()})
            m.next()
        assert retriever.term_hits(folded) == expected, term
        checked += 1
    assert checked > 300
