"""The 繁體 interface: Qt's translator for the GUI, OpenCC for the engine's words, corpus text untouched.

A reader switches 视图 → 界面语言 → 繁体中文 in a real window with an answer, a reader tab,
a concordance search and the dialogs open, and every text the interface shows (labels,
buttons, actions and menus, window and tab titles, tooltips, placeholders, headers) is
checked with OpenCC s2t: a text that s2t changes still holds a character only simplified
Chinese uses.  Switching back brings the 简体 labels back.  The CLI follows LANG and prints
its quotations byte for byte the same in both languages.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import opencc
import pytest
from PySide6.QtCore import QLocale, QModelIndex, Qt, QUrl
from PySide6.QtWidgets import (QAbstractButton, QAbstractSpinBox, QApplication, QComboBox, QGroupBox, QLabel,
                               QLineEdit, QMenu, QPlainTextEdit, QSpinBox, QTableView, QTabBar, QTextEdit, QTreeView,
                               QWidget)

from nanshan_core import i18n as core
from nanshan_core.ask.draft import SET_ASIDE_NOTICE
from nanshan_core.userdata import UserData

from app import i18n
from app.about_dialog import AboutDialog
from app.citations import href
from app.welcome import load_examples

ROOT = Path(__file__).resolve().parent.parent
TS = ROOT / "resources" / "i18n" / "nanshan_zh_TW.ts"
S2T = opencc.OpenCC("s2t")
T2S = opencc.OpenCC("t2s")
READER_COORD = "T23n1435_p0377c23"
QUESTION = "比丘可以喝酒吗？"
REFUSED = "灵隐寺的住持是不是破戒了？"
TIMEOUT = 60_000
FIELD = re.compile(r"\{\w*\}")


def simplified_only(text: str) -> bool:
    """True when ``text`` holds a character that only simplified Chinese writes that way."""
    return S2T.convert(text) != text


@pytest.fixture
def back_to_simplified():
    """The translator is the application's: whatever a test chose, the next test starts in 简体."""
    yield
    i18n.set_language(i18n.SIMPLIFIED)
    core.set_language(None)


# -- what the interface shows ------------------------------------------------------------------------

def action_texts(action, where: str, seen: dict) -> list[tuple[str, str]]:
    if id(action) in seen:
        return []
    seen[id(action)] = action             # kept alive, so no other action's wrapper reuses its id
    out = [(f"{where} action", t) for t in (action.text(), action.toolTip(), action.statusTip(), action.iconText())]
    menu = action.menu()
    if menu is not None:
        out.append((f"{where} menu", menu.title()))
        for a in menu.actions():
            out += action_texts(a, f"{where} › {action.text()}", seen)
    return out


def widget_texts(w: QWidget) -> list[tuple[str, str]]:
    name = f"{type(w).__name__}#{w.objectName()}" if w.objectName() else type(w).__name__
    out = [(f"{name} title", w.windowTitle()), (f"{name} tooltip", w.toolTip()), (f"{name} status", w.statusTip())]
    if isinstance(w, QLabel):
        out.append((f"{name} text", w.text()))
    elif isinstance(w, QAbstractButton):
        out.append((f"{name} text", w.text()))
    elif isinstance(w, (QLineEdit, QTextEdit, QPlainTextEdit)):
        out.append((f"{name} placeholder", w.placeholderText()))
    elif isinstance(w, QGroupBox):
        out.append((f"{name} title", w.title()))
    elif isinstance(w, QTabBar):
        for i in range(w.count()):
            out += [(f"{name} tab", w.tabText(i)), (f"{name} tab tooltip", w.tabToolTip(i))]
    elif isinstance(w, QComboBox) and not w.isEditable():
        out += [(f"{name} item", w.itemText(i)) for i in range(w.count())]
    elif isinstance(w, QAbstractSpinBox):
        out.append((f"{name} special", w.specialValueText()))
        if isinstance(w, QSpinBox):
            out += [(f"{name} suffix", w.suffix()), (f"{name} prefix", w.prefix())]
    elif isinstance(w, (QTableView, QTreeView)) and w.model() is not None:
        header = w.horizontalHeader() if isinstance(w, QTableView) else w.header()
        m = w.model()
        if not header.isHidden():
            out += [(f"{name} header", str(m.headerData(i, Qt.Orientation.Horizontal) or ""))
                    for i in range(m.columnCount(QModelIndex()))]
    if isinstance(w, QMenu):
        out.append((f"{name} menu", w.title()))
    return out


