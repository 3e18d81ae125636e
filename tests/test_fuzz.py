"""Fuzzing with hypothesis: every input a user or a model can produce ends in a result or a clear,
user-level message — never an unexpected exception, never a coordinate the verifier did not compute.

Example counts: the "ci" profile (conftest.py; the default) keeps the suite quick;
`pytest --hypothesis-profile=slow tests/test_fuzz.py` runs ten times as many.  Targets: the coordinate and citation parser, the jump
to a line, the question pipeline, the verifier, the user-data loaders, the model-output path (D).
"""
import json
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from nanshan_core.corpus import coords
from nanshan_core.errors import CoordError, NanshanError, QuestionError
from nanshan_core.ask.llm import annotate
from nanshan_core.text import BIDI_CONTROLS
from nanshan_core.userdata import UserData, load_json
from nanshan_core.ask.verify import COORD_LIKE, LEVELS, citations_in, find, strip_coordinates, verify

# Text as a user might paste it: CJK (both scripts), ASCII, full-width punctuation, controls
# and escape sequences, bidi overrides, emoji, private-use and supplementary-plane characters,
# SQL- and regex-like fragments.
NASTY = st.sampled_from(["\x1b[31m", "\x1b[2J", "\x9b", "\u202e", "\x00", "\r", "\t", "'; DROP TABLE lines;--",
                         ".*(", "[a-", "\\", "%s", "{0}", "<<<", ">>>", "「", "」", "（材料3）", "🙏", "\ue000",
                         "\U00020000", "𫄨", "比丘", "捉錢", "T22n1428_p0576b27", "p. 345b14", "//"])
CHARS = st.characters(blacklist_categories=("Cs",))
TEXT = st.lists(st.one_of(st.text(CHARS, max_size=8), NASTY), max_size=12).map("".join)


def user_level(exc: Exception) -> bool:
    """A message a reader can act on: one of ours, in Chinese, one line."""
    msg = str(exc)
    return isinstance(exc, NanshanError) and msg and "\n" not in msg and re.search(r"[\u4e00-\u9fff]", msg)


# -- coordinates -----------------------------------------------------------------------------------

@given(TEXT)
def test_coordinate_parser_returns_or_explains(text):
    try:
        c = coords.parse(text)
    except CoordError as exc:
        assert user_level(exc)
        return
    assert re.fullmatch(r"[TXR]\d{2,3}(n\d{4}[A-Za-z]?)?_p\d{4}[a-d]\d{2}", c.canonical()), c.canonical()


FORMS = [
    lambda t, v, w, p, c, l: f"{t}{v:02d}n{w:04d}_p{p:04d}{c}{l:02d}",
    lambda t, v, w, p, c, l: f"CBETA, {t}{v}, no. {w}, p. {p}{c}{l}",
    lambda t, v, w, p, c, l: f"CBETA, {t}{v}, no. {w}, p. {p}, {c}{l}",
    lambda t, v, w, p, c, l: f"（{t}{v:02d}n{w:04d}_p{p:04d}{c}{l:02d}）",
]


@given(st.sampled_from(["T", "X"]), st.integers(1, 99), st.integers(1, 9999), st.integers(1, 9999),
       st.sampled_from("abc"), st.integers(1, 29), st.sampled_from(FORMS))
def test_every_accepted_form_reads_as_the_same_coordinate(canon, vol, work, page, col, line, form):
    c = coords.parse(form(canon, vol, work, page, col, line))
    assert c.canonical() == f"{canon}{vol:02d}n{work:04d}_p{page:04d}{col}{line:02d}"


@given(st.integers(1, 99), st.integers(1, 999), st.sampled_from("abc"), st.integers(1, 29))
def test_r_forms_agree(vol, page, col, line):
    forms = [f"R{vol}_p{page:04d}{col}{line:02d}", f"R{vol}, p. {page}, {col}{line}"]
    assert len({coords.parse(f).canonical() for f in forms}) == 1


@given(st.one_of(TEXT, st.builds(lambda v, p, c, l: f"T{v}n1428_p{p:04d}{c}{l:02d}",
                                 st.integers(1, 99), st.integers(0, 9999), st.sampled_from("abcd"),
                                 st.integers(0, 40))))
def test_jumping_to_any_text_opens_a_line_or_explains(full_pack, text):
    """What the jump box and `nanshan line` do with whatever is typed."""
    try:
        line = full_pack.line(text)
    except NanshanError as exc:
        assert user_level(exc)
        return
    assert line.text is not None and line.coord


# -- the question pipeline ---------------------------------------------------------------------

@given(st.one_of(TEXT, st.text(CHARS, min_size=400, max_size=700), st.just(" \t\n "), st.just("")))
def test_any_question_is_answered_or_refused_with_a_message(engine, question):
    try:
        res = engine.ask(question)
    except QuestionError as exc:
        assert user_level(exc)
        return
    shown = res.question + json.dumps(res.to_json(), ensure_ascii=False)
    assert not any(ch in shown for ch in "\x1b\x9b\x00") and not (set(shown) & BIDI_CONTROLS)
    for cit in res.answer.citations if res.answer else []:
        assert cit.level in LEVELS


def test_a_hundred_thousand_characters_get_the_length_message(engine):
    with pytest.raises(QuestionError, match=r"问题过长（100000 字）"):
        engine.ask("比" * 100_000)


