"""The line model on real CBETA files: every character on the right printed line."""
import subprocess
import sys

import pytest

from nanshan_core.corpus.tei import read_file
from nanshan_core.corpus.works import find_work_files, work_info


def _fascicle(cbeta_dir, work, stem):
    files = find_work_files(cbeta_dir, work).files
    path = next(p for p in files if p.stem == stem)
    return read_file(path, work_info(work).rules())


def _line(pack, coord):
    return pack.line(coord)


def test_cli_line_prints_exact_characters(full_pack):
    out = subprocess.run([sys.executable, "-m", "nanshan_core.cli", "line", "T23n1435_p0377c24",
                          "--pack", str(full_pack.path)], capture_output=True, text=True, check=True)
    assert out.stdout.count("\n") == 1
    assert "羅夷耶？」佛言：「有。誤殺者是。」" in out.stdout
    assert out.stdout == "羅夷耶？」佛言：「有。誤殺者是。」「頗有比丘尼行\n"


def test_cli_line_bad_coordinate_is_one_readable_line(full_pack):
    out = subprocess.run([sys.executable, "-m", "nanshan_core.cli", "line", "T23n1435_p0377c99",
                          "--pack", str(full_pack.path)], capture_output=True, text=True)
    assert out.returncode != 0
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert "0470b20" in out.stderr  # says where the work's lines end


def test_paragraph_spanning_lines_maps_each_character(full_pack):
    # 「頗有比丘斷人命不犯波 / 羅夷耶？」佛言... : the paragraph starts on c23 and goes on to c24
    rec = full_pack.record_by_para("pT23p0377c2308")
    assert rec.text.startswith("「頗有比丘斷人命不犯波羅夷耶？」")
    first_line_end = rec.text.index("羅")
    for i, ch in enumerate(rec.text):
        coord = full_pack.coord_at(rec, i)
        expected = "T23n1435_p0377c23" if i < first_line_end else "T23n1435_p0377c24"
        assert coord == expected, (i, ch)
        assert ch in full_pack.line(coord).text


def test_paragraphs_sharing_a_line(full_pack):
    line = full_pack.line("T23n1435_p0377c23")
    ids = [r.para_id for r in full_pack.records_at_line(line.id)]
    # the raw XML has one paragraph ending and one beginning on this line
    assert ids == ["pT23p0377c2117", "pT23p0377c2308"]
    assert line.text == "佛言：「有。轉根者是。」「頗有比丘斷人命不犯波"
    three = full_pack.line("T22n1428_p0573b16")
    recs = full_pack.records_at_line(three.id)
    assert len(recs) == 3
    # the line's text is exactly the three paragraphs' pieces on it, in order
    pieces = []
    for r in recs:
        offs = [o for o, lid in r.lines] + [len(r.text)]
        for k, (o, lid) in enumerate(r.lines):
            if lid == three.id:
                pieces.append(r.text[o:offs[k + 1]])
    assert "".join(pieces) == three.text


def test_inline_note_inside_a_line(full_pack):
    line = full_pack.line("T40n1804_p0060c06")
    assert line.text == "俗律云。過失殺人者以贖論謂目所不見。心所不意共舉。重物乘高履"
    (start, end), = line.notes
    assert line.text[start:end] == "謂目所不見。心所不意共舉。重物乘高履"
    # the note goes on to the next printed line, still marked as note
    nxt = full_pack.line("T40n1804_p0060c07")
    assert nxt.text.startswith("危之類。")
    assert nxt.notes[0] == [0, 3]


def test_x0714_layers_follow_the_markup(cbeta_dir):
    parsed = _fascicle(cbeta_dir, "X0714", "X40n0714_003")
    by_layer = {}
    for f in parsed.fascicles:
        for r in f.records:
            by_layer.setdefault(r.layer, []).append(r)
    assert by_layer["vinaya"] and all(r.text.startswith("【律】") for r in by_layer["vinaya"])
    assert all(r.text.startswith(("【疏】", "【註】")) for r in by_layer["daoxuan"] if r.text[:1] == "【")
    assert not any("【律】" in r.text or "【疏】" in r.text for r in by_layer["yuanzhao"])


