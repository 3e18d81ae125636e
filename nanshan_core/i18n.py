"""The interface language of the engine's own words: 简体 (the source) or 繁體 (zh_TW).

The GUI's strings go through Qt's translator (app/i18n.py); what comes from the
engine — errors, refusal replies, scope notes, the labels the CLI prints — is
written in 简体 here and converted at the output boundary with OpenCC's s2twp
(Taiwan characters and phrases) plus the reviewed phrases below, the same that
the .ts build uses.  Corpus text is never converted: it is already as CBETA has
it.  ``localize`` therefore leaves every 「quotation」, 『quotation』 and
《title》 alone, as well as file paths, so an answer's prose may be passed whole.
"""
from __future__ import annotations

import os
import re
from functools import lru_cache

SIMPLIFIED, TRADITIONAL = "zh_CN", "zh_TW"
LANGUAGES = (SIMPLIFIED, TRADITIONAL)
LABELS = {SIMPLIFIED: "简体", TRADITIONAL: "繁體"}
_HANT_REGIONS = ("TW", "HK", "MO")
OPENCC_CONFIG = "s2twp"

# Taiwan interface usage OpenCC's phrase table does not give, by 简体 phrase (reviewed by reading
# the .ts): it wins over OpenCC wherever the phrase occurs in our own words.
TW_PHRASES = {
    "全屏": "全螢幕",
    "工具栏": "工具列",
    "查找": "尋找",
    "当前行": "目前這一行",
    "当前": "目前",
    "卸载": "卸載",
    "演示模式": "簡報模式",
    "定位图": "定位圖",
    "这条信息": "這條訊息",
    "打印": "印出",            # the CLI prints to the terminal; 列印 is for a printer
    "权限": "權限",            # OpenCC's 許可權
    "占相": "占相",            # divining by signs (邪命), not 佔 (to occupy)
    "反馈": "回饋",            # reader feedback: 意見回饋 in Taiwan, not 反饋
    "声明": "聲明",            # the About box's disclaimer; OpenCC's 宣告 is a programmer's declaration
}
# Whole interface strings whose Taiwan form is another word (a menu called 帮助 is 說明 there).
TW_WHOLE = {"帮助": "說明"}

# Spans never converted: quotations and titles (corpus text, nested marks included), and paths.
_OPEN_CLOSE = {"「": "」", "『": "』", "《": "》"}
# a path starts with a separator and an ASCII name character: /tmp/…, C:\Users\… (not 律本/道宣)
_PATH = re.compile(r"(?:[A-Za-z]:)?[\\/](?=[A-Za-z0-9._~-])[^\s，。；：、）」』》]*")
_current: str | None = None


def is_traditional_locale(name: str | None) -> bool:
    """zh_TW, zh_HK, zh_MO (any separator or encoding suffix) and the Hant script are 繁體."""
    if not name:
        return False
    n = name.split(".")[0].split("@")[0].replace("-", "_")
    parts = n.split("_")
    if parts[0].lower() != "zh":
        return False
    return any(p.upper() in _HANT_REGIONS or p.lower() == "hant" for p in parts[1:])


def language_from_env(environ=None) -> str:
    """The language POSIX would pick for messages: LC_ALL, then LC_MESSAGES, then LANG."""
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if value:
            return TRADITIONAL if is_traditional_locale(value) else SIMPLIFIED
    return SIMPLIFIED


def normalize(lang: str | None) -> str:
    return TRADITIONAL if lang == TRADITIONAL or is_traditional_locale(lang) else SIMPLIFIED


def set_language(lang: str | None) -> str:
    """Fix the language for this process (the GUI's choice); None follows the environment again."""
    global _current
    _current = None if lang is None else normalize(lang)
    return language()


def language() -> str:
    """The language set for this process, else the one the environment asks for."""
    return _current if _current is not None else language_from_env()


@lru_cache(maxsize=1)
def _converter():
    import opencc
    return opencc.OpenCC(OPENCC_CONFIG)


def to_traditional(text: str) -> str:
    """s2twp and the reviewed Taiwan phrases, on text known to be our own words."""
    if text in TW_WHOLE:
        return TW_WHOLE[text]
    out, pos = [], 0
    for m in _phrase_rx().finditer(text):
        out.append(_converter().convert(text[pos:m.start()]))
        out.append(TW_PHRASES[m.group(0)])
        pos = m.end()
    out.append(_converter().convert(text[pos:]))
    return "".join(out)


@lru_cache(maxsize=1)
def _phrase_rx():
    return re.compile("|".join(re.escape(p) for p in sorted(TW_PHRASES, key=len, reverse=True)))


def protected_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` quotes or names the corpus (「…」 『…』 《…》, however nested) or gives a path."""
    spans, i = [], 0
    while i < len(text):
        ch = text[i]
        if ch in _OPEN_CLOSE:
            stack, j = [_OPEN_CLOSE[ch]], i + 1
            while j < len(text) and stack:
                if text[j] in _OPEN_CLOSE:
                    stack.append(_OPEN_CLOSE[text[j]])
                elif text[j] == stack[-1]:
                    stack.pop()
                j += 1
            spans.append((i, j))         # an unclosed quotation is protected to the end
            i = j
            continue
        drive = ch.isascii() and ch.isalpha() and text[i + 1:i + 2] == ":"
        m = _PATH.match(text, i) if ch in "/\\" or drive else None
        if m and m.end() > i + 1:
            spans.append((i, m.end()))
            i = m.end()
            continue
        i += 1
    return spans


def localize(text: str, lang: str | None = None) -> str:
    """Our own 简体 prose in the interface language; quotations, titles and paths stay as written."""
    if not text or normalize(lang or language()) != TRADITIONAL:
        return text
    out, pos = [], 0
    for a, b in protected_spans(text):
        out.append(to_traditional(text[pos:a]))
        out.append(text[a:b])
        pos = b
    out.append(to_traditional(text[pos:]))
    return "".join(out)
