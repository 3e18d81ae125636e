"""Reader feedback (有帮助 / 不相关 / 出处有误): kept on disk, counted, exported, marked in the window.

Records are made from real answers over the full pack, so what is checked is
what a maintainer receives: the question, the terms, the coordinate, the quoted
words and the pack that answered.  The window is driven by clicking the links
the cards and quotes actually show.
"""
from __future__ import annotations

import errno
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

import nanshan_core.feedback as fb
from gui_actions import ask_by_typing as ask, click_link
from nanshan_core.feedback import (KINDS, MAX_NOTE, FeedbackError, FeedbackStore, card_record, pack_identity,
                                   quote_record)

from app.citations import href

ROOT = Path(__file__).resolve().parent.parent
QUESTION = "比丘可以喝酒吗？"
EXPEL = "什么情况下会被赶出僧团？"
TIMEOUT = 60_000
TEACHER_FIELDS = {"kind", "kind_label", "note", "question", "terms", "coord", "quote", "material", "layer",
                  "work", "title", "juan", "pack", "app_version", "created", "target"}


@pytest.fixture(scope="module")
def answer(engine):
    res = engine.ask(QUESTION)
    assert not res.refused and res.answer.citations and res.materials
    return res


def line_quote(res):
    return next(c for c in res.answer.citations if c.level == "line")


def card(res, k=0):
    m = res.materials[k]
    return m, [c for c in res.answer.panes.get(m.layer, []) if c.material == m.n]


def some_records(res, manifest):
    """A mix of kinds, layers and works, as a class's marks would be."""
    out = []
    kinds = ["irrelevant", "helpful", "wrong_source", "irrelevant"]
    for k, m in enumerate(res.materials[:8]):
        cits = [c for c in res.answer.panes.get(m.layer, []) if c.material == m.n]
        out.append(card_record(kinds[k % len(kinds)], res, m, cits, manifest, note="卡片附注" if k == 1 else ""))
    for c in res.answer.citations[:3]:
        out.append(quote_record("wrong_source", res, c, manifest))
    return out


# -- the store -------------------------------------------------------------------------------------

def test_marks_come_back_from_disk_with_question_terms_coordinate_and_pack(tmp_path, answer, full_pack):
    store = FeedbackStore(tmp_path)
    c = line_quote(answer)
    q = store.add(quote_record("wrong_source", answer, c, full_pack.manifest, note="此句出自别卷"))
    m, cits = card(answer, 1)
    k = store.add(card_record("irrelevant", answer, m, cits, full_pack.manifest))
    again = FeedbackStore(tmp_path)                       # a new process, as it were
    assert again.message is None
    assert [r.to_json() for r in again.list()] == [q.to_json(), k.to_json()]
    got_q, got_k = again.list()
    assert (got_q.kind, got_q.label, got_q.target) == ("wrong_source", "出处有误", "quote")
    assert got_q.question == QUESTION and got_q.terms == answer.selection.texts and got_q.terms
    assert (got_q.coord, got_q.quote, got_q.level, got_q.material) == (c.coord, c.quote, "line", c.material)
    assert got_q.note == "此句出自别卷"
    assert (got_k.coord, got_k.material, got_k.layer, got_k.work, got_k.juan) == \
        (m.start_coord, m.n, m.layer, m.work, m.juan)
    assert got_k.quote and m.text.startswith(got_k.quote.rstrip("…"))
    assert got_k.quotes == [{"quote": x.quote, "coord": x.coord, "level": x.level} for x in cits]
    mf = full_pack.manifest
    assert got_q.pack == pack_identity(mf)
    assert (got_q.pack["built"], got_q.pack["fingerprint"], got_q.pack["schema"]) == \
        (mf["built"], mf["fingerprint"], mf["schema"])
    assert got_q.app_version and got_q.created[:4].isdigit() and got_q.id != got_k.id


def test_the_same_mark_twice_is_counted_once_and_a_note_can_follow(tmp_path, answer, full_pack):
    store = FeedbackStore(tmp_path)
    c = line_quote(answer)
    first = store.add(quote_record("helpful", answer, c, full_pack.manifest))
    second = store.add(quote_record("helpful", answer, c, full_pack.manifest))
    assert second is first and len(store) == 1
    store.add(quote_record("irrelevant", answer, c, full_pack.manifest))     # another kind is another mark
    store.set_note(first.id, "  讲得清楚  ")
    assert [r.note for r in FeedbackStore(tmp_path).list()] == ["讲得清楚", ""]