def test_marker_inside_a_paragraph_splits_it(cbeta_dir, tmp_path):
    """CBETA starts each 【律】/【疏】 on its own <p>; if an edition runs them together, split anyway."""
    src = next(p for p in find_work_files(cbeta_dir, "X0714").files if p.stem == "X39n0714_001")
    raw = src.read_text(encoding="utf-8")
    joined = raw.replace('【律】四分戒本。</p>\n<lb ed="X" n="0723b20"/><lb ed="R062" n="0348a14"/>'
                         '<p xml:id="pX39p0723b2001">',
                         '【律】四分戒本。\n<lb ed="X" n="0723b20"/><lb ed="R062" n="0348a14"/>', 1)
    assert joined != raw
    dst = tmp_path / "X39n0714_001.xml"
    dst.write_text(joined, encoding="utf-8")
    recs = {r.para_id: r for f in read_file(dst, work_info("X0714").rules()).fascicles for r in f.records}
    law, shu = recs["pX39p0723b1901"], recs["pX39p0723b1901#1"]
    assert (law.layer, law.text) == ("vinaya", "【律】四分戒本。")
    assert shu.layer == "daoxuan" and shu.text.startswith("【疏】四解今題目")
    assert shu.lines[0][0] == 0  # its own line table starts at its own first character


def test_x0714_specific_lines(full_pack):
    """【律】 vinaya, 【疏】/【註】 daoxuan, commentary yuanzhao — checked on named lines."""
    def layers_on(coord):
        line = full_pack.line(coord)
        return {r.layer for r in full_pack.records_at_line(line.id)}, line
    lay, line = layers_on("X39n0714_p0710b17")
    assert line.text.startswith("【疏】四分戒本者") and lay == {"daoxuan"}
    lay, line = layers_on("X39n0714_p0710b19")
    assert line.text.startswith("序文大略歎教") and lay == {"yuanzhao"}
    # in an orig div, 【律】 opens vinaya and the 【疏】 after it opens daoxuan
    law = full_pack.record_by_para("pX39p0723b1901")
    assert law.layer == "vinaya" and law.text == "【律】四分戒本。"
    shu = full_pack.record_by_para("pX39p0723b2001")
    assert shu.layer == "daoxuan" and shu.text.startswith("【疏】四解今題目")
    ji = full_pack.record_by_para("pX39p0723b2201")
    assert ji.layer == "yuanzhao" and ji.text.startswith("解今題目標列中")
    # front matter of the later (Japanese) editors is 'other', 元照's preface is yuanzhao
    lay, line = layers_on("X39n0714_p0703a05")
    assert lay == {"other"}
    lay, line = layers_on("X39n0714_p0710a09")
    assert line.text.startswith("心隨物轉") and lay == {"yuanzhao"}


def test_x0728_orig_without_markers_is_daoxuan(full_pack):
    rows = full_pack.db.execute(
        "SELECT r.layer, count(*) FROM records r JOIN fascicles f ON r.fascicle=f.id "
        "WHERE f.work='X0728' GROUP BY r.layer").fetchall()
    counts = dict(rows)
    assert counts["daoxuan"] > 1000 and counts["yuanzhao"] > 1000
    assert counts.get("vinaya", 0) == 0
    # the Japanese preface 728-A is other
    line = full_pack.line("X41n0728_p0080a02")
    assert {r.layer for r in full_pack.records_at_line(line.id)} <= {"other"}


def test_front_matter_layers(full_pack):
    def layer(coord):
        line = full_pack.line(coord)
        return {r.layer for r in full_pack.records_at_line(line.id)}
    assert layer("T40n1804_p0001a06") == {"daoxuan"}      # 道宣's own preface
    assert layer("T45n1895_p0839b19") == {"other"}        # 新刻量處輕重儀序 (later)
    assert layer("T22n1428_p0567a05") == {"other"}        # 四分律序, not the Vinaya itself


def test_gaiji_character_kept_and_resolved_for_search(full_pack):
    line = full_pack.line("X39n0714_p0703a23")
    pua = "\U000f3b02"  # <g ref="#CB15106"> as CBETA gives it: kept as given
    assert "至道" + pua + "乎" in line.text
    assert full_pack.gaiji()[pua]["cb"] == "CB15106"
    # <g ref="#CB00155">(PUA)</g> is declared normal_unicode U+5190: search folds it to 冐
    line = full_pack.line("T40n1804_p0040c17")
    assert "\U000f009b" in line.text
    assert full_pack.normalizer.fold("\U000f009b") == "\u5190"
    # a character given in Unicode (𧂐, CB00036) stays itself
    assert "草\U00027090汪水" in full_pack.line("T40n1804_p0015a04").text


