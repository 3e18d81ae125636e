"""Folding for search: one code point to one, variants together, offsets unchanged."""
from pathlib import Path

import pytest

from nanshan_core.corpus.normalize import Normalizer, load_variants
from nanshan_core.paths import resource_path


def _pairs():
    for raw in resource_path("variants.tsv").read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if line.strip():
            target, variants = line.split("\t")[:2]
            for v in variants.strip():
                yield target.strip(), v


PAIRS = list(_pairs())


@pytest.mark.parametrize("target, variant", PAIRS, ids=[f"{t}{v}" for t, v in PAIRS])
def test_each_variant_pair_folds_together_and_occurs(full_pack, target, variant):
    norm = full_pack.normalizer
    assert norm.fold(variant) == norm.fold_query(target), (variant, target)
    # the variant really occurs, so the entry is not dead weight
    assert full_pack.db.execute("SELECT 1 FROM records WHERE instr(text, ?) > 0 LIMIT 1",
                                (variant,)).fetchone(), f"{variant} does not occur in the default corpus"


def test_variants_table_has_no_chains_or_conflicts():
    table = load_variants()
    for v, t in table.items():
        assert table.get(t, t) == t, f"{v} -> {t} -> {table[t]}"


def test_folding_keeps_length_and_offsets(full_pack):
    norm = full_pack.normalizer
    text = full_pack.line("T40n1805_p0268b18").text
    folded = norm.fold(text)
    assert len(folded) == len(text)
    assert norm.fold("鉢盋") == "钵钵"
    assert norm.fold("迦絺那衣") == "迦𫄨那衣"  # t2s gives a character outside the BMP
    assert len(norm.fold("迦絺那衣")) == 4


def test_simplified_question_meets_traditional_text(full_pack):
    norm = full_pack.normalizer
    assert norm.fold_query("断人命") == norm.fold("斷人命")
    assert norm.fold_query("捉钱") == norm.fold("捉錢")
    assert norm.fold_query("毗尼") == norm.fold("毘尼")


def test_no_phrase_context_in_folding():
    n = Normalizer.build({"乾", "隆", "淨"}, {}, {})
    assert n.fold("乾隆") [0] == n.fold("乾淨")[0]
