"""The posting cache: the app's vocabulary looked up instead of walked in the index, with
exactly the same answers, kept per pack in the user cache, and ignored when damaged."""
import pytest

from nanshan_core.ask.engine import Engine
from nanshan_core.ask.retrieve import Retriever
from nanshan_core.library.concordance import Searcher, plain_count

pytestmark = pytest.mark.fullpack

WORDS = ["突吉羅", "波羅夷", "比丘尼", "僧伽婆尸沙", "捉錢", "非時食", "酒", "摩那埵", "五錢"]


def test_kept_postings_equal_the_index_and_the_concordance_counts_stay_exact(full_pack, user_dirs):
    live = Retriever(full_pack)
    kept = Retriever(full_pack)
    assert kept.postings == {}                          # none yet in this (temporary) user cache
    assert kept.keep_postings(WORDS) == len(WORDS)
    again = Retriever(full_pack)                        # a later session reads them from the cache
    assert len(again.postings) == len(WORDS)
    for w in WORDS:
        f = full_pack.normalizer.fold_query(w)
        assert again.term_hits(f) == live.term_hits(f), w
    searcher = Searcher(again)
    for w in ("突吉羅", "比丘尼", "僧伽婆尸沙", "摩那埵"):       # read from the cache, not scanned
        assert again.stored_starts(full_pack.normalizer.fold_query(w)) is not None
        assert searcher.search([w]).count == plain_count(full_pack, w) > 0, w


def test_retrieval_with_the_cache_answers_exactly_as_without(full_pack, user_dirs):
    plain, cached = Engine(full_pack), Engine(full_pack)
    plain.retriever.__dict__["postings"] = {}           # this one walks the index for every term
    cached.retriever.keep_postings(cached.vocabulary())
    assert len(cached.retriever.postings) > 4000
    for q in ("什么情况下会被赶出僧团？", "怎样忏悔突吉罗罪？", "比丘尼可以一个人过河吗？"):
        a = [(m.layer, m.start_coord) for m in plain.ask(q).materials]
        b = [(m.layer, m.start_coord) for m in cached.ask(q).materials]
        assert a == b, q


def test_a_damaged_cache_is_ignored(full_pack, user_dirs):
    r = Retriever(full_pack)
    r.keep_postings(WORDS[:2])
    r._postings_path().write_bytes(b"\x78\x9c not a cache")
    fresh = Retriever(full_pack)
    assert fresh.postings == {}
    f = full_pack.normalizer.fold_query("突吉羅")
    assert fresh.term_hits(f) == Retriever(full_pack).term_hits(f) and fresh.term_hits(f)


def test_only_the_latest_few_tables_are_kept(full_pack, user_dirs):
    from nanshan_core.ask.retrieve import KEPT_POSTINGS
    r = Retriever(full_pack)
    folder = r._postings_path().parent
    folder.mkdir(parents=True)
    for k in range(KEPT_POSTINGS + 2):                # tables of packs built before
        (folder / f"{k:016x}.bin").write_bytes(b"old")
    r.keep_postings(WORDS[:1])
    kept = sorted(p.name for p in folder.glob("*.bin"))
    assert len(kept) == KEPT_POSTINGS and r._postings_path().name in kept
