"""An independent check of the line model against the raw XML.

The second reader below is deliberately simple and shares no code with
nanshan_core.corpus.tei: it cuts the raw <body> text at each <lb> of the canon's
edition, deletes what is not text (mulu labels, back matter) and every tag,
and keeps what is left.  If the two readers disagree on any of 2,000 random
lines, one of them is wrong, and every coordinate would be suspect.
"""
import random
import re

import pytest

_LB = re.compile(r'<lb\b[^>]*?\bn="([0-9]{4}[a-d][0-9]{2,3})"[^>]*?/>')
_DROP = [re.compile(r"<cb:mulu\b[^>]*>.*?</cb:mulu>", re.S),
         re.compile(r"<cb:mulu\b[^>]*/>"),
         re.compile(r'<note\b(?![^>]*place="inline")[^>]*>.*?</note>', re.S),
         re.compile(r"<rdg\b[^>]*>.*?</rdg>", re.S)]
_TAG = re.compile(r"<[^>]+>")


def simple_lines(path, ed):
    raw = path.read_text(encoding="utf-8")
    body = raw[raw.index("<body>"):raw.index("</body>")]
    for pat in _DROP:
        body = pat.sub("", body)
    out = {}
    marks = [m for m in _LB.finditer(body) if (re.search(r'ed="([^"]+)"', m.group(0)) or [None, ed])[1] == ed]
    for k, m in enumerate(marks):
        end = marks[k + 1].start() if k + 1 < len(marks) else len(body)
        seg = _TAG.sub("", body[m.end():end])
        seg = seg.replace("\n", "").replace("\r", "").replace("\t", "")
        seg = seg.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
        out[m.group(1)] = seg
    return out


@pytest.mark.fullpack
def test_2000_random_lines_match_a_simple_reader(full_pack, cbeta_dir):
    rng = random.Random(20261129)
    n_lines = full_pack.manifest["totals"]["lines"]
    ids = rng.sample(range(1, n_lines + 1), 2000)
    cache = {}
    checked = 0
    for lid in ids:
        line = full_pack.line_by_id(lid)
        fasc = full_pack.fascicle(line.fascicle)
        path = cbeta_dir / fasc.source
        if path not in cache:
            cache[path] = simple_lines(path, fasc.key[0])
        n = line.coord.split("_p")[1]
        assert n in cache[path], (line.coord, fasc.source)
        assert line.text == cache[path][n], (line.coord, line.text, cache[path][n])
        checked += 1
    assert checked == 2000