def test_a_note_too_long_is_refused_with_a_message_and_nothing_changes(tmp_path, answer, full_pack):
    store = FeedbackStore(tmp_path)
    c = line_quote(answer)
    rec = store.add(quote_record("helpful", answer, c, full_pack.manifest, note="原注"))
    before = (tmp_path / fb.FILE_NAME).read_bytes()
    with pytest.raises(FeedbackError, match=f"附注过长（{MAX_NOTE + 1} 字）.*{MAX_NOTE} 字以内"):
        store.set_note(rec.id, "长" * (MAX_NOTE + 1))
    with pytest.raises(FeedbackError, match="附注过长"):
        store.add(quote_record("irrelevant", answer, c, full_pack.manifest, note="长" * (MAX_NOTE + 1)))
    assert (tmp_path / fb.FILE_NAME).read_bytes() == before
    assert [r.note for r in store.list()] == ["原注"]
    store.set_note(rec.id, "长" * MAX_NOTE)                 # the limit itself is allowed
    assert FeedbackStore(tmp_path).list()[0].note == "长" * MAX_NOTE


def test_a_failed_save_leaves_the_list_as_the_disk_has_it(tmp_path, answer, full_pack, monkeypatch):
    store = FeedbackStore(tmp_path)

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(fb, "atomic_write_json", full)
    with pytest.raises(OSError):
        store.add(quote_record("helpful", answer, line_quote(answer), full_pack.manifest))
    assert store.list() == [] and not (tmp_path / fb.FILE_NAME).exists()


def test_summary_counts_by_kind_layer_work_and_flagged_coordinates(tmp_path, answer, full_pack):
    store = FeedbackStore(tmp_path)
    records = [store.add(r) for r in some_records(answer, full_pack.manifest)]
    extra = store.add(card_record("wrong_source", answer, *card(answer, 0), full_pack.manifest))
    records.append(extra)
    s = FeedbackStore(tmp_path).summary()
    assert s["total"] == len(records) == len(store)
    for kind in KINDS:
        assert s["by_kind"][kind] == sum(r.kind == kind for r in records)
    for layer, counts in s["by_layer"].items():
        mine = [r for r in records if r.layer == layer]
        assert counts["total"] == len(mine)
        assert all(counts[k] == sum(r.kind == k for r in mine) for k in KINDS)
    assert sum(v["total"] for v in s["by_work"].values()) == sum(1 for r in records if r.work)
    assert s["notes"] == 1
    # material 1's card was marked 不相关 and 出处有误: its coordinate leads the flagged list
    flagged = {}
    for r in records:
        if r.kind in ("irrelevant", "wrong_source") and r.coord:
            flagged[r.coord] = flagged.get(r.coord, 0) + 1
    top = s["flagged_coords"][0]
    assert top["total"] == max(flagged.values()) and top["coord"] in flagged
    assert {x["coord"]: x["total"] for x in s["flagged_coords"]} == \
        dict(sorted(flagged.items(), key=lambda x: (-x[1], x[0]))[:fb.TOP_COORDS])
    text = fb.format_summary(s, store.path)
    assert f"反馈共 {len(records)} 条" in text and f"不相关 {s['by_kind']['irrelevant']}" in text
    assert "按层：" in text and "律本" in text and top["coord"] in text and str(store.path) in text


def test_export_is_one_record_a_line_with_what_a_teacher_needs(tmp_path, answer, full_pack):
    store = FeedbackStore(tmp_path / "data")
    records = [store.add(r) for r in some_records(answer, full_pack.manifest)]
    out = tmp_path / "out" / "反馈.jsonl"
    assert store.export_jsonl(out) == len(records)
    raw = out.read_bytes()
    assert QUESTION.encode("utf-8") in raw and b"\\u" not in raw       # characters as written
    lines = raw.decode("utf-8").splitlines()
    assert len(lines) == len(records)
    for line, rec in zip(lines, records):
        d = json.loads(line)
        assert TEACHER_FIELDS <= set(d)
        assert (d["kind"], d["kind_label"], d["question"], d["coord"], d["terms"]) == \
            (rec.kind, KINDS[rec.kind], QUESTION, rec.coord, answer.selection.texts)
        assert d["pack"]["fingerprint"] == full_pack.manifest["fingerprint"]


@pytest.mark.parametrize("content", [b"[{\"kind\": \"helpful\", \"targ", b"{\"not\": \"a list\"}",
                                     b"[{\"kind\": \"loved\", \"target\": \"card\", \"question\": \"q\"}]",
                                     b"\xff\xfe garbage"])