# -- the verifier --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def materials(engine):
    return engine.ask("比丘能不能碰钱？").materials


@given(data=st.data())
def test_verifier_line_level_means_found_at_that_line(full_pack, materials, data):
    """Random quotes: slices of a material, slices running over its end into the next one,
    slices with an ellipsis, and noise.  A line-level citation is always the verifier's own."""
    k = data.draw(st.integers(0, len(materials) - 1))
    m = materials[k]
    a = data.draw(st.integers(0, max(0, len(m.text) - 1)))
    kind = data.draw(st.sampled_from(["inside", "across", "ellipsis", "noise"]))
    if kind == "inside":
        quote = m.text[a:a + data.draw(st.integers(1, 40))]
    elif kind == "across" and k + 1 < len(materials):
        quote = m.text[-data.draw(st.integers(1, 20)):] + materials[k + 1].text[:data.draw(st.integers(1, 20))]
    elif kind == "ellipsis":
        quote = m.text[a:a + 6] + "……" + m.text[a + 10:a + 16]
    else:
        quote = data.draw(TEXT)
    n = data.draw(st.one_of(st.none(), st.integers(-3, len(materials) + 3)))
    cit = verify(full_pack, quote, n, materials)
    assert cit.level in LEVELS
    if cit.level == "line":
        cited = next(x for x in materials if x.n == cit.material)
        off = find(quote, cited.text, cited.seams)      # (not across a seam, as verify reads it)
        assert off == cit.offset and cit.coord == full_pack.coord_of_line(cited.line_id_at(off))
    else:
        assert cit.offset is None


# -- the model's output (step D) -----------------------------------------------------------------

def model_text(materials):
    quote = st.builds(lambda k, a, b: materials[k % len(materials)].text[a:a + b],
                      st.integers(0, 50), st.integers(0, 200), st.integers(1, 30))
    claim = st.builds(lambda q, n: f"「{q}」（材料{n}）", st.one_of(quote, TEXT), st.integers(-2, 40))
    fake = st.sampled_from(["T22n1428_p0576b27", "CBETA, T40, no. 1804, p. 60, a17", "大正藏 22 576頁中",
                            "第22冊第576頁", "p. 345b14", "X39n0714_p0842a02", "T23n1435_p0377c23"])
    return st.lists(st.one_of(TEXT, claim, fake), max_size=10).map("".join)


@given(data=st.data())
def test_every_coordinate_in_a_model_answer_is_one_the_verifier_computed(full_pack, materials, data):
    raw = data.draw(model_text(materials))
    clean, removed = strip_coordinates(raw)
    cits = citations_in(full_pack, clean, materials)
    text = annotate(clean, cits)
    assert not COORD_LIKE.search(text), "a coordinate-like string survived D"
    for c in cits:
        assert c.level in LEVELS
        if c.coord is not None:
            assert c.level in ("line", "paragraph")
            full_pack.line(c.coord)                   # every coordinate D gives resolves


# -- user data ---------------------------------------------------------------------------------------

@given(st.binary(max_size=300))
def test_loading_random_bytes_never_raises_and_keeps_the_file(raw):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "history.json"
        path.write_bytes(raw)
        res = load_json(path, [], lambda x: isinstance(x, list))
        if res.message:
            assert list(Path(d).glob("history.json.corrupt-*")), "a corrupt file is moved aside, never lost"
            assert res.data == []


GOOD = {"history.json": ["比丘能不能碰钱？", "什么是波羅夷？"],
        "bookmarks.json": [{"coord": "T22n1428_p0576b27", "note": "歎死", "created": "2026-12-01 09:00",
                            "text": "若比丘故自手斷人命"}],
        "settings.json": {"font_size": 16, "model": "/x/y.gguf"}}


@given(st.sampled_from(sorted(GOOD)), st.integers(0, 200), st.one_of(st.none(), st.binary(max_size=20)),
       st.sampled_from(["truncate", "garble", "retype"]))
def test_user_data_survives_truncated_or_garbled_files(name, cut, junk, how):
    with tempfile.TemporaryDirectory() as d:
        data_dir, config_dir = Path(d) / "data", Path(d) / "config"
        data_dir.mkdir()
        config_dir.mkdir()
        text = json.dumps(GOOD[name], ensure_ascii=False).encode("utf-8")
        if how == "truncate":
            text = text[:cut % (len(text) + 1)]
        elif how == "garble":
            text = text[:cut % (len(text) + 1)] + (junk or b"\xff")
        else:                                            # valid JSON of the wrong shape
            text = json.dumps([{"coord": 5, "note": []}, {"x": 1}, "s", 3] if name != "settings.json" else [1])\
                .encode()
        (config_dir if name == "settings.json" else data_dir).joinpath(name).write_bytes(text)
        ud = UserData(data_dir, config_dir)
        assert all(isinstance(q, str) for q in ud.history)
        assert all(isinstance(b.coord, str) and isinstance(b.note, str) for b in ud.bookmarks)
        assert isinstance(ud.settings, dict)
        ud.add_history("比丘能不能碰钱？")                 # and it keeps working
        ud.add_bookmark("T22n1428_p0576b27", "歎死")
        assert UserData(data_dir, config_dir).bookmarks[-1].coord == "T22n1428_p0576b27"
