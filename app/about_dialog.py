"""帮助 → 关于: what the app is, what it is for and not for, whose texts it quotes, and on what terms.

The scope statement names the same kinds the scope gate refuses
(resources/scope/rules.json), so what 关于 promises and what the app does
cannot drift apart; the CBETA edition and licence come from the pack's
manifest, i.e. from the texts actually installed.

Our paragraphs go through the translator; the refused kinds are the rules
file's labels, localized like every other word of the engine.  The dialog
draws itself again on a language switch while it is open.
"""
from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

from nanshan_core import __version__
from nanshan_core.errors import NanshanError
from nanshan_core.i18n import localize
from nanshan_core.paths import load_resource_json

from .answer_html import esc
from .theme import Palette

CONTEXT = "AboutDialog"
APP_NAME = QT_TRANSLATE_NOOP("AboutDialog", "南山问律")
PURPOSE = QT_TRANSLATE_NOOP("AboutDialog", "离线研读律典的工具：以《四分律》为中心，兼收四律五论，"
                            "以及道宣律师的南山三大部与元照律师的诸记，都依 CBETA 所收原文。"
                            "用白话提问，程序按律本、道宣、元照三层列出原文，每处引文都回到原文逐字核对，并附坐标。")
COVERS = QT_TRANSLATE_NOOP("AboutDialog", "戒相、戒体、羯磨、僧制与律史。")
DISCLAIMER = QT_TRANSLATE_NOOP("AboutDialog", "本程序只引述、检索典籍原文，不对任何人的行为作出裁定："
                               "某人、某寺是否持戒、是否如法，须了解实际情形，并请教有德行、通律学的师长，"
                               "不是引文本身所能断定的。")
# What the scope gate refuses, by kind, when the rules file cannot be read.
FALLBACK_KINDS = [QT_TRANSLATE_NOOP("AboutDialog", "编造或改写引文"), QT_TRANSLATE_NOOP("AboutDialog", "评判具体寺院或个人"),
                  QT_TRANSLATE_NOOP("AboutDialog", "医疗建议"), QT_TRANSLATE_NOOP("AboutDialog", "法律与税务建议"),
                  QT_TRANSLATE_NOOP("AboutDialog", "理财与投资建议"),
                  QT_TRANSLATE_NOOP("AboutDialog", "律学以外的教理与玄学"), QT_TRANSLATE_NOOP("AboutDialog", "占卜算命")]


translate = QCoreApplication.translate


def _tr(text: str) -> str:
    """A string marked above, in the interface language."""
    return translate(CONTEXT, text)


def refused_kinds() -> list[str]:
    """The labels of the kinds the scope gate turns away, in the rules file's order and the interface language."""
    try:
        kinds = load_resource_json("scope/rules.json")["kinds"]
        labels = [localize(k["label"]) for k in kinds.values() if k.get("label")]
    except (NanshanError, KeyError, TypeError, AttributeError):
        labels = []
    return labels or [_tr(k) for k in FALLBACK_KINDS]


def about_html(manifest: dict, pack_path: str, pal: Palette) -> str:
    cb = manifest.get("cbeta", {}) if isinstance(manifest, dict) else {}
    distributor = cb.get("distributor", "CBETA")
    edition = cb.get("edition", "")
    licence = cb.get("licence", "")
    kinds = "；".join(refused_kinds())
    para = 'style="margin-top:0px; margin-bottom:8px;"'
    head = 'style="margin-top:10px; margin-bottom:2px;"'
    version = translate("AboutDialog", "版本 {version}").format(version=__version__)
    scope = translate("AboutDialog", "只回答律学问题：{covers}不做这些事：{kinds}。"
                      "遇到这类问题，程序说明不作回答，并指出可以怎样就律典本身提问。").format(covers=_tr(COVERS), kinds=kinds)
    source = (translate("AboutDialog", "原文出自 {distributor}：{edition}。") if edition
              else translate("AboutDialog", "原文出自 {distributor}。")).format(distributor=distributor, edition=edition)
    pack = translate("AboutDialog", "语料包：{path}").format(path=pack_path)
    scope_head, notice_head = translate("AboutDialog", "范围"), translate("AboutDialog", "声明")
    source_head = translate("AboutDialog", "原文与授权")
    return (f'<p style="margin-top:0px; margin-bottom:2px; font-size:x-large;"><b>{esc(_tr(APP_NAME))}</b></p>'
            f'<p {para}><span style="color:{pal.muted};">{esc(version)}</span></p>'
            f'<p {para}>{esc(_tr(PURPOSE))}</p>'
            f'<p {head}><b>{esc(scope_head)}</b></p>'
            f'<p {para}>{esc(scope)}</p>'
            f'<p {head}><b>{esc(notice_head)}</b></p>'
            f'<p {para}>{esc(_tr(DISCLAIMER))}</p>'
            f'<p {head}><b>{esc(source_head)}</b></p>'
            f'<p {para}>{esc(source)}' + (f'<br/>{esc(licence)}' if licence else "") + '</p>'
            f'<p style="margin-top:10px; color:{pal.muted};"><small>{esc(pack)}</small></p>')


class AboutDialog(QDialog):
    """A plain dialog (Esc closes it, as every QDialog) whose text can be selected and copied."""

    def __init__(self, manifest: dict, pack_path: str, pal: Palette, parent=None):
        super().__init__(parent)
        self.manifest, self.pack_path, self.pal = manifest, pack_path, pal
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)     # opened anew each time
        self.resize(600, 520)
        self.text = QTextBrowser()
        self.text.setObjectName("aboutText")
        self.text.setOpenLinks(False)
        self.text.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        buttons = QDialogButtonBox()
        self.close_button = buttons.addButton("", QDialogButtonBox.ButtonRole.RejectRole)
        self.close_button.setDefault(True)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.text, 1)
        lay.addWidget(buttons)
        self.retranslate()

    def retranslate(self) -> None:
        """Title, text and button in the current language (at opening and after a switch)."""
        self.setWindowTitle(self.tr("关于南山问律"))
        self.close_button.setText(self.tr("关闭"))
        self.text.setHtml(about_html(self.manifest, self.pack_path, self.pal))

    def changeEvent(self, event):
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def plain_text(self) -> str:
        return self.text.toPlainText()