def test_r_line_kept_beside_x_line(full_pack):
    line = full_pack.line("X39n0714_p0703a05")
    assert line.r == "R062_p0309a02"
    assert full_pack.line("T23n1435_p0377c23").r is None


def test_verse_and_list_items_are_records(full_pack):
    line = full_pack.line("X39n0714_p0704b14")
    recs = full_pack.records_at_line(line.id)
    assert recs[0].kind == "lg" and recs[0].text.startswith("佛由戒證真依行為真人")
    item = full_pack.record_by_para("itemX39p0704c0701")
    assert item.kind == "item" and item.text.startswith("凡標科中以【律】印者")
    assert item.layer == "other"


def test_mulu_labels_and_apparatus_are_not_text(full_pack):
    # <cb:mulu>序</cb:mulu> and the back-matter <app> readings never enter a line
    line = full_pack.line("T40n1804_p0001a03")
    assert line.text == "四分律刪繁補闕行事鈔序作者非無標名顯別"
    assert full_pack.line("T40n1804_p0001a09").text == "及四依遺風無替。逮于像季時轉澆訛。爭鋒"


def test_one_file_per_work_layout_reads_the_same(cbeta_dir, tmp_path):
    """Assemble CBETA's current layout (one file per work) from T1806's fascicles and compare."""
    from lxml import etree
    from nanshan_core.corpus.build import build_pack
    from nanshan_core.corpus.pack import Pack
    files = find_work_files(cbeta_dir, "T1806").files
    first = etree.parse(str(files[0]))
    ns = "{http://www.tei-c.org/ns/1.0}"
    body = first.find(f"{ns}text/{ns}body")
    for f in files[1:]:
        other = etree.parse(str(f)).find(f"{ns}text/{ns}body")
        for child in list(other):
            body.append(child)
    tree = tmp_path / "cbeta" / "T" / "T40"
    tree.mkdir(parents=True)
    first.write(str(tree / "T40n1806.xml"), encoding="UTF-8", xml_declaration=True)
    build_pack(tmp_path / "cbeta", tmp_path / "whole", ["T1806"])
    build_pack(cbeta_dir, tmp_path / "fasc", ["T1806"])
    a, b = Pack(tmp_path / "whole"), Pack(tmp_path / "fasc")
    rows_a = a.db.execute("SELECT l.coord, l.text, f.juan FROM lines l JOIN fascicles f ON l.fascicle=f.id ORDER BY l.id").fetchall()
    rows_b = b.db.execute("SELECT l.coord, l.text, f.juan FROM lines l JOIN fascicles f ON l.fascicle=f.id ORDER BY l.id").fetchall()
    assert len(rows_a) > 1000
    assert rows_a == rows_b
    assert [f.juan for f in a.fascicles()] == [1, 2, 3]


def test_authors_own_prefaces_belong_to_their_layer(full_pack):
    """道宣's and 元照's own prefaces are theirs; later editors' prefaces and notes are 'other'."""
    def layer(coord):
        line = full_pack.line(coord)
        return {r.layer for r in full_pack.records_at_line(line.id) if r.kind not in ("juan", "byline")}
    assert layer("T40n1805_p0157a06") == {"yuanzhao"}     # 資持記's own preface
    assert layer("T40n1805_p0158a09") == {"yuanzhao"}     # 釋序題: 元照 on 道宣's preface
    assert layer("X44n0747_p0753a06") == {"yuanzhao"}     # 元照's preface to 拾毘尼義鈔
    assert layer("X44n0747_p0796c14") == {"other"}        # 新羅國寄還書
    assert layer("T40n1806_p0429a06") == {"daoxuan"}      # 道宣's 含注戒本序
    assert layer("X39n0714_p0709b06") == {"daoxuan"}      # the same preface inside 行宗記
    assert layer("T45n1894_p0834a14") == {"daoxuan"}      # 章服儀序
    assert layer("T45n1894_p0834b08") == {"other"}        # 寬文五年: a Japanese printer's note
    assert layer("X41n0728_p0080a05") == {"other"}        # 728-A: a Japanese editor's preface
