import pytest

from nanshan_core.corpus import coords
from nanshan_core.errors import CoordError


@pytest.mark.parametrize("text, canonical", [
    ("T40n1805_p0345b14", "T40n1805_p0345b14"),
    ("X39n0714_p0710a23", "X39n0714_p0710a23"),
    ("t40n1805p0345b14", "T40n1805_p0345b14"),
    ("T22n1422a_p0001a05", "T22n1422a_p0001a05"),
    ("CBETA, T40, no. 1805, p. 345b14", "T40n1805_p0345b14"),
    ("CBETA 2024.R1, T40, no. 1805, p. 345b14", "T40n1805_p0345b14"),
    ("(CBETA, X39, no. 714, p. 710a23)", "X39n0714_p0710a23"),
    ("T40, no. 1805, p. 345b14", "T40n1805_p0345b14"),
    ("CBETA, T22, no. 1422a, p. 194b3", "T22n1422a_p0194b03"),
    ("大正藏 第40冊 No.1805 第345頁 中欄 第14行", "T40n1805_p0345b14"),
])
def test_parse_canonical_and_citation_forms(text, canonical):
    assert coords.parse(text).canonical() == canonical


def test_range_keeps_first_and_last_line():
    c = coords.parse("CBETA, T22, no. 1428, p. 279a7-23")
    assert (c.page, c.col, c.line, c.line_end) == (279, "a", 7, 23)
    assert c.start().canonical() == "T22n1428_p0279a07"
    assert c.cbeta() == "CBETA, T22, no. 1428, p. 279a7-23"


def test_volume_page_form_has_no_work_until_resolved():
    c = coords.parse("大正藏 40 345b14")
    assert (c.canon, c.vol, c.work, c.page, c.col, c.line) == ("T", 40, None, 345, "b", 14)
    c2 = coords.parse("卍續藏 39 710a23")
    assert (c2.canon, c2.vol, c2.page) == ("X", 39, 710)
    with pytest.raises(CoordError, match="缺少经号"):
        c.canonical()


def test_human_and_cbeta_forms():
    c = coords.parse("T40n1805_p0345b14")
    assert c.human() == "大正藏 第40冊 第345頁 中欄 第14行"
    assert c.cbeta() == "CBETA, T40, no. 1805, p. 345b14"
    x = coords.parse("X39n0714_p0710a23")
    assert x.human() == "卍續藏 第39冊 第710頁 上欄 第23行"
    assert x.cbeta() == "CBETA, X39, no. 714, p. 710a23"
    # the human form reads back to the same line
    assert coords.parse(c.human()).start() == coords.parse("大正藏 40 345b14")


@pytest.mark.parametrize("bad", ["", "   ", "hello", "T40n1805_p0345e14", "T40n1805", "大正藏",
                                 "CBETA, T40, no. 1805", "T40n1805_p0345b14-3", "x" * 500])
def test_malformed_input_gets_a_clear_error(bad):
    with pytest.raises(CoordError) as err:
        coords.parse(bad)
    assert str(err.value)  # a message for the reader, in Chinese
    assert any("\u4e00" <= ch <= "\u9fff" for ch in str(err.value))


def test_unknown_canon_is_named():
    with pytest.raises(CoordError, match="嘉興藏"):
        coords.parse("嘉興藏 40 345b14")


def test_r_line_human_form():
    assert coords.r_human("R062_p0309a01") == "新文豐版 第62冊 第309頁 上段 第1行"
