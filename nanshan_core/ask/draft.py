"""Whether a model's draft earns its place beside the extractive answer.

Step D keeps every coordinate honest, but a small model can fail without a
false coordinate: it echoes its own prompt, drifts into another language, or
writes prose that quotes nothing.  Shown as "the answer", such a draft misleads
as surely as a wrong line would.  The rule here is code, decided after D: a
draft that fails it is set aside, the extractive answer stands, and the draft
stays available (marked as such) for whoever wants to read it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..text import cjk_count

SET_ASIDE_NOTICE = "模型未给出可核验的回答，已显示摘录答案"
COPY_WINDOW = 8          # characters: a run this long found in the prompt is copied, not written
COPY_SHARE = 0.5         # more than this share of the draft's own text copied from the prompt: an echo
CJK_SHARE = 0.5          # less than this share of CJK characters: not an answer for this reader
_SPACE = re.compile(r"\s+")


@dataclass
class Draft:
    """What the model wrote, and how long each part of writing it took."""
    text: str
    note: str | None = None              # why generation stopped early (stop, timeout)
    prompt: str = ""                     # what the model was shown: system and user parts
    prompt_tokens: int = 0               # the whole prompt as the model's template tokenised it
    first_token_s: float | None = None   # from the request to the first written token, wall clock
    tokens: int = 0                      # tokens written
    total_s: float = 0.0
    cached_tokens: int = 0               # prompt tokens llama.cpp did not read again (kept from before)
    read_ms: float | None = None         # llama.cpp's own clock: reading the prompt ...
    write_ms: float | None = None        # ... and writing the answer

    def timing(self) -> dict:
        """Reading and writing apart: a long prompt is read at a different speed than text is written."""
        fresh = max(0, self.prompt_tokens - self.cached_tokens)
        read_s = self.read_ms / 1000 if self.read_ms else self.first_token_s
        write_s = self.write_ms / 1000 if self.write_ms else (
            self.total_s - self.first_token_s if self.first_token_s is not None else None)
        return {
            "prompt_tokens": self.prompt_tokens,
            "cached_tokens": self.cached_tokens,
            "first_token_s": _r(self.first_token_s),
            "prompt_tokens_per_s": _r(fresh / read_s) if read_s and fresh else None,
            "tokens": self.tokens,
            "write_tokens_per_s": _r(self.tokens / write_s) if write_s and self.tokens else None,
            "total_s": _r(self.total_s),
        }


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def copied_share(text: str, prompt: str, window: int = COPY_WINDOW) -> float:
    """Share of ``text``'s characters that lie in some run of ``window`` characters found in ``prompt``.

    Spaces are ignored on both sides: an echo often re-wraps lines.
    """
    s, p = _SPACE.sub("", text), _SPACE.sub("", prompt)
    if len(s) < window or len(p) < window:
        return 0.0
    seen = {p[i:i + window] for i in range(len(p) - window + 1)}
    covered = bytearray(len(s))
    for i in range(len(s) - window + 1):
        if s[i:i + window] in seen:
            covered[i:i + window] = b"\1" * window
    return sum(covered) / len(s)


def own_text(text: str, citations) -> str:
    """The draft without its verified quotations: quoting the materials is the point, not copying."""
    for c in citations:
        if c.level == "line" and c.quote:
            text = text.replace(c.quote, "", 1)
    return text


def set_aside_reason(text: str, citations, prompt: str) -> str | None:
    """Why a draft is not shown as the answer, or None when it earns its place."""
    body = _SPACE.sub("", text)
    if not body:
        return "模型没有生成内容"
    own = own_text(text, citations)
    if copied_share(own, prompt) > COPY_SHARE:
        return "草稿大段照抄给模型的提示，不是回答"
    if cjk_count(body) < CJK_SHARE * len(body):
        return "草稿大部分不是中文"
    if not any(c.level == "line" for c in citations):
        return "草稿没有逐字引用任何材料原文，无法核验"
    return None