def test_an_unreadable_file_is_moved_aside_not_lost(tmp_path, answer, full_pack, content):
    (tmp_path / fb.FILE_NAME).write_bytes(content)
    store = FeedbackStore(tmp_path)
    assert store.list() == [] and store.message and "已将原文件移到" in store.message
    aside = [p for p in tmp_path.iterdir() if p.name.startswith(fb.FILE_NAME + ".corrupt-")]
    assert len(aside) == 1 and aside[0].read_bytes() == content and str(aside[0]) in store.message
    store.add(quote_record("helpful", answer, line_quote(answer), full_pack.manifest))
    assert len(FeedbackStore(tmp_path).list()) == 1 and aside[0].read_bytes() == content


SAVER = r"""
import json, sys
from nanshan_core.feedback import FeedbackRecord, FeedbackStore
store = FeedbackStore(sys.argv[1])
k = 0
while True:
    k += 1
    store.add(FeedbackRecord(kind="irrelevant", target="card", question=f"问题 {k}", terms=["飲酒"],
                             coord="T22n1428_p0671c09", quote="若比丘飲酒者" * (k % 200), note="附注" * (k % 100)))
"""


def test_a_kill_while_saving_leaves_a_whole_file(tmp_path):
    rng = random.Random(11)
    seen = 0
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", SAVER, str(tmp_path)], cwd=ROOT)
        time.sleep(rng.uniform(0.6, 1.4))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        store = FeedbackStore(tmp_path)
        assert store.message is None, "feedback.json truncated by a kill"
        assert len(store) >= seen                  # nothing saved before is lost
        seen = len(store)
    assert seen > 0


# -- the command line ----------------------------------------------------------------------------