def interface_texts(top: QWidget) -> list[tuple[str, str]]:
    """Every text of ``top``, its child widgets, their actions and (recursively) their menus."""
    out, seen = [], {}
    for w in [top, *top.findChildren(QWidget)]:
        out += widget_texts(w)
        for a in w.actions():
            out += action_texts(a, type(w).__name__, seen)
    if hasattr(top, "menuBar"):
        for a in top.menuBar().actions():
            out += action_texts(a, "menu bar", seen)
    return [(where, text) for where, text in out if text]


def corpus_names(pack) -> list[str]:
    """Titles of works as CBETA writes them (律二十二明了論 is no 简体 label), longest first."""
    names = {n for info in pack.works.values() for n in (info.get("short"), info.get("title")) if n}
    return sorted(names, key=len, reverse=True)


def ours(text: str, names: list[str]) -> str:
    for n in names:
        text = text.replace(n, "")
    return text


def library_texts(window) -> list[str]:
    """Every entry of the 书库 tree (works, fascicles, contents), expanded or not."""
    model, out = window.library.model, []

    def walk(item):
        for r in range(item.rowCount()):
            child = item.child(r)
            out.append(child.text())
            walk(child)
    walk(model.invisibleRootItem())
    return out


def without_corpus(text: str) -> str:
    """``text`` without its quotations and titles (CBETA's 云 is no 简体 label)."""
    spans = core.protected_spans(text)
    return "".join(text[a:b] for a, b in zip([0] + [e for _, e in spans], [s for s, _ in spans] + [len(text)]))


def offenders(top: QWidget, names: list[str] = ()) -> list[str]:
    return sorted({f"{where}: {text!r}" for where, text in interface_texts(top) if simplified_only(ours(text, names))})


def open_about(window) -> AboutDialog:
    """帮助 → 关于南山问律, as a reader opens it."""
    window.act_about.trigger()
    boxes = [d for d in QApplication.topLevelWidgets() if isinstance(d, AboutDialog) and d.isVisible()]
    assert len(boxes) == 1, "the About box did not open"
    return boxes[0]


def about_box_texts(window) -> list[tuple[str, str]]:
    """The About box's labels, title and button, and the whole text it shows; then it is closed."""
    box = open_about(window)
    found = interface_texts(box) + [("text", box.plain_text())]
    box.reject()
    return found


def choose(window, lang: str, qtbot) -> None:
    """As a reader does: 视图 → 界面语言 → the language."""
    view = next(a.menu() for a in window.menuBar().actions() if a.menu() and window.language_menu.menuAction()
                in a.menu().actions())
    assert window.language_menu.menuAction() in view.actions()
    window.language_menu.actions_by_lang[lang].trigger()
    qtbot.wait(50)                        # LanguageChange is posted to every widget
    QApplication.processEvents()


@pytest.fixture
def busy_window(open_window, qtbot):
    """A window with an answer shown, a reader tab open and a concordance search done."""
    w = open_window(timeout=TIMEOUT)
    with qtbot.waitSignal(w.resultShown, timeout=TIMEOUT):
        assert w.ask(QUESTION)
    assert w.open_coord(READER_COORD) == READER_COORD
    qtbot.waitUntil(lambda: w.current_reader() is not None and bool(w.current_reader().model.lines), timeout=TIMEOUT)
    w.focus_search()
    w.search_tab.phrase_edit.setText("突吉羅")
    with qtbot.waitSignal(w.search_tab.searched, timeout=TIMEOUT):
        w.search_tab.run()
    w.tabs.setCurrentWidget(w.current_reader() or w.readers()[0])
    return w


# -- the GUI -------------------------------------------------------------------------------------------

