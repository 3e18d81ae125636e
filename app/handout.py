"""The current answer as a class handout: HTML, and PDF printed from the same HTML.

A handout is read on paper, away from the app, so every quotation carries
its coordinate spelled out in full — canonical, CBETA's citation form and the
printed volume/page/register/line — together with its verification level.
Nothing here decides a coordinate: all come from the engine's verification.
"""
from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QMarginsF
from PySide6.QtGui import QPageLayout, QPageSize, QPdfWriter, QTextDocument

from nanshan_core.ask.retrieve import LAYERS, OTHER
from nanshan_core.i18n import TRADITIONAL, language, localize

from . import answer_html as ah
from .citations import LAYER_TITLES, LEVEL_LABELS, cbeta_ref, human, label
from .theme import palette

PRINT = palette("standard")
PDF_DPI = 300
translate = QCoreApplication.translate


def _where(c, materials: dict) -> str:
    m = materials.get(c.material)
    src = f"《{ah.esc(m.title)}》卷{m.juan}" if m else ""
    level = label(LEVEL_LABELS, c.level)
    if not c.coord:
        return f'{src}　<span style="color:{PRINT.unverified};"><b>{level}</b></span>'
    parts = [f"<b>{c.coord}</b>", f"({ah.esc(cbeta_ref(c.coord))})", ah.esc(human(c.coord))]
    if c.level == "paragraph":
        parts.append(translate("handout", "（段级：该段起始行）"))
    return f"{src}　" + "　".join(parts) + f"　〔{level}〕"


def _answer_block(result, forms: dict) -> str:
    out = []
    for part in ah.answer_parts(result.answer.text, result.answer.citations):
        if isinstance(part, ah.Cite):
            c = part.citation
            level = label(LEVEL_LABELS, c.level)
            tail = f"〔{c.coord}（{ah.esc(cbeta_ref(c.coord))}）· {level}〕" if c.coord else f"〔{level}〕"
            if c.corrected_from:
                tail = translate("handout", "（原写材料{n}，核验时更正）").format(n=c.corrected_from) + tail
            mat = translate("handout", "（材料{n}）").format(n=c.material)
            out.append(f"「{ah.text_html(c.quote, forms, PRINT)}」{mat}<small>{tail}</small>")
        else:
            out.append(ah.esc(part if result.model else localize(part)))
    lines = []
    for line in "".join(out).split("\n"):
        if line.startswith("【"):
            lines.append(f"<h3>{line}</h3>")
        elif line.strip():
            lines.append(f"<p>{line}</p>")
    return "\n".join(lines)


def _layer_block(result, layer: str, forms: dict, materials: dict) -> str:
    cits = result.answer.panes.get(layer, [])
    if not cits:
        none = translate("handout", "（本层没有材料）")
        return f"<h3>{label(LAYER_TITLES, layer)}</h3><p>{none}</p>"
    items = "".join(f"<li><p>「{ah.text_html(c.quote, forms, PRINT)}」<br/><small>{_where(c, materials)}</small></p></li>"
                    for c in cits)
    return f"<h3>{label(LAYER_TITLES, layer)}</h3><ol>{items}</ol>"


def handout_html(result, session) -> str:
    """A self-contained HTML page (UTF-8) for the answer of ``result``."""
    if result.refused or result.answer is None:
        raise ValueError("a refused question has no answer to hand out")
    cbeta = session.pack.manifest.get("cbeta", {})
    materials = {m.n: m for m in result.materials}
    sel = result.selection
    body = [
        translate("handout", "<h1>南山问律 · 讲义</h1>"),
        translate("handout", "<p><b>问题：</b>{question}</p>").format(question=ah.esc(result.question)),
        translate("handout", "<p><b>类别：</b>{category}　<b>检索用语：</b>{terms}</p>").format(
            category=ah.esc(localize(sel.category)), terms=ah.esc(ah.terms_text(sel))),
        translate("handout", "<h2>答案</h2>"),
        _answer_block(result, session.forms),
        translate("handout", "<h2>三层引文与出处</h2>"),
        *(_layer_block(result, layer, session.forms, materials) for layer in LAYERS),
        *([_layer_block(result, OTHER, session.forms, materials)] if result.answer.panes.get(OTHER) else []),
        "<hr/>",
        translate("handout", "<p><small>坐标说明：行级＝引文第一个字所在的印本行；段级＝只能定位到该段起始行；"
                  "「此处出处未通过核验」＝未能在材料中找到该句，保留原句但不给出处。"
                  "坐标形如 T40n1805_p0345b14＝大正藏第40冊 No.1805 第345頁 中欄 第14行。</small></p>"),
        translate("handout", "<p><small>原文出自 {distributor}（{edition}）。{licence}"
                  "　由南山问律生成于 {time}。</small></p>").format(
            distributor=ah.esc(cbeta.get('distributor', 'CBETA')), edition=ah.esc(cbeta.get('edition', '')),
            licence=ah.esc(cbeta.get('licence', '')), time=time.strftime('%Y-%m-%d %H:%M')),
    ]
    style = ("body { font-family: 'Noto Serif CJK TC', 'Noto Sans CJK SC', serif; line-height: 1.5; }"
             "h1 { font-size: 18pt; } h2 { font-size: 14pt; margin-top: 14pt; } h3 { font-size: 12pt; }")
    lang = "zh-Hant" if language() == TRADITIONAL else "zh-Hans"
    title = translate("handout", "南山问律讲义：{question}").format(question=ah.esc(result.question))
    return (f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\"/>"
            f"<title>{title}</title><style>{style}</style></head>"
            "<body>\n" + "\n".join(body) + "\n</body></html>\n")


def export_html(result, session, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(handout_html(result, session), encoding="utf-8")
    return path


def handout_document(result, session, fonts) -> QTextDocument:
    doc = QTextDocument()
    doc.setDefaultFont(fonts.text_font(11))
    doc.setHtml(handout_html(result, session))
    return doc


def export_pdf(result, session, path: str | Path, fonts) -> Path:
    """Print the handout to an A4 PDF.  Runs in a worker thread: every Qt object made here
    (document, writer) also ends here, so nothing crosses threads but the path."""
    path = Path(path)
    doc = handout_document(result, session, fonts)
    writer = QPdfWriter(str(path))
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(18, 18, 18, 18), QPageLayout.Unit.Millimeter))
    writer.setTitle(translate("handout", "南山问律讲义：{question}").format(question=result.question))
    writer.setCreator(translate("handout", "南山问律"))
    doc.print_(writer)
    del writer            # the file is complete only once the writer is gone
    return path