def run_cli(data_dir, *args, check=True):
    env = {**os.environ, "NANSHAN_DATA_DIR": str(data_dir)}
    return subprocess.run([sys.executable, "-m", "nanshan_core.cli", "feedback", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, check=check)


def test_cli_summary_export_and_json(tmp_path, answer, full_pack):
    data = tmp_path / "data"
    empty = run_cli(data, "--summary")
    assert "还没有反馈" in empty.stdout and str(data / fb.FILE_NAME) in empty.stdout
    store = FeedbackStore(data)
    records = [store.add(r) for r in some_records(answer, full_pack.manifest)]
    s = store.summary()
    out = run_cli(data, "--summary").stdout
    assert f"反馈共 {len(records)} 条" in out
    assert all(f"{label} {s['by_kind'][k]}" in out for k, label in KINDS.items())
    assert s["flagged_coords"][0]["coord"] in out and "按典籍：" in out
    as_json = json.loads(run_cli(data, "--json").stdout)
    assert as_json["total"] == len(records) and as_json["by_kind"] == s["by_kind"]
    target = tmp_path / "给老师.jsonl"
    done = run_cli(data, "--export", str(target))
    assert f"已导出 {len(records)} 条反馈" in done.stderr
    lines = [json.loads(x) for x in target.read_text(encoding="utf-8").splitlines()]
    assert [d["id"] for d in lines] == [r.id for r in records]
    assert all(d["question"] == QUESTION and d["coord"] for d in lines)
    (tmp_path / "no").mkdir()
    (tmp_path / "no" / "such").write_text("a file where a directory should be")
    bad = run_cli(data, "--export", str(tmp_path / "no" / "such" / "x.jsonl"), check=False)
    assert bad.returncode == 2 and "无法写入" in bad.stderr and "Traceback" not in bad.stderr


def test_cli_reports_a_corrupt_file_and_goes_on(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / fb.FILE_NAME).write_text("{broken", encoding="utf-8")
    out = run_cli(data, "--summary")
    assert "已将原文件移到" in out.stderr and "还没有反馈" in out.stdout
    assert any(p.name.startswith(fb.FILE_NAME + ".corrupt-") for p in data.iterdir())


# -- the window ------------------------------------------------------------------------------------



def test_marking_a_card_and_a_quote_in_the_window(qtbot, open_window, user_dirs, full_pack, tmp_path,
                                                  monkeypatch):
    w = open_window(timeout=TIMEOUT)
    result = ask(qtbot, w, EXPEL)
    m = next(x for x in result.materials if x.layer == "daoxuan")
    pane = w.panes[m.layer]
    links = pane.view.link_targets("fb")
    assert len(links) == 3 * len(pane.materials), "every card carries 有帮助 / 不相关 / 出处有误"
    target = href("fb", f"irrelevant/card/{m.n}")
    assert target in links
    with qtbot.waitSignal(w.feedback.recorded, timeout=5000) as got:
        click_link(pane.view, target)
    rec = got.args[0]
    assert (rec.kind, rec.target, rec.coord, rec.material) == ("irrelevant", "card", m.start_coord, m.n)
    assert rec.question == EXPEL and rec.terms == result.selection.texts == w.chips.terms()
    assert rec.pack["built"] == full_pack.manifest["built"]
    assert "已记下" in w.statusBar().currentMessage() and "不相关" in w.statusBar().currentMessage()
    popup = w.feedback.popup
    assert popup.isVisible() and not popup.isModal() and "不相关" in popup.what.text()
    # a note too long is said in the popup and kept in its box; a short one is saved to the record
    popup.edit.setText("长" * (MAX_NOTE + 5))
    popup.save_button.click()
    assert popup.isVisible() and "附注过长" in popup.error.text() and popup.edit.text()
    popup.edit.setText("这段讲的是驱摈羯磨的程序，不是原因")
    QTest.keyClick(popup.edit, Qt.Key.Key_Return)
    assert not popup.isVisible()
    on_disk = FeedbackStore(user_dirs[0]).list()
    assert [(r.id, r.note) for r in on_disk] == [(rec.id, "这段讲的是驱摈羯磨的程序，不是原因")]
    # a quote in the answer: 出处有误 records that citation and its checked coordinate
    k, c = next((i, c) for i, c in enumerate(result.answer.citations) if c.level == "line")
    quote_link = href("fb", f"wrong_source/quote/{k}")
    assert quote_link in w.answer_view.link_targets("fb")
    with qtbot.waitSignal(w.feedback.recorded, timeout=5000) as got:
        click_link(w.answer_view, quote_link)
    q = got.args[0]
    assert (q.target, q.coord, q.quote, q.level, q.question) == ("quote", c.coord, c.quote, "line", EXPEL)
    assert len(w.feedback.store) == 2 and popup.isVisible() and popup.record_id == q.id
    # a note typed and not saved is not lost when the next link is clicked
    popup.edit.setText("坐标应在下一行")
    with qtbot.waitSignal(w.feedback.recorded, timeout=5000):
        click_link(w.answer_view, href("fb", f"helpful/quote/{k}"))
    assert [r.note for r in FeedbackStore(user_dirs[0]).list()][1] == "坐标应在下一行"
    assert popup.edit.text() == ""
    popup.reject()                                   # 不用附注: the mark stays, without a note
    assert len(w.feedback.store) == 3 and w.feedback.store.list()[2].note == ""
    # 文件 → 导出反馈…: the file dialog answers with a path; the folder is remembered
    out = tmp_path / "export" / "反馈.jsonl"
    out.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), ""))
    with qtbot.waitSignal(w.feedback.exported, timeout=5000):
        w.act_export_feedback.trigger()
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [(d["kind_label"], d["coord"], d["question"]) for d in lines] == \
        [("不相关", m.start_coord, EXPEL), ("出处有误", c.coord, EXPEL), ("有帮助", c.coord, EXPEL)]
    assert lines[0]["note"] == "这段讲的是驱摈羯磨的程序，不是原因"
    assert w.userdata.get("export_dir") == str(out.parent)
    assert w.feedback.default_path().startswith(str(out.parent))


def test_a_full_disk_says_so_and_records_nothing(qtbot, open_window, monkeypatch):
    w = open_window(timeout=TIMEOUT)
    result = ask(qtbot, w, QUESTION)

    def full(path, data):
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(fb, "atomic_write_json", full)
    m = result.materials[0]
    w.panes[m.layer].view.linkActivated.emit("fb", f"helpful/card/{m.n}")
    assert "无法保存反馈" in w.messages.text() and len(w.feedback.store) == 0
    assert not w.feedback.popup.isVisible()


def test_doctor_counts_the_marks_and_reports_a_corrupt_file(tmp_path, answer, full_pack):
    from nanshan_core.tools.doctor import OK, WARN, check_userdata
    from nanshan_core.userdata import UserData
    data, config = tmp_path / "data", tmp_path / "config"
    store = FeedbackStore(data)
    store.add(quote_record("helpful", answer, line_quote(answer), full_pack.manifest))
    found = check_userdata(UserData(data, config))
    assert [f.status for f in found] == [OK] and "反馈 1 条" in found[0].detail
    (data / fb.FILE_NAME).write_text("[{", encoding="utf-8")
    found = check_userdata(UserData(data, config))
    assert any(f.status == WARN and fb.FILE_NAME in f.detail and "已将原文件移到" in f.detail for f in found)