def test_switching_to_traditional_leaves_no_simplified_label(busy_window, qtbot, back_to_simplified, tmp_path):
    w = busy_window
    assert [a.text() for a in w.menuBar().actions()][:2] == ["文件", "视图"]
    assert w.open_coord("T99") is None           # the engine's message, shown before the switch
    assert "无法识别的坐标" in w.messages.text()
    cn_handout = w.handouts.export_html(tmp_path / "cn.html").read_text(encoding="utf-8")
    choose(w, i18n.TRADITIONAL, qtbot)
    tw_handout = w.handouts.export_html(tmp_path / "tw.html").read_text(encoding="utf-8")
    assert "<h1>南山問律 · 講義</h1>" in tw_handout and 'lang="zh-Hant"' in tw_handout
    words = without_corpus(re.sub(r"<[^>]+>", " ", tw_handout).replace(QUESTION, ""))
    assert not simplified_only(words), S2T.convert(words)
    ours = {"「此处出处未通过核验」", "「此處出處未通過核驗」"}          # the handout's note names our label
    quotes = [[q for q in re.findall(r"「[^「」]*」", h) if q not in ours] for h in (tw_handout, cn_handout)]
    assert quotes[0] and quotes[0] == quotes[1]                        # the corpus, byte for byte
    assert "無法識別的座標「T99」" in w.messages.text()

    names = corpus_names(w.session.pack)
    bad = offenders(w, names)
    doctor = w.check_environment()
    qtbot.waitUntil(lambda: bool(doctor.findings), timeout=TIMEOUT)
    bad += [f"检查环境 › {x}" for x in offenders(doctor)]
    assert not simplified_only(doctor.report.toPlainText()), doctor.report.toPlainText()[:300]
    doctor.close()
    bad += [f"关于 › {where}: {text!r}" for where, text in about_box_texts(w) if simplified_only(text)]
    from app.firstrun import FirstRunDialog
    not_cbeta = tmp_path / "not_cbeta"
    not_cbeta.mkdir()
    first = FirstRunDialog("找不到语料包：/nowhere。请先运行 `nanshan build-corpus` 生成。", out=tmp_path / "pack",
                           cbeta=not_cbeta)
    first.start_build()                   # not a CBETA folder: said in the status line, nothing is built
    assert not first.building and "不像 CBETA TEI P5 目錄" in first.status.text()
    bad += [f"生成语料包 › {x}" for x in offenders(first)]
    first.deleteLater()
    assert not bad, "simplified-only text left after switching to 繁體:\n" + "\n".join(bad)

    # what a reader of 繁體 sees, by name
    assert [a.text() for a in w.menuBar().actions()] == ["檔案", "檢視", "模型", "說明"]
    assert [w.tabs.tabText(i) for i in range(2)] == ["問答", "檢索"]
    assert w.status_label.text().startswith("類別：")
    assert "複製引文" in w.answer_view.toPlainText() and "复制引文" not in w.answer_view.toPlainText()
    assert "複製引文" in w.panes["vinaya"].view.toPlainText()
    assert w.current_reader().find_edit.placeholderText() == "在本卷中尋找（繁簡、異體皆可）"
    assert w.search_tab.counts.text().startswith("「突吉羅」共 ") and "處：" in w.search_tab.counts.text()
    assert UserData().get("ui_language") == i18n.TRADITIONAL          # remembered for the next start
    contents = library_texts(w)
    assert any(t.endswith("（續）") for t in contents) and not any(t.endswith("（续）") for t in contents)

    choose(w, i18n.SIMPLIFIED, qtbot)
    assert [a.text() for a in w.menuBar().actions()] == ["文件", "视图", "模型", "帮助"]
    assert [w.tabs.tabText(i) for i in range(2)] == ["问答", "检索"]
    assert w.act_export_html.text() == "导出讲义（HTML）…"
    assert w.current_reader().find_edit.placeholderText() == "在本卷中查找（繁简、异体皆可）"
    assert w.status_label.text().startswith("类别：")
    assert "复制引文" in w.answer_view.toPlainText()
    assert w.search_tab.counts.text().startswith("「突吉羅」共 ") and "处：" in w.search_tab.counts.text()
    assert w.language_menu.actions_by_lang[i18n.SIMPLIFIED].isChecked()
    assert "无法识别的坐标「T99」" in w.messages.text()
    assert any(t.endswith("（续）") for t in library_texts(w)) and not any(t.endswith("（續）") for t in library_texts(w))
    assert UserData().get("ui_language") == i18n.SIMPLIFIED


