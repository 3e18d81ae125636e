"""How a CBETA line is painted, as opposed to what it is.

CBETA writes rare characters (gaiji) as private-use code points that no font
draws, and many of those with a Unicode form sit in extension planes the
installed fonts lack.  On screen such a character is replaced by its Unicode
form when a font can draw it, else by its normalised form, else by its
composition formula (「[口*(隹/乃)]」, the way CBETA itself prints it); the
composition is always offered as a tooltip.  The replacement exists only in
what is painted: quotes, coordinates, copies and searches use the text as
CBETA has it, so a display offset is never used as a text offset and the
table ``starts`` translates between the two.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication

translate = QCoreApplication.translate


def is_private_use(ch: str) -> bool:
    cp = ord(ch)
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0xFFFFD or 0x100000 <= cp <= 0x10FFFD


@dataclass(frozen=True)
class Rare:
    start: int        # display offsets
    end: int
    tooltip: str
    composed: bool    # shown as a composition formula, not as a character


@dataclass(frozen=True)
class Shown:
    text: str
    starts: tuple     # display offset of each original character, and of the end
    rare: tuple       # Rare, in order

    def span(self, a: int, b: int) -> tuple[int, int]:
        """Display span of the original characters [a, b)."""
        return self.starts[a], self.starts[b]


@dataclass(frozen=True)
class Glyph:
    form: str          # what is painted
    tooltip: str
    composed: bool     # a composition formula, painted in small type


def glyph(ch: str, info: dict, drawable=None) -> Glyph:
    """How one rare character is shown: its Unicode form if a font can draw it, else its
    normalised form, else its composition formula (a private-use code point draws as a box)."""
    drawable = drawable or (lambda s: True)
    uni, normal, comp = info.get("unicode"), info.get("normal"), info.get("composition") or ""
    tips = [info.get("cb") or "", translate("display", "组字式 {formula}").format(formula=comp) if comp else ""]
    if normal:
        tips.append(translate("display", "通用字 {char}").format(char=normal))
    if uni and drawable(uni):
        form = uni
    elif normal and drawable(normal):
        form = normal
    elif not is_private_use(ch) and drawable(ch):
        form = ch
    else:
        form = comp or uni or normal or ch
    if form != ch:
        tips.append(translate("display", "原文为 CBETA 缺字 {cb}，此处显示「{form}」；引文与坐标均按原文").format(
            cb=info.get('cb') or '', form=form))
    return Glyph(form, "；".join(t for t in tips if t), form == comp and form != ch)


def resolve(gaiji: dict[str, dict], drawable=None) -> dict[str, Glyph]:
    """The display form of every rare character of the pack, decided once."""
    return {ch: glyph(ch, info, drawable) for ch, info in gaiji.items()}


def shown(text: str, forms: dict[str, Glyph]) -> Shown:
    """The paintable form of ``text`` with the offset table back to the original."""
    if not forms or not any(ch in forms for ch in text):
        return Shown(text, tuple(range(len(text) + 1)), ())
    out: list[str] = []
    starts: list[int] = []
    rare: list[Rare] = []
    pos = 0
    for ch in text:
        starts.append(pos)
        g = forms.get(ch)
        form = g.form if g else ch
        out.append(form)
        if g is not None:
            rare.append(Rare(pos, pos + len(form), g.tooltip, g.composed))
        pos += len(form)
    starts.append(pos)
    return Shown("".join(out), tuple(starts), tuple(rare))


def utf16_offsets(text: str) -> list[int]:
    """UTF-16 offset of each code point and of the end: Qt's text layouts count UTF-16 units,
    and characters outside the BMP (Ext. B, CBETA's plane-15 gaiji) take two."""
    out = [0]
    for ch in text:
        out.append(out[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return out
