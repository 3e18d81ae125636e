"""Step D on real passages: exact line coordinates, corrections, and honest failures."""
import pytest

from nanshan_core.tools.evaluate import RawLines
from nanshan_core.ask.retrieve import Retriever
from nanshan_core.ask.verify import UNVERIFIED_NOTE, citations_in, find, strip_coordinates, verify


@pytest.fixture(scope="module")
def retriever(full_pack):
    return Retriever(full_pack)


def test_quote_on_second_line_of_a_paragraph_gets_that_line(full_pack, retriever):
    m = retriever.material_at("T23n1435_p0377c23")
    # the paragraph begins on c23 (「頗有比丘斷人命不犯波) and goes on to c24 (羅夷耶？」…)
    assert verify(full_pack, "「頗有比丘斷人命", 1, [m]).coord == "T23n1435_p0377c23"
    c = verify(full_pack, "佛言：「有。誤殺者是。」", 1, [m])
    assert (c.coord, c.level, c.corrected_from) == ("T23n1435_p0377c24", "line", None)
    # a quote that starts on the last character of c23 and runs onto c24 belongs to c23
    assert verify(full_pack, "波羅夷耶", 1, [m]).coord == "T23n1435_p0377c23"


def test_every_line_level_coordinate_holds_the_quote_in_the_raw_xml(full_pack, retriever, cbeta_dir):
    raw = RawLines(cbeta_dir)
    m = retriever.material_at("T40n1804_p0060c03")
    text = m.text
    for start in range(0, len(text) - 6, 7):
        quote = text[start:start + 6]
        c = verify(full_pack, quote, 1, [m])
        assert c.level == "line"
        assert raw.holds(c.coord, quote), (quote, c.coord)


def test_line_with_inline_note(full_pack, retriever, cbeta_dir):
    # T40n1804_p0060c06: 「過失殺人者以贖論」 then the small-print note 「謂目所不見…重物乘高履」 going on to c07
    m = retriever.material_at("T40n1804_p0060c03")
    assert verify(full_pack, "過失殺人者以贖論謂目所不見", 1, [m]).coord == "T40n1804_p0060c06"
    # the note runs on into the next printed line (and the next passage)
    m2 = retriever.material_at("T40n1804_p0060c07", n=2)
    assert verify(full_pack, "重物乘高履危之類", 2, [m, m2]).coord == "T40n1804_p0060c06"
    c = verify(full_pack, "危之類", 2, [m, m2])
    assert c.coord == "T40n1804_p0060c07"
    assert RawLines(cbeta_dir).holds(c.coord, "危之類")


def test_wrong_material_number_is_corrected(full_pack, retriever):
    a = retriever.material_at("T22n1428_p0619b23", n=1)
    b = retriever.material_at("T23n1435_p0377c23", n=2)
    c = verify(full_pack, "誤殺者是", 1, [a, b])
    assert (c.material, c.corrected_from, c.level, c.coord) == (2, 1, "line", "T23n1435_p0377c24")


def test_invented_quote_is_kept_and_marked(full_pack, retriever):
    a = retriever.material_at("T22n1428_p0619b23", n=1)
    c = verify(full_pack, "比丘可以隨意捉錢", 1, [a])
    assert c.level == "unverified" and c.coord is None and c.quote == "比丘可以隨意捉錢"
    assert c.note == UNVERIFIED_NOTE


def test_reference_without_quote_is_paragraph_level(full_pack, retriever):
    a = retriever.material_at("T22n1428_p0619b23", n=3)
    c = verify(full_pack, "", 3, [a])
    assert c.level == "paragraph" and c.coord == a.start_coord


def test_quote_with_line_break_and_ellipsis(full_pack, retriever):
    m = retriever.material_at("T23n1435_p0377c23")
    assert find("頗有比丘\n斷人命", m.text) is not None
    assert verify(full_pack, "頗有比丘……誤殺者是", 1, [m]).level == "line"
    assert verify(full_pack, "誤殺者是……斷人命", 1, [m]).level == "unverified"  # parts out of order


def test_simplified_quote_is_not_passed_off_as_cbeta(full_pack, retriever):
    m = retriever.material_at("T23n1435_p0377c23")
    assert verify(full_pack, "误杀者是", 1, [m]).level == "unverified"


def test_coordinates_written_by_a_writer_are_removed(full_pack, retriever):
    m = retriever.material_at("T23n1435_p0377c23", n=1)
    text = ("十诵律说「誤殺者是」（材料1），见 T23n1435_p0377c21，又 CBETA, T23, no. 1435, p. 377c21，"
            "大正藏第23冊第377頁下欄第21行。")
    clean, removed = strip_coordinates(text)
    assert "T23n1435_p0377c21" not in clean and "377c21" not in clean and "第377頁" not in clean
    assert len(removed) >= 3
    cits = citations_in(full_pack, clean, [m])
    assert [(c.coord, c.level) for c in cits] == [("T23n1435_p0377c24", "line")]


def test_a_material_running_on_into_the_next_passage_places_every_quote(full_pack, retriever, engine, cbeta_dir):
    # materials that reach their passage's end continue into the next passage of the section;
    # a quote anywhere in them, including across the cut, must land on the line that holds it
    raw = RawLines(cbeta_dir)
    run_on = []
    for q in ("出家人能不能碰钱？", "安居期间可以离开吗？", "什么情况下会被赶出僧团？"):
        run_on += [m for m in engine.ask(q).materials
                   if len(m.text) > m.end - m.start and m.layer in ("vinaya", "daoxuan")]
    assert len(run_on) >= 3
    for m in run_on[:4]:
        cut = m.end - m.start
        for start in list(range(0, len(m.text) - 6, 11)) + [cut - 3]:
            if any(start < s < start + 6 for s in m.seams):
                continue        # not one text on the page (test_no_quote_runs_across_a_combined_editions_seam)
            quote = m.text[start:start + 6]
            c = verify(full_pack, quote, m.n, [m])
            assert c.level == "line"
            assert raw.holds(c.coord, quote), (m.start_coord, start, quote, c.coord)


def test_no_quote_runs_across_a_combined_editions_seam(full_pack, engine, cbeta_dir):
    # a 疏 material of X0714 read on over the 律 and 記 paragraphs between its own: a quote across
    # the seam joins words the page does not have side by side, and is not verified; each side's
    # words land on their own printed line; the model reads the seam as ……
    from nanshan_core.ask.llm import material_block
    raw = RawLines(cbeta_dir)
    res = engine.ask("旧坐具还能用，我又做了一个新的，没有把旧的补在上面，算犯戒吗？")
    m = next(m for m in res.materials if m.seams)
    s = m.seams[0]
    assert verify(full_pack, m.text[s - 4:s + 4], m.n, [m]).level == "unverified"
    for quote in (m.text[s - 8:s], m.text[s:s + 8]):
        c = verify(full_pack, quote, m.n, [m])
        assert c.level == "line" and raw.holds(c.coord, quote), (quote, c.coord)
    assert m.text[s - 4:s] + "……" + m.text[s:s + 4] in material_block([m])