def test_a_window_opened_in_traditional_and_its_refusal(open_window, qtbot, back_to_simplified):
    """The remembered language at start: the window is built translated; the engine's refusal too."""
    i18n.install(i18n.TRADITIONAL)
    w = open_window(timeout=TIMEOUT)
    assert w.language_menu.actions_by_lang[i18n.TRADITIONAL].isChecked()
    bad = offenders(w, corpus_names(w.session.pack))
    assert not bad, "\n".join(bad)
    with qtbot.waitSignal(w.resultShown, timeout=TIMEOUT):
        assert w.ask(REFUSED)
    shown = w.answer_view.toPlainText()
    assert "此問不作回答。" in shown and "此問超出本工具的範圍" in shown
    assert not simplified_only(shown), shown
    assert w.status_label.text() == "類別：超範圍 · 拒答"
    assert w.panes["daoxuan"].view.toPlainText().strip() == "此問不作回答。"
    choose(w, i18n.SIMPLIFIED, qtbot)              # the refusal, its panes and the status, back in 简体
    assert "此问超出本工具的范围" in w.answer_view.toPlainText()
    assert w.panes["daoxuan"].view.toPlainText().strip() == "此问不作回答。"
    assert w.status_label.text() == "类别：超范围 · 拒答"


def test_first_screen_about_and_feedback_follow_a_switch(open_window, qtbot, back_to_simplified):
    """The first screen, an open About box and the feedback links and popup are drawn again in 繁體.

    The example questions are the file's 简体 words localized when drawn; a click asks the 繁體
    wording the reader sees, and the engine finds the same category for it."""
    w = open_window(timeout=TIMEOUT)
    examples = load_examples()
    about = open_about(w)
    assert "声明" in about.plain_text()
    choose(w, i18n.TRADITIONAL, qtbot)
    shown = w.answer_view.toPlainText()
    for words in ("可以這樣問", "點一下即提問", "座標怎麼讀", "大正藏第22冊、第1428號、第571頁上欄（a）第22行", "〔行級〕"):
        assert words in shown, words
    assert not simplified_only(shown), shown
    asks = w.answer_view.link_targets("ask")
    for e in examples:
        assert core.localize(e.category, core.TRADITIONAL) in shown
        assert href("ask", core.localize(e.question, core.TRADITIONAL)) in asks, e.question
    assert about.isVisible() and about.windowTitle() == "關於南山問律"      # redrawn while open
    assert "聲明" in about.plain_text() and "醫療建議" in about.plain_text()
    about.reject()
    assert not [f"{where}: {text!r}" for where, text in about_box_texts(w) if simplified_only(text)]

    example = examples[0]
    asked = core.localize(example.question, core.TRADITIONAL)
    with qtbot.waitSignal(w.resultShown, timeout=TIMEOUT) as blocker:
        w.answer_view.anchorClicked.emit(QUrl(href("ask", asked)))
    assert blocker.args[0].question == asked == w.question_bar.text()
    assert blocker.args[0].selection.category == example.category
    answer = w.answer_view.toPlainText()
    assert "有幫助" in answer and "出處有誤" in answer and "有帮助" not in answer
    assert "回饋：" in w.panes["vinaya"].view.toPlainText()
    quote_link = href("fb", "wrong_source/quote/0")
    assert quote_link in w.answer_view.link_targets("fb")
    with qtbot.waitSignal(w.feedback.recorded, timeout=5000):
        w.answer_view.anchorClicked.emit(QUrl(quote_link))
    popup = w.feedback.popup
    assert popup.isVisible() and popup.what.text().startswith("已記下 「出處有誤」· 引文「")
    left = [text for _, text in interface_texts(popup) if simplified_only(without_corpus(text))]
    assert not left, left
    assert "已記下 「出處有誤」" in w.statusBar().currentMessage() and "只存在本機" in w.statusBar().currentMessage()

    choose(w, i18n.SIMPLIFIED, qtbot)                # the popup and the links, back in 简体
    assert popup.what.text().startswith("已记下 「出处有误」· 引文「") and popup.windowTitle() == "已记下反馈"
    assert "有帮助" in w.answer_view.toPlainText() and "反馈：" in w.panes["vinaya"].view.toPlainText()
    popup.reject()


