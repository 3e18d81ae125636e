"""The interface language: 简体 (the source strings) or 繁體 (resources/i18n/nanshan_zh_TW.qm).

Every string of the interface goes through Qt's translator (``self.tr`` or
``QCoreApplication.translate``); the .ts is kept by build_scripts/translations.py
and compiled to .qm at build time.  The choice lives in 视图 → 界面语言, is kept in
the settings (``ui_language``) and defaults to the system locale.

Switching needs no restart.  Rather than a ``retranslateUi`` per widget (which
would move every string of the window into new methods), the texts already on
screen are translated again centrally: each label, button, action, tab, tooltip,
placeholder, title and header is looked up in the catalog — the exact string, or
a template such as ``已复制：{text}`` whose arguments are kept as they are, so
corpus text inside a label is never touched.  Rich text views (the answer, the
cards, the reader) are rendered again by their owners on QEvent.LanguageChange.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QLibraryInfo, QLocale, QTranslator
from PySide6.QtGui import QAction, QActionGroup, QStandardItemModel
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSpinBox, QApplication, QComboBox,
                               QGroupBox, QLabel, QLineEdit, QMenu, QPlainTextEdit, QProgressBar, QSpinBox, QTabBar,
                               QTableWidget, QTextEdit, QWidget)

from nanshan_core import i18n as core
from nanshan_core.paths import resource_path

SIMPLIFIED, TRADITIONAL = core.SIMPLIFIED, core.TRADITIONAL
SETTING = "ui_language"
TS_NAME = "nanshan_zh_TW.ts"
QM_NAME = "nanshan_zh_TW.qm"
# QLocale.Country is the enum QLocale.territory() returns (PySide6 keeps the older name)
_HANT_TERRITORIES = {QLocale.Country.Taiwan, QLocale.Country.HongKong, QLocale.Country.Macao}
# Qt's own string (qtbase_*.qm translates it), passed unpacked so lupdate does not copy it into our .ts
QT_CLOSE_TAB = ("CloseButton", "Close Tab")
_installed: list[QTranslator] = []
_current = SIMPLIFIED
_previous = SIMPLIFIED          # before the last switch: what texts on screen may still be in


def translate(context: str, text: str) -> str:
    return QCoreApplication.translate(context, text)


# -- choosing ------------------------------------------------------------------------------------

def language_for_locale(locale: QLocale) -> str:
    """zh_TW, zh_HK, zh_MO, or any Chinese written in the Traditional script, is 繁體."""
    if locale.language() != QLocale.Language.Chinese:
        return SIMPLIFIED
    if locale.script() == QLocale.Script.TraditionalChineseScript or locale.territory() in _HANT_TERRITORIES:
        return TRADITIONAL
    return SIMPLIFIED


def default_language(userdata=None, locale: QLocale | None = None) -> str:
    """The remembered choice, else what the system locale implies."""
    saved = userdata.get(SETTING, "") if userdata is not None else ""
    if saved in core.LANGUAGES:
        return saved
    return language_for_locale(locale if locale is not None else QLocale.system())


def current() -> str:
    return _current


# -- the compiled catalog ------------------------------------------------------------------------

def i18n_dir() -> Path:
    return resource_path("i18n")


def qm_path() -> Path:
    return i18n_dir() / QM_NAME


def lrelease() -> str | None:
    """pyside6-lrelease beside the running Python (a venv), else on PATH."""
    here = Path(sys.executable).parent / "pyside6-lrelease"
    return str(here) if here.exists() else shutil.which("pyside6-lrelease")


def ensure_compiled() -> Path | None:
    """The .qm, compiled from the .ts when a source checkout has none or an older one.

    Builds compile it (build_scripts/translations.py --release); this covers a
    checkout whose .ts changed since, so a developer never sees a stale language."""
    ts, qm = i18n_dir() / TS_NAME, qm_path()
    stale = ts.exists() and (not qm.exists() or qm.stat().st_mtime < ts.stat().st_mtime)
    tool = lrelease() if stale and not getattr(sys, "frozen", False) else None
    if tool:
        try:
            subprocess.run([tool, "-silent", str(ts), "-qm", str(qm)], check=True, capture_output=True,
                           timeout=60)
        except (OSError, subprocess.SubprocessError):
            pass                           # the old .qm (or none: 简体) is still usable
    return qm if qm.exists() else None


def install(lang: str) -> str:
    """Install the translators for ``lang`` (ours and Qt's own for standard dialogs); returns it."""
    global _current
    app = QCoreApplication.instance()
    lang = core.set_language(lang)
    for t in _installed:
        app.removeTranslator(t)
    _installed.clear()
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    wanted = [(f"qtbase_{lang}", qt_dir)]
    if lang == TRADITIONAL:
        qm = ensure_compiled()
        if qm is not None:
            wanted.append((qm.stem, str(qm.parent)))
    for name, folder in wanted:
        t = QTranslator(app)
        if t.load(name, folder):
            app.installTranslator(t)
            _installed.append(t)
    _current = lang
    return lang


def set_language(lang: str, userdata=None) -> str:
    """Switch now: install, translate what is on screen, remember the choice."""
    global _previous
    old = _previous = _current
    lang = install(lang)
    if old != lang:
        retranslate_widgets(old, lang)
    if userdata is not None:
        try:
            userdata.set(SETTING, lang)
        except OSError:
            pass                           # the switch still holds for this session
    return lang


# -- translating what is already shown -------------------------------------------------------------

_FIELD = re.compile(r"\{(\w*)\}")


@lru_cache(maxsize=1)
def catalog() -> tuple[dict, dict, list, list]:
    """(source → translation, translation → source, templates one way, templates the other)."""
    fwd: dict[str, str] = {}
    try:
        root = ET.parse(i18n_dir() / TS_NAME).getroot()
    except (OSError, ET.ParseError):
        root = None
    for msg in (root.iter("message") if root is not None else ()):
        src, tr = msg.findtext("source") or "", msg.find("translation")
        if tr is not None and tr.text and tr.get("type") not in ("unfinished", "obsolete", "vanished"):
            fwd[src] = tr.text
    rev = {v: k for k, v in fwd.items()}
    return fwd, rev, _templates(fwd), _templates(rev)


def _templates(pairs: dict) -> list:
    """Regexes for the strings with ``{name}`` fields, longest literal text first."""
    out = []
    for a, b in pairs.items():
        literal = _FIELD.sub("", a)
        if not _FIELD.search(a) or not re.search(r"[\u3400-\u9fff]", literal):
            continue
        pattern, pos = [], 0
        for m in _FIELD.finditer(a):
            pattern.append(re.escape(a[pos:m.start()]))
            pattern.append(f"(?P<{m.group(1)}>.*?)" if m.group(1) else "(.*?)")
            pos = m.end()
        pattern.append(re.escape(a[pos:]))
        try:
            rx = re.compile("^" + "".join(pattern) + "$", re.S)
        except re.error:
            continue
        out.append((len(literal), rx, b))
    out.sort(key=lambda x: -x[0])
    return out


def retranslate_text(text: str, old: str, new: str) -> str:
    """``text`` as shown in ``old``, in ``new``; text that is not ours comes back unchanged."""
    if not text or old == new:
        return text
    fwd, rev, t_fwd, t_rev = catalog()
    exact, templates = (fwd, t_fwd) if new == TRADITIONAL else (rev, t_rev)
    if text in exact:
        return exact[text]
    for _, rx, other in templates:
        m = rx.match(text)
        if m is None:
            continue
        args = {k: exact.get(v, v) for k, v in m.groupdict().items()}
        try:
            return other.format(**args)
        except (KeyError, IndexError, ValueError):
            continue
    return text


def again(text: str) -> str:
    """A text made before the last switch, in the current language (for views that keep their own)."""
    return retranslate_text(text, _previous, _current)


def _retext(getter, setter, old: str, new: str) -> None:
    text = getter()
    if text:
        shown = retranslate_text(text, old, new)
        if shown != text:
            setter(shown)


def _widget_texts(w: QWidget, old: str, new: str) -> None:
    if w.metaObject().className() == "CloseButton":     # a tab's close button: Qt sets its tooltip once
        w.setToolTip(translate(*QT_CLOSE_TAB))
        return
    for get, put in ((w.windowTitle, w.setWindowTitle), (w.toolTip, w.setToolTip),
                     (w.statusTip, w.setStatusTip), (w.whatsThis, w.setWhatsThis)):
        _retext(get, put, old, new)
    if isinstance(w, QLabel):
        _retext(w.text, w.setText, old, new)
    elif isinstance(w, QAbstractButton):
        _retext(w.text, w.setText, old, new)
    elif isinstance(w, QLineEdit):
        _retext(w.placeholderText, w.setPlaceholderText, old, new)
    elif isinstance(w, (QTextEdit, QPlainTextEdit)):
        _retext(w.placeholderText, w.setPlaceholderText, old, new)
    elif isinstance(w, QGroupBox):
        _retext(w.title, w.setTitle, old, new)
    elif isinstance(w, QProgressBar):
        _retext(w.format, w.setFormat, old, new)
    elif isinstance(w, QTabBar):
        for i in range(w.count()):
            _retext(lambda: w.tabText(i), lambda t: w.setTabText(i, t), old, new)
            _retext(lambda: w.tabToolTip(i), lambda t: w.setTabToolTip(i, t), old, new)
    elif isinstance(w, QComboBox) and not w.isEditable():      # an editable box holds the user's words
        for i in range(w.count()):
            _retext(lambda: w.itemText(i), lambda t: w.setItemText(i, t), old, new)
    elif isinstance(w, QAbstractSpinBox):
        _retext(w.specialValueText, w.setSpecialValueText, old, new)
        if isinstance(w, QSpinBox):
            _retext(w.suffix, w.setSuffix, old, new)
            _retext(w.prefix, w.setPrefix, old, new)
    elif isinstance(w, QAbstractItemView):
        model = w if isinstance(w, QTableWidget) else w.model()
        if isinstance(model, (QTableWidget, QStandardItemModel)):
            for i in range(model.columnCount()):
                item = model.horizontalHeaderItem(i)
                if item is not None:
                    _retext(item.text, item.setText, old, new)


def _action_texts(a: QAction, old: str, new: str) -> None:
    for get, put in ((a.text, a.setText), (a.toolTip, a.setToolTip), (a.statusTip, a.setStatusTip),
                     (a.iconText, a.setIconText)):
        _retext(get, put, old, new)


def retranslate_widgets(old: str, new: str) -> None:
    """Every text property of every widget and action of the application, in ``new``."""
    seen: dict[int, QAction] = {}          # holding the wrappers keeps their ids from being reused
    for w in QApplication.allWidgets():
        _widget_texts(w, old, new)
        actions = list(w.actions())
        if isinstance(w, QMenu):
            actions.append(w.menuAction())
        for a in actions:
            if id(a) not in seen:
                seen[id(a)] = a
                _action_texts(a, old, new)


# -- the 视图 → 界面语言 menu -----------------------------------------------------------------------

class LanguageMenu(QMenu):
    """简体 / 繁體, one checked; the choice is applied at once and remembered."""

    def __init__(self, userdata, parent=None):
        super().__init__(self.tr("界面语言"), parent)
        self.userdata = userdata
        self.group = QActionGroup(self)
        self.group.setExclusive(True)
        self.actions_by_lang = {}
        for lang, label in ((SIMPLIFIED, self.tr("简体中文")), (TRADITIONAL, self.tr("繁体中文"))):
            act = self.addAction(label)
            act.setCheckable(True)
            act.setData(lang)
            act.setChecked(lang == _current)
            act.triggered.connect(lambda _=False, lang=lang: self.choose(lang))
            self.group.addAction(act)
            self.actions_by_lang[lang] = act

    def changeEvent(self, event):
        """Chosen elsewhere (another window, a test): the check mark follows."""
        if event.type() == QEvent.Type.LanguageChange:
            self.actions_by_lang[_current].setChecked(True)
        super().changeEvent(event)

    def choose(self, lang: str) -> str:
        lang = set_language(lang, self.userdata)
        self.actions_by_lang[lang].setChecked(True)
        return lang


def add_language_menu(window, view_menu: QMenu) -> LanguageMenu:
    """The hook in MainWindow._build_actions: 视图 → 界面语言."""
    view_menu.addSeparator()
    menu = LanguageMenu(window.userdata, window)
    view_menu.addMenu(menu)
    window.language_menu = menu
    return menu


def rerender_window(window) -> None:
    """What the window draws as rich text, drawn again in the current language (on LanguageChange)."""
    from . import answer_html as ah
    if getattr(window, "generating", False):
        window.answer_view.begin_provisional(ah.provisional_html("".join(window._stream), window.pal()))
    else:
        window._show_current()
    for pane in window.panes.values():
        pane.retranslate()
    for reader in window.readers():
        reader.retranslate()


__all__ = ["SIMPLIFIED", "TRADITIONAL", "translate", "language_for_locale", "default_language", "install",
           "set_language", "retranslate_text", "retranslate_widgets", "LanguageMenu", "add_language_menu",
           "rerender_window", "current", "ensure_compiled"]
