"""The answer and the material cards as rich text for QTextBrowser.

Rich text, not a widget per card: a pane of twenty cards is one document
that scrolls, searches, selects and scales as one, and ``scrollToAnchor``
moves to a card.  Everything a reader must be able to check stays visible on
the card itself: the work and fascicle, the coordinate (a link to the
reader), where the material came from (检索 / 线索 / 注释对应), the query
terms highlighted, the sentence the pane quotes marked, and the verification
level of that quote — 行级, 段级, or 「此处出处未通过核验」 in red.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from nanshan_core.ask.bridge import SURE_CONFIDENCE
from nanshan_core.ask.draft import SET_ASIDE_NOTICE
from nanshan_core.ask.verify import UNVERIFIED_NOTE
from nanshan_core.feedback import KINDS as FEEDBACK_KINDS
from nanshan_core.i18n import TRADITIONAL, localize

from .citations import LEVEL_LABELS, MATERIAL_SOURCE_LABELS, SOURCE_LABELS, href, label as _label
from .theme import Palette

_BARE_REF = re.compile(r"[（(]\s*材料\s*(\d+)\s*[)）]")
# after a quote: (材料N), or step D's correction of it (材料N，原标材料M), then perhaps D's
# 〔此处出处未通过核验〕 — all said again by the rendered citation, so consumed with it
_REF_AFTER = re.compile(r"\s*[（(]\s*材料\s*(\d+)\s*(?:[，,]\s*原标材料\s*\d+\s*)?[)）]")
_UNVERIFIED_AFTER = re.compile(r"\s*〔" + re.escape(UNVERIFIED_NOTE) + "〕")
_ELLIPSIS = re.compile(r"…+|\.{3,}|⋯+")

TERM, QUOTE = 1, 2
translate = QCoreApplication.translate


def esc(s: str) -> str:
    return html.escape(s, quote=False)


def attr(s: str) -> str:
    return html.escape(s, quote=True)


def text_html(text: str, forms: dict, pal: Palette) -> str:
    """Escaped corpus text; rare characters get their display form (never a box) and a tooltip."""
    if not forms or not any(ch in forms for ch in text):
        return esc(text)
    out = []
    for ch in text:
        g = forms.get(ch)
        if g is None:
            out.append(esc(ch))
        else:
            style = f"color:{pal.rare_fg};" + ("font-size:small;" if g.composed else "")
            out.append(f'<span style="{style}" title="{attr(g.tooltip)}">{esc(g.form)}</span>')
    return "".join(out)


# -- marking terms and the quoted sentence -------------------------------------------------

def term_spans(text: str, terms: list[str], fold, fold_query) -> list[tuple[int, int]]:
    """Where the chosen terms occur, matched as the index matches them (folded), shown as written."""
    folded = fold(text)
    spans = []
    for t in terms:
        f = fold_query(t)
        if not f:
            continue
        start = folded.find(f)
        while start != -1:
            spans.append((start, start + len(f)))
            start = folded.find(f, start + 1)
    return spans


def quote_spans(quote: str, text: str, offset: int | None) -> list[tuple[int, int]]:
    """The characters of ``text`` a verified quote stands for (spaces and elisions allowed)."""
    q = "".join((quote or "").split())
    if offset is None or not q:
        return []
    spans = []
    pos = offset
    for part in (p for p in _ELLIPSIS.split(q) if p):
        rx = re.compile(r"\s*".join(re.escape(ch) for ch in part))
        m = rx.search(text, pos)
        if m is None:
            break
        spans.append((m.start(), m.end()))
        pos = m.end()
    return spans


def marked_html(text: str, terms: list[tuple[int, int]], quotes: list[tuple[int, int]],
                forms: dict, pal: Palette, seams: list[int] = ()) -> str:
    """The text with its terms and verified quotes marked; at each seam (a combined edition's
    material reading its layer on over the other layer's paragraphs) a muted 〔中略〕 says that
    the page has other text between."""
    if seams:
        cuts = [0, *seams, len(text)]
        omitted = translate("answer_html", "〔中略〕")
        gap = f'<span style="color:{pal.muted};">{esc(omitted)}</span>'
        return gap.join(marked_html(text[a:b], _shifted(terms, a, b), _shifted(quotes, a, b), forms, pal)
                        for a, b in zip(cuts, cuts[1:]))
    flags = [0] * len(text)
    for a, b in terms:
        for i in range(a, min(b, len(text))):
            flags[i] |= TERM
    for a, b in quotes:
        for i in range(a, min(b, len(text))):
            flags[i] |= QUOTE
    out = []
    i = 0
    while i < len(text):
        j = i
        while j < len(text) and flags[j] == flags[i]:
            j += 1
        out.append(_run(text[i:j], flags[i], forms, pal))
        i = j
    return "".join(out)


def _shifted(spans: list[tuple[int, int]], a: int, b: int) -> list[tuple[int, int]]:
    """Spans cut to [a, b) and counted from a."""
    return [(max(x, a) - a, min(y, b) - a) for x, y in spans if x < b and y > a]


def _run(s: str, flag: int, forms: dict, pal: Palette) -> str:
    body = text_html(s, forms, pal)
    styles = []
    if flag & QUOTE:
        styles.append(f"background-color:{pal.quote_bg}; text-decoration: underline; "
                      f"text-decoration-color:{pal.quote_line};")
    if flag & TERM:
        styles.append(f"background-color:{pal.term_bg}; color:{pal.term_fg}; font-weight:bold;")
    if not styles:
        return body
    return f'<span style="{" ".join(styles)}">{body}</span>'


# -- the answer text -----------------------------------------------------------------------

@dataclass
class Cite:
    citation: object
    n_written: int | None     # the material number the answer text wrote


def answer_parts(text: str, citations: list) -> list:
    """The answer split into plain strings and Cite parts, in order.

    A quote is matched with the citation verification made of it, so the
    coordinate shown beside it is the one code computed, and a corrected
    material number is visible as such.  In a model's answer step D has also
    written its findings into the text (「…」(材料5，原标材料2), 「…」(材料3)〔此处
    出处未通过核验〕); the Cite part says the same, so those marks are taken
    with it rather than shown twice.
    """
    parts: list = []
    pos = 0
    for c in citations:
        if not c.quote:
            continue
        key = f"「{c.quote}」"
        at = text.find(key, pos)
        if at == -1:
            continue
        end = at + len(key)
        m = _REF_AFTER.match(text, end)
        n_written = int(m.group(1)) if m else None
        if m:
            end = m.end()
        if c.level == "unverified":
            u = _UNVERIFIED_AFTER.match(text, end)
            if u:
                end = u.end()
        if at > pos:
            parts.append(text[pos:at])
        parts.append(Cite(c, n_written))
        pos = end
    if pos < len(text):
        parts.append(text[pos:])
    return parts


def level_html(c, pal: Palette) -> str:
    color = {"line": pal.ok, "paragraph": pal.paragraph}.get(c.level, pal.unverified)
    return f'<span style="color:{color}; font-weight:bold;">〔{_label(LEVEL_LABELS, c.level)}〕</span>'


def coord_link(coord: str, pal: Palette) -> str:
    return f'<a href="{attr(href("coord", coord))}" style="color:{pal.link};">{esc(coord)}</a>'


def mat_link(n: int, pal: Palette) -> str:
    text = translate("answer_html", "材料{n}").format(n=n)
    return f'<a href="{href("mat", n)}" style="color:{pal.link};">{text}</a>'


def _plain_html(s: str, pal: Palette) -> str:
    out, pos = [], 0
    for m in _BARE_REF.finditer(s):
        out.append(esc(s[pos:m.start()]))
        out.append(f"（{mat_link(int(m.group(1)), pal)}）")
        pos = m.end()
    out.append(esc(s[pos:]))
    return "".join(out)


def cite_html(part: Cite, forms: dict, pal: Palette, copy_index: int | None = None) -> str:
    c = part.citation
    quote = f"「{text_html(c.quote, forms, pal)}」"
    if c.level == "unverified":
        quote = f'<span style="color:{pal.unverified};">{quote}</span>'
    bits = [quote]
    if c.material is not None:
        bits.append(f"（{mat_link(c.material, pal)}）")
    if c.corrected_from:
        note = translate("answer_html", "（原写材料{n}，核验时更正）").format(n=c.corrected_from)
        bits.append(f'<small style="color:{pal.muted};">{note}</small>')
    if c.coord:
        bits.append(" " + coord_link(c.coord, pal))
    bits.append(" " + level_html(c, pal))
    if copy_index is not None:
        copy = translate("answer_html", "复制引文")
        bits.append(f' <a href="{href("copyanswer", copy_index)}" style="color:{pal.muted};"><small>{copy}</small></a>')
        bits.append(" " + feedback_links("quote", copy_index, pal))
    return "".join(bits)


def feedback_links(target: str, index: int, pal: Palette) -> str:
    """有帮助 / 不相关 / 出处有误 on a quote or a card: small, muted and not underlined, so the
    text and its coordinate stay first; a click records the mark at once (app/feedback.py)."""
    tip = (translate("answer_html", "把这条引文标为「{label}」（只记在本机）") if target == "quote"
           else translate("answer_html", "把这张卡片标为「{label}」（只记在本机）"))
    labels = {kind: localize(label) for kind, label in FEEDBACK_KINDS.items()}     # the store's words
    links = f'<span style="color:{pal.muted};">·</span>'.join(
        f'<a href="{href("fb", f"{kind}/{target}/{index}")}" title="{attr(tip.format(label=label))}"'
        f' style="color:{pal.muted}; text-decoration:none;">{esc(label)}</a>' for kind, label in labels.items())
    return f'<small>{links}</small>'



def topics_html(selection, pal: Palette) -> str:
    """What the question was taken to be about, or — when no topic was clear — that the app could
    not tell, with the closest topics as links that ask again about the one chosen."""
    sure = (selection.confidence or 0) >= SURE_CONFIDENCE
    if selection.topics and (sure or selection.scope is not None):
        how = (translate("answer_html", "依义推及") if selection.scope is not None and selection.scope.outcome == "silent"
               else translate("answer_html", "所问主题"))
        names = "、".join(esc(m.topic.label()) for m in selection.topics)
        return f'<p style="margin-top:2px; margin-bottom:4px; color:{pal.muted};"><small>{how}：{names}</small></p>'
    if selection.confidence is None:
        return ""
    links = "　".join(f'<a href="{href("topic", m.topic.id)}">{esc(m.topic.label())}</a>'
                     for m in selection.suggestions)
    body = (translate("answer_html", "未能确定此问对应律中的哪一条，以下材料按检索用语找到，未必切题。")
            + (translate("answer_html", "您是否想问：{links}").format(links=links) if links
               else translate("answer_html", "可以换个说法，或直接写出戒名、事名（如「非時食戒」「安居」）。")))
    return (f'<p style="margin-top:2px; margin-bottom:6px; padding:4px; background:{pal.quote_bg};">'
            f'{body}</p>')


def answer_html(result, forms: dict, pal: Palette, show_draft: bool = False) -> str:
    """The answer text, line by line; headings bold, every quote with its checked coordinate."""
    return topics_html(result.selection, pal) + set_aside_html(result, pal, show_draft) + _answer_body(result, forms, pal)


def set_aside_html(result, pal: Palette, show_draft: bool) -> str:
    """A model draft that did not earn its place: one line saying so, the draft behind a disclosure.

    The draft is shown as plain grey text under a heading that says it was not used: no
    link, no coordinate, nothing in it can be copied as a citation or exported.
    """
    model = result.model or {}
    reason = model.get("set_aside")
    if model.get("cached"):
        checked = esc(translate("answer_html", "引文已按当前语料包重新核验"))
        regen = esc(translate("answer_html", "重新生成"))
        return (f'<p style="margin-top:4px; margin-bottom:4px; color:{pal.muted};">'
                f'{esc(localize(model["cached"]["label"]))}'
                f'　<small>{checked}</small>　<a href="{href("regen", "1")}">{regen}</a></p>')
    if not reason:
        return ""
    toggle = translate("answer_html", "隐藏模型草稿 ▾") if show_draft else translate("answer_html", "查看模型草稿 ▸")
    out = (f'<p style="margin-top:4px; margin-bottom:4px; padding:4px; background:{pal.target_bg}; color:{pal.text};">'
           f'<b>{esc(localize(SET_ASIDE_NOTICE))}</b>　<small>{esc(localize(reason))}。</small>　'
           f'<a href="{href("draft", "toggle")}">{esc(toggle)}</a></p>')
    if show_draft:
        body = "<br/>".join(esc(line) for line in (model.get("draft") or "").split("\n"))
        out += (f'<div style="margin-left:12px; color:{pal.muted};"><p style="margin-bottom:2px;">'
                f'<b>{esc(translate("answer_html", DRAFT_HEAD))}</b></p><p style="margin-top:0px;">{body}</p></div>')
    return out


DRAFT_HEAD = QT_TRANSLATE_NOOP("answer_html", "模型草稿（未采用：未经核验，不能引用，也不会导出）")


def _answer_body(result, forms: dict, pal: Palette) -> str:
    a = result.answer
    parts = answer_parts(a.text, a.citations)
    # the engine's own words, also under a set-aside draft (the extractive answer stands); a model's
    # answer is its own and stays as written
    if not result.model or result.model.get("set_aside"):
        parts = [p if isinstance(p, Cite) else localize(p) for p in parts]
    cite_index = {id(c): i for i, c in enumerate(a.citations)}
    pieces = []
    for part in parts:
        if isinstance(part, Cite):
            pieces.append(cite_html(part, forms, pal, cite_index.get(id(part.citation))))
        else:
            pieces.append(_plain_html(part, pal))
    body = "".join(pieces)
    lines = []
    for line in body.split("\n"):
        head, close, rest = line.partition("】")
        if line.startswith("【") and close and rest.strip():
            # a model may run on after its heading on the same line: only the heading is bold
            lines.append(f'<p style="margin-top:8px; margin-bottom:3px;"><b>{head}{close}</b>{rest}</p>')
        elif line.startswith(SCOPE_LEADS):
            lines.append(scope_html(html.unescape(re.sub(r"<[^>]+>", "", line)), pal))
        elif line.startswith("【"):
            lines.append(f'<p style="margin-top:8px; margin-bottom:2px;"><b>{line}</b></p>')
        elif line.strip():
            lines.append(f'<p style="margin-top:0px; margin-bottom:3px;">{line}</p>')
    notes = [n for n in result.notes if not n.startswith(SET_ASIDE_NOTICE)]   # said at the top already
    lines += [f'<p style="color:{pal.muted};">{esc(localize(n))}</p>' for n in notes]
    return "".join(lines)


def refusal_html(result, pal: Palette) -> str:
    """A refusal is an answer too: said plainly, with the way forward as a question to click."""
    refusal = result.selection.refusal
    no_answer = translate("answer_html", "此问不作回答。")
    html_ = (f'<div style="margin-top:6px; padding:6px; border-left:4px solid {pal.unverified};">'
             f'<p style="margin-top:0px;"><b>{no_answer}</b></p>'
             f'<p style="color:{pal.text};">{esc(localize(refusal.reply))}</p>')
    if getattr(refusal, "suggestion", None):
        link = f'<a href="{href("ask", refusal.suggestion)}">{esc(localize(refusal.suggestion))}</a>'
        ask = translate("answer_html", "可以这样问：{link}").format(link=link)
        html_ += f'<p>{ask}</p>'
    return html_ + "</div>"


SCOPE_LEADS = ("律典对此无明文", "【范围说明】")
SCOPE_LEADS += tuple(localize(s, TRADITIONAL) for s in SCOPE_LEADS)     # as the answer shows them in 繁體


def scope_html(line: str, pal: Palette) -> str:
    """The first line of an answer to a silent topic or a two-part question, set apart."""
    return (f'<p style="margin-top:4px; margin-bottom:6px; padding:4px; background:{pal.target_bg};'
            f' color:{pal.text};"><b>{esc(line)}</b></p>')


PROVISIONAL_HEAD = QT_TRANSLATE_NOOP("answer_html", "模型生成中（未核验）…")
PROVISIONAL_NOTE = QT_TRANSLATE_NOOP("answer_html", "以下是模型正在写的草稿：引文与出处都还没有核验，不能引用，也不会导出。"
                                     "写完后由程序核验过的答案替换。")


def provisional_html(text: str, pal: Palette) -> str:
    """A model's answer while it is being written: grey, headed as unverified, no links at all.

    Nothing in it is a link (no coordinate, no material, no 复制引文): until step D has
    checked it, nothing in it may be followed, copied as a citation or exported.  The
    streamed text is appended to the last paragraph by the pane as it arrives.
    """
    head = (f'<p style="margin-top:4px; margin-bottom:2px; color:{pal.muted};">'
            f'<b>{esc(translate("answer_html", PROVISIONAL_HEAD))}</b></p>'
            f'<p style="margin-top:0px; margin-bottom:6px; color:{pal.muted};">'
            f'<small>{esc(translate("answer_html", PROVISIONAL_NOTE))}</small></p>')
    body = "<br/>".join(esc(line) for line in text.split("\n"))
    return head + f'<p style="color:{pal.muted};">{body}</p>'


def message_html(text: str, pal: Palette, muted: bool = True) -> str:
    return f'<p style="color:{pal.muted if muted else pal.text};">{esc(text)}</p>'


# -- the cards -----------------------------------------------------------------------------

def card_html(m, cits: list, terms: list[str], fold, fold_query, forms: dict, pal: Palette,
              focused: bool = False) -> str:
    tspans = term_spans(m.text, terms, fold, fold_query)
    qspans = [s for c in cits if c.level == "line" for s in quote_spans(c.quote, m.text, c.offset)]
    border = pal.focus_border if focused else pal.card_border
    width = 3 if focused else 1
    source = _label(MATERIAL_SOURCE_LABELS, m.source)
    source_color = {"clue": pal.clue, "link": pal.link_source}.get(m.source, pal.muted)
    group = getattr(m, "group", "")     # a work outside the three layers says which group it is
    head = (f'<b>[{m.n}]</b> 《{esc(m.title)}》卷{m.juan}　{coord_link(m.start_coord, pal)}'
            f'　<span style="color:{source_color}; font-weight:bold;">{source}</span>'
            + (f'　<span style="color:{pal.muted};">〔{esc(group)}〕</span>' if group else ""))
    verdicts = [_verdict_html(m.n, k, c, forms, pal) for k, c in enumerate(cits)]
    if not verdicts:
        unquoted = translate("answer_html", "本材料未被引用")
        verdicts = [f'<span style="color:{pal.muted};">{unquoted}</span>']
    fb = translate("answer_html", "反馈：")
    verdicts.append(f'<span style="color:{pal.muted};"><small>{fb}</small></span>' + feedback_links("card", m.n, pal))
    return (f'<a name="m{m.n}"></a>'
            f'<table width="100%" cellspacing="0" cellpadding="8" bgcolor="{pal.card_bg}" '
            f'style="border-style:solid; border-width:{width}px; border-color:{border}; margin-bottom:10px;">'
            f'<tr><td>'
            f'<p style="margin:0px;">{head}</p>'
            f'<p style="margin-top:6px; margin-bottom:6px;">{marked_html(m.text, tspans, qspans, forms, pal, getattr(m, "seams", ()))}</p>'
            + "".join(f'<p style="margin:0px;">{v}</p>' for v in verdicts) +
            '</td></tr></table>')


def _verdict_html(n: int, k: int, c, forms: dict, pal: Palette) -> str:
    copy_text = translate("answer_html", "复制引文")
    copy = f'<a href="{href("copy", f"{n}.{k}")}" style="color:{pal.link};">{copy_text}</a>'
    quoted = translate("answer_html", "引文")
    if c.level == "line":
        return f"{quoted} {level_html(c, pal)} {coord_link(c.coord, pal)}　{copy}"
    if c.level == "paragraph":
        start = translate("answer_html", "（该段起始行）")
        return f"{quoted} {level_html(c, pal)} {coord_link(c.coord, pal)}{start}　{copy}"
    return (f'<span style="color:{pal.unverified}; font-weight:bold;">{_label(LEVEL_LABELS, "unverified")}</span>：'
            f'<span style="color:{pal.unverified};">「{text_html(c.quote, forms, pal)}」</span>　{copy}')


def pane_html(materials: list, citations: list, terms: list[str], fold, fold_query, forms: dict,
              pal: Palette, focus: int | None = None) -> str:
    if not materials:
        none = translate("answer_html", "本层没有检索到材料。")
        return f'<p style="color:{pal.muted};">{none}</p>'
    by_material: dict[int, list] = {}
    for c in citations:
        by_material.setdefault(c.material, []).append(c)
    return "".join(card_html(m, by_material.get(m.n, []), terms, fold, fold_query, forms, pal, m.n == focus)
                   for m in materials)


def terms_text(selection) -> str:
    return "、".join(f"{t.text}（{_label(SOURCE_LABELS, t.source)}）" for t in selection.terms)