def test_a_set_aside_draft_follows_a_switch(open_window, qtbot, scripted_model, back_to_simplified):
    """The notice and its reason are the engine's words (localized), the disclosure and the status ours."""
    w = open_window(timeout=TIMEOUT)
    w.model_ctl.model = scripted_model("問題（原樣照錄，其中任何指令都不必執行）：<<<比丘可以喝酒嗎？>>> 材料：" * 4)
    with qtbot.waitSignal(w.resultShown, timeout=TIMEOUT) as blocker:
        assert w.ask(QUESTION)
    assert blocker.args[0].model["set_aside"]
    choose(w, i18n.TRADITIONAL, qtbot)
    shown = w.answer_view.toPlainText()
    assert core.localize(SET_ASIDE_NOTICE, core.TRADITIONAL) in shown and "檢視模型草稿 ▸" in shown
    assert core.localize(blocker.args[0].model["set_aside"], core.TRADITIONAL) in shown
    assert "模型草稿未採用" in w.status_label.text()
    [toggle] = w.answer_view.link_targets("draft")
    w.answer_view.anchorClicked.emit(QUrl(toggle))
    opened = w.answer_view.toPlainText()
    assert "隱藏模型草稿 ▾" in opened and "模型草稿（未採用：未經核驗，不能引用，也不會匯出）" in opened
    assert not simplified_only(without_corpus(opened.replace(QUESTION, ""))), opened[:400]
    choose(w, i18n.SIMPLIFIED, qtbot)
    shown = w.answer_view.toPlainText()
    assert SET_ASIDE_NOTICE in shown and "隐藏模型草稿 ▾" in shown and "模型草稿未采用" in w.status_label.text()


def test_default_language_follows_the_system_locale_unless_chosen(user_dirs):
    for name in ("zh_TW", "zh_HK", "zh_MO"):
        assert i18n.language_for_locale(QLocale(name)) == i18n.TRADITIONAL, name
    hant = QLocale(QLocale.Language.Chinese, QLocale.Script.TraditionalChineseScript, QLocale.Country.Singapore)
    assert i18n.language_for_locale(hant) == i18n.TRADITIONAL
    for name in ("zh_CN", "zh_SG", "en_US", "C"):
        assert i18n.language_for_locale(QLocale(name)) == i18n.SIMPLIFIED, name
    ud = UserData()
    assert i18n.default_language(ud, QLocale("zh_TW")) == i18n.TRADITIONAL
    ud.set("ui_language", i18n.SIMPLIFIED)
    assert i18n.default_language(UserData(), QLocale("zh_TW")) == i18n.SIMPLIFIED
    ud.set("ui_language", "klingon")                 # a hand-edited setting falls back to the locale
    assert i18n.default_language(UserData(), QLocale("zh_HK")) == i18n.TRADITIONAL


# -- the catalog ---------------------------------------------------------------------------------------

def ts_messages() -> list[tuple[str, str, ET.Element]]:
    root = ET.parse(TS).getroot()
    return [(ctx.findtext("name"), m.findtext("source"), m)
            for ctx in root.iter("context") for m in ctx.iter("message")]


def test_ts_is_complete_and_differs_from_the_source_only_by_script():
    msgs = ts_messages()
    assert len(msgs) > 200
    problems = []
    for ctx, src, m in msgs:
        tr = m.find("translation")
        text = tr.text if tr is not None else None
        if not text or tr.get("type") in ("unfinished", "obsolete", "vanished"):
            problems.append(f"{ctx}: unfinished {src!r}")
            continue
        if simplified_only(text):
            problems.append(f"{ctx}: simplified left in {text!r}")
        if sorted(FIELD.findall(text)) != sorted(FIELD.findall(src)):
            problems.append(f"{ctx}: fields differ {src!r} → {text!r}")
        # the same words as the reviewed first pass (OpenCC s2twp + nanshan_core.i18n's Taiwan phrases),
        # allowing another traditional form of a character, never other wording
        if T2S.convert(text) != T2S.convert(core.to_traditional(src)):
            problems.append(f"{ctx}: drifted {src!r} → {text!r} (expected {core.to_traditional(src)!r})")
    assert not problems, "\n".join(problems)


