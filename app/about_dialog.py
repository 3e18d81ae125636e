"""帮助 → 关于: what the app is, what it is for and not for, whose texts it quotes, and on what terms.

The scope statement names the same kinds the scope gate refuses
(resources/scope/rules.json), so what 关于 promises and what the app does
cannot drift apart; the CBETA edition and licence come from the pack's
manifest, i.e. from the texts actually installed.
"""
from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

from nanshan_core import __version__
from nanshan_core.errors import NanshanError
from nanshan_core.paths import load_resource_json

from .answer_html import esc
from .theme import Palette

APP_NAME = "南山问律"
PURPOSE = ("离线研读律典的工具：以《四分律》为中心，兼收四律五论，以及道宣律师的南山三大部与元照律师的诸记，"
           "都依 CBETA 所收原文。用白话提问，程序按律本、道宣、元照三层列出原文，"
           "每处引文都回到原文逐字核对，并附坐标。")
COVERS = "戒相、戒体、羯磨、僧制与律史。"
DISCLAIMER = ("本程序只引述、检索典籍原文，不对任何人的行为作出裁定：某人、某寺是否持戒、是否如法，"
              "须了解实际情形，并请教有德行、通律学的师长，不是引文本身所能断定的。")
# What the scope gate refuses, by kind, when the rules file cannot be read.
FALLBACK_KINDS = ["编造或改写引文", "评判具体寺院或个人", "医疗建议", "法律与税务建议", "理财与投资建议",
                  "律学以外的教理与玄学", "占卜算命"]


def refused_kinds() -> list[str]:
    """The labels of the kinds the scope gate turns away, in the rules file's order."""
    try:
        kinds = load_resource_json("scope/rules.json")["kinds"]
        return [k["label"] for k in kinds.values() if k.get("label")] or FALLBACK_KINDS
    except (NanshanError, KeyError, TypeError, AttributeError):
        return FALLBACK_KINDS


def about_html(manifest: dict, pack_path: str, pal: Palette) -> str:
    cb = manifest.get("cbeta", {}) if isinstance(manifest, dict) else {}
    distributor = cb.get("distributor", "CBETA")
    edition = cb.get("edition", "")
    licence = cb.get("licence", "")
    kinds = "；".join(refused_kinds())
    para = 'style="margin-top:0px; margin-bottom:8px;"'
    return (f'<p style="margin-top:0px; margin-bottom:2px; font-size:x-large;"><b>{APP_NAME}</b></p>'
            f'<p {para}><span style="color:{pal.muted};">版本 {esc(__version__)}</span></p>'
            f'<p {para}>{esc(PURPOSE)}</p>'
            f'<p style="margin-top:10px; margin-bottom:2px;"><b>范围</b></p>'
            f'<p {para}>只回答律学问题：{esc(COVERS)}不做这些事：{esc(kinds)}。'
            f'遇到这类问题，程序说明不作回答，并指出可以怎样就律典本身提问。</p>'
            f'<p style="margin-top:10px; margin-bottom:2px;"><b>声明</b></p>'
            f'<p {para}>{esc(DISCLAIMER)}</p>'
            f'<p style="margin-top:10px; margin-bottom:2px;"><b>原文与授权</b></p>'
            f'<p {para}>原文出自 {esc(distributor)}'
            + (f'：{esc(edition)}' if edition else "") + '。'
            + (f'<br/>{esc(licence)}' if licence else "") + '</p>'
            f'<p style="margin-top:10px; color:{pal.muted};"><small>语料包：{esc(pack_path)}</small></p>')


class AboutDialog(QDialog):
    """A plain dialog (Esc closes it, as every QDialog) whose text can be selected and copied."""

    def __init__(self, manifest: dict, pack_path: str, pal: Palette, parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"关于{APP_NAME}")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)     # opened anew each time
        self.resize(600, 520)
        self.text = QTextBrowser()
        self.text.setObjectName("aboutText")
        self.text.setOpenLinks(False)
        self.text.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.text.setHtml(about_html(manifest, pack_path, pal))
        buttons = QDialogButtonBox()
        close = buttons.addButton("关闭", QDialogButtonBox.ButtonRole.RejectRole)
        close.setDefault(True)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.text, 1)
        lay.addWidget(buttons)

    def plain_text(self) -> str:
        return self.text.toPlainText()
