"""Hardening from outside: a question cannot steer the terminal, long questions come from a file or
stdin with the same limit, hand-edited settings cannot crash the window, nothing touches the network."""
import json
import os
import socket
import subprocess
import sys

import pytest

from nanshan_core import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ESC_QUESTION = "\x1b[31m比丘能不能\u202e碰钱\x1b[0m\x9b2J"


def _cli(args, stdin=None, env=None):
    return subprocess.run([sys.executable, "-m", "nanshan_core.cli", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=300, env=env)


# -- the terminal ------------------------------------------------------------------------------

@pytest.mark.fullpack
def test_a_question_with_escape_sequences_cannot_recolour_the_terminal(full_pack):
    for args in (["ask", ESC_QUESTION, "--pack", str(full_pack.path)],
                 ["ask", ESC_QUESTION, "--json", "--pack", str(full_pack.path)],
                 ["line", "T22n1428\x1b[2J_p0576b27", "--pack", str(full_pack.path)]):
        out = _cli(args)
        printed = out.stdout + out.stderr
        assert not any(ch in printed for ch in "\x1b\x9b\u202e"), printed[:200]
    shown = _cli(["ask", ESC_QUESTION, "--pack", str(full_pack.path)]).stdout
    assert "问题：[31m比丘能不能碰钱[0m2J" in shown          # the words kept, the controls gone
    data = json.loads(_cli(["ask", ESC_QUESTION, "--json", "--pack", str(full_pack.path)]).stdout)
    assert data["question"] == "[31m比丘能不能碰钱[0m2J" and data["materials"]


def test_safe_stream_escapes_what_other_code_prints(capsys):
    stream = cli.SafeStream(sys.stdout)
    stream.write("模型：\x1b[2J 清屏\u202e\n")
    out = capsys.readouterr().out
    assert out == "模型：\\u001b[2J 清屏\\u202e\n"


# -- long questions --------------------------------------------------------------------------

@pytest.mark.fullpack
def test_question_file_and_stdin_meet_the_same_limit(full_pack, tmp_path):
    big = tmp_path / "q.txt"
    big.write_text("比" * 120_000, encoding="utf-8")
    out = _cli(["ask", "--question-file", str(big), "--pack", str(full_pack.path)])
    assert out.returncode == 2 and "问题过长（120000 字）" in out.stderr and "Traceback" not in out.stderr
    out = _cli(["ask", "--question-file", "-", "--pack", str(full_pack.path)], stdin="比" * 120_000)
    assert out.returncode == 2 and "问题过长（120000 字）" in out.stderr
    good = tmp_path / "good.txt"
    good.write_text("比丘能不能喝酒？\n", encoding="utf-8")
    out = _cli(["ask", "--question-file", str(good), "--json", "--pack", str(full_pack.path)])
    assert out.returncode == 0 and json.loads(out.stdout)["question"] == "比丘能不能喝酒？"
    for args, words in ((["ask", "--question-file", str(tmp_path / "none.txt")], "找不到问题文件"),
                        (["ask"], "请给出问题"),
                        (["ask", "问", "--question-file", str(good)], "只能给一个")):
        out = _cli([*args, "--pack", str(full_pack.path)])
        assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("比丘".encode("gb18030"))
    out = _cli(["ask", "--question-file", str(latin1), "--pack", str(full_pack.path)])
    assert out.returncode == 2 and "不是 UTF-8" in out.stderr


# -- hand-edited settings --------------------------------------------------------------------------

SETTING_KEYS = ["draft_question", "export_dir", "font_scale", "geometry", "last_pack", "model_dir", "model_formats",
                "model_path", "reader_font_delta", "show_library", "show_r", "theme"]


@pytest.mark.parametrize("junk", [[1, 2], "x", 7])
def test_settings_of_the_wrong_type_fall_back_to_defaults(qtbot, open_window, user_dirs, junk):
    data, config = user_dirs
    config.mkdir(parents=True, exist_ok=True)
    (config / "settings.json").write_text(json.dumps({k: junk for k in SETTING_KEYS}), encoding="utf-8")
    w = open_window()
    assert w.font_scale == (7.0 if junk == 7 else 1.0)
    w.open_coord("T22n1428_p0576b27")
    assert w.current_reader() is not None


# -- no network ------------------------------------------------------------------------------------

@pytest.fixture
def no_network():
    """Every way Python code could reach the network raises and is recorded (the same guard
    the app's --selftest runs under)."""
    from nanshan_core.offline import no_network as guard
    with guard() as tried:
        yield tried


def test_the_guard_catches_a_connection(no_network):
    with pytest.raises(OSError):
        socket.create_connection(("example.org", 80), timeout=1)
    with pytest.raises(OSError):
        socket.socket().connect(("127.0.0.1", 9))
    assert len(no_network) == 2


@pytest.mark.llm
def test_engine_search_and_model_work_without_network(no_network, engine, gguf):
    from nanshan_core.ask import llm
    from nanshan_core.library.concordance import Searcher
    res = engine.ask("比丘能不能碰钱？")
    assert res.materials and res.answer.citations
    assert Searcher(engine.retriever).search(["捉錢"]).count > 0
    model = llm.load_model(gguf)
    with_model = llm.ask_with_model(engine, "比丘可以喝酒吗？", model, timeout=60)
    assert with_model.answer is not None
    assert no_network == []


def test_gui_ask_open_and_export_without_network(no_network, qtbot, open_window, tmp_path):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    w = open_window()
    edit = w.question_bar.box.lineEdit()
    edit.setText("比丘能不能碰钱？")
    with qtbot.waitSignal(w.resultShown, timeout=120_000):
        QTest.keyClick(edit, Qt.Key.Key_Return)
    w.open_coord("T22n1428_p0619b23")
    assert w.current_reader() is not None
    assert w.handouts.export_html(tmp_path / "h.html").exists()
    assert no_network == []


# -- doctor ------------------------------------------------------------------------------------------

@pytest.mark.fullpack
def test_doctor_reports_a_healthy_install_and_each_broken_part(full_pack, small_pack, tmp_path, user_dirs):
    ok = _cli(["doctor", "--json", "--pack", str(full_pack.path)])
    found = {f["name"]: f for f in json.loads(ok.stdout)}
    assert found["语料包完整性"]["status"] == "ok" and "校验和全部相符" in found["语料包完整性"]["detail"]
    assert "21 部" in found["语料包内容"]["detail"]
    import shutil
    broken = tmp_path / "pack"
    shutil.copytree(small_pack.path, broken)
    db = broken / "corpus.sqlite"
    data = bytearray(db.read_bytes())
    data[len(data) // 2] ^= 1
    db.write_bytes(bytes(data))
    data_dir, config_dir = user_dirs
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "bookmarks.json").write_text("[{", encoding="utf-8")
    env = {**os.environ, "NANSHAN_DATA_DIR": str(data_dir), "NANSHAN_CONFIG_DIR": str(config_dir)}
    bad = _cli(["doctor", "--pack", str(broken)], env=env)
    assert bad.returncode == 1
    assert "✗ 语料包：" in bad.stdout and "corpus.sqlite" in bad.stdout and "nanshan build-corpus" in bad.stdout
    assert "bookmarks.json 无法读取" in bad.stdout and "处理：" in bad.stdout


def test_help_menu_runs_the_same_checks_with_fonts(qtbot, open_window):
    w = open_window()
    dialog = w.check_environment()
    with qtbot.waitSignal(dialog.finished_checks, timeout=60_000) as blocker:
        pass
    names = [f.name for f in blocker.args[0]]
    assert names[0] == "中文字体" and "语料包完整性" in names
    assert blocker.args[0][0].status == "ok", blocker.args[0][0].detail
    assert "语料包完整性" in dialog.report.toPlainText()
    dialog.close()