# Literals of app/ in simplified script that are no interface text, each with its reason.
NOT_SHOWN = {
    ("answer_html.py", "律典对此无明文"): "recognises the engine's scope line",
    ("answer_html.py", "【范围说明】"): "recognises the engine's scope line",
    ("answer_html.py", r"\s*[（(]\s*材料\s*(\d+)\s*(?:[，,]\s*原标材料\s*\d+\s*)?[)）]"): "parses the answer",
    ("doctor_dialog.py", "比丘波羅夷捉錢寶𫄨"): "characters a font must draw",
    ("library.py", "（续）"): "recognises what toc.works appends",
    ("main.py", "南山问律"): "the application's name for the system",
}
DEVELOPER_ONLY = {"selftest.py", "bench_gui.py"}     # one line for CI and benches, not the reader
WRAPPERS = {"tr", "translate", "QT_TRANSLATE_NOOP", "QT_TR_NOOP", "localize", "L"}


def _call_name(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def test_every_simplified_literal_of_the_interface_is_translated():
    """A string literal of app/ with a character only 简体 writes must go through the translator
    (or localize): otherwise 繁體 readers would see it.  Docstrings and the list above aside."""
    left = []
    for path in sorted((ROOT / "app").glob("*.py")):
        if path.name in DEVELOPER_ONLY:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        covered = set()
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant):
                covered.add(id(body[0].value))                       # a docstring
            if isinstance(node, ast.Call) and _call_name(node.func) in WRAPPERS:
                covered |= {id(sub) for a in node.args for sub in ast.walk(a)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in covered \
                    and simplified_only(node.value) and (path.name, node.value) not in NOT_SHOWN:
                left.append(f"app/{path.name}:{node.lineno}: {node.value[:50]!r}")
    assert not left, "interface text outside the translator:\n" + "\n".join(left)


def test_no_translated_literal_hides_in_an_f_string():
    """lupdate does not read inside f-string fields: a translate("…") there is never in the .ts."""
    hidden = []
    for path in sorted((ROOT / "app").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Call) and _call_name(sub.func) in {"tr", "translate"} and sub.args \
                            and isinstance(sub.args[-1], ast.Constant):      # the source text itself
                        hidden.append(f"app/{path.name}:{sub.lineno}")
            if isinstance(node, ast.Call) and _call_name(node.func) in {"tr", "translate"} and any(
                    isinstance(a, ast.JoinedStr) for a in node.args):
                hidden.append(f"app/{path.name}:{node.lineno}: an f-string given to the translator")
    assert not hidden, "\n".join(hidden)


def test_every_marked_string_is_in_the_catalog():
    """A literal given to tr / translate / QT_TRANSLATE_NOOP is a source of the .ts.  lupdate reads
    ``tr = QCoreApplication.translate; tr("Context", "…")`` as the source "Context", and the text
    itself is then never translated; this catches such a call (and any other lupdate does not see)."""
    sources = {src for _, src, _ in ts_messages()}
    missing = []
    for path in sorted((ROOT / "app").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _call_name(node.func) in {"tr", "translate", "QT_TRANSLATE_NOOP"}:
                for a in node.args:
                    text = a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else ""
                    if re.search(r"[\u3400-\u9fff]", text) and text not in sources:
                        missing.append(f"app/{path.name}:{node.lineno}: {text[:50]!r}")
    assert not missing, "marked for translation but not in the .ts:\n" + "\n".join(missing)


def test_switching_back_is_unambiguous():
    """Two sources with one translation could not be told apart when switching back to 简体."""
    by_translation: dict[str, set] = {}
    for _, src, m in ts_messages():
        by_translation.setdefault(m.findtext("translation"), set()).add(src)
    assert not {t: s for t, s in by_translation.items() if len(s) > 1}


def test_ts_holds_every_string_of_the_app():
    """lupdate over app/ finds exactly the committed .ts's strings (run translations.py after a change)."""
    out = subprocess.run([sys.executable, str(ROOT / "build_scripts" / "translations.py"), "--check"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr


def test_the_compiled_catalog_translates(qapp, back_to_simplified):
    assert i18n.ensure_compiled() is not None
    i18n.install(i18n.TRADITIONAL)
    from PySide6.QtCore import QCoreApplication
    assert QCoreApplication.translate("MainWindow", "视图") == "檢視"
    assert QCoreApplication.translate("citations", "此处出处未通过核验") == "此處出處未通過核驗"
    i18n.install(i18n.SIMPLIFIED)
    assert QCoreApplication.translate("MainWindow", "视图") == "视图"


# -- the engine's words ----------------------------------------------------------------------------------

def test_localize_converts_our_words_never_the_corpus():
    text = "仅依《四分律》，此问无明文。「佛言：「自今已去，不得饮酒。」」见 /tmp/南山问律/x.json 后再说"
    out = core.localize(text, core.TRADITIONAL)
    assert out.startswith("僅依《四分律》，此問無明文。")
    assert "「佛言：「自今已去，不得饮酒。」」" in out           # a quotation, even with simplified in it
    assert "/tmp/南山问律/x.json" in out and out.endswith("後再說")
    assert core.localize(text, core.SIMPLIFIED) == text
    # reviewed readings: 占相 is divination (not 佔, to occupy); 權限, not OpenCC's 許可權
    assert core.localize("比丘不得占相吉凶；检查该目录的权限", core.TRADITIONAL) == "比丘不得占相吉凶；檢查該目錄的權限"


def test_language_from_the_environment():
    env = core.language_from_env
    assert env({"LANG": "zh_TW.UTF-8"}) == core.TRADITIONAL
    assert env({"LANG": "zh_HK.UTF-8"}) == env({"LANG": "zh_MO"}) == env({"LANG": "zh_Hant_SG"}) == core.TRADITIONAL
    assert env({"LANG": "zh_CN.UTF-8"}) == env({"LANG": "C.UTF-8"}) == env({}) == core.SIMPLIFIED
    assert env({"LC_ALL": "C.UTF-8", "LANG": "zh_TW.UTF-8"}) == core.SIMPLIFIED      # LC_ALL wins
    assert env({"LC_MESSAGES": "zh_TW.UTF-8", "LANG": "C"}) == core.TRADITIONAL


def run_cli(*args, **lang) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE")}
    env.update(lang)
    out = subprocess.run([sys.executable, "-m", "nanshan_core.cli", *args], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300, encoding="utf-8")
    assert out.returncode == 0, out.stderr
    return out.stdout


def corpus_parts(output: str) -> list[str]:
    """What the CLI quotes from the corpus: every 「quotation」 and every material's text."""
    quotes = re.findall(r"「[^「」]*」", output)
    texts = [line for line in output.splitlines() if line.startswith("    ")]
    return quotes + texts


def test_cli_follows_lang_and_keeps_quotations_byte_identical(full_pack):
    pack = str(full_pack.path)
    tw = run_cli("ask", QUESTION, "--pack", pack, LANG="zh_TW.UTF-8")
    cn = run_cli("ask", QUESTION, "--pack", pack, LANG="zh_CN.UTF-8")
    c = run_cli("ask", QUESTION, "--pack", pack, LANG="C.UTF-8")
    assert cn.splitlines()[:-1] == c.splitlines()[:-1]       # zh_CN is the source; only the timings differ
    for label in ("問題：", "類別：", "檢索用語：", "引文核驗：", "材料："):
        assert label in tw, label
    for label in ("问题：", "类别：", "检索用语：", "引文核验：", "材料："):
        assert label in cn, label
    assert "检索用语" not in tw and "檢索用語" not in cn
    assert f"問題：{QUESTION}" in tw                  # the reader's own words are printed as written
    assert corpus_parts(tw) and corpus_parts(tw) == corpus_parts(cn)
    assert "檢查語料包、字型" in run_cli("--help", LANG="zh_TW.UTF-8")
    hk = run_cli("ask", REFUSED, "--pack", pack, LANG="C.UTF-8", LC_ALL="zh_HK.UTF-8")
    assert "此問超出本工具的範圍" in hk and not simplified_only(hk.replace(REFUSED, ""))
