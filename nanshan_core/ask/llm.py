"""The optional local model: better terms and a prose answer, never a coordinate.

The model is a local GGUF file the reader chooses; nothing is ever
downloaded.  Without llama-cpp-python the app runs and says the feature is
unavailable.  The model proposes terms (kept only if they occur in the
pack) and writes from numbered materials; it never sees a coordinate or a
work number, and whatever in its output looks like one is removed and
flagged.  Every 「…」(材料N) it writes goes through step D like any other
quote.  Red lines are decided by code before the model is consulted.
"""
from __future__ import annotations

import json
import os
import re
import struct
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from .answer import Answer, compose
from ..errors import ModelError
from ..paths import resource_path, user_data_dir
from .retrieve import LAYERS, Material
from .terms import CATEGORIES, Term
from .verify import Citation, citations_in, strip_coordinates

GGUF_MAGIC = b"GGUF"
DEFAULT_CTX = 4096
ANSWER_TOKENS = 768
TERMS_TOKENS = 160
DEFAULT_TIMEOUT = 240.0
LAYER_LABEL = {"vinaya": "律本", "daoxuan": "道宣", "yuanzhao": "元照"}
# Chat formats a reader can choose when a GGUF carries no chat template.
CHAT_FORMATS = ("gemma", "chatml", "llama-3", "mistral-instruct", "qwen", "llama-2")
_ARCH_FORMAT = {"gemma": "gemma", "gemma2": "gemma", "gemma3": "gemma", "qwen2": "chatml", "qwen3": "chatml",
                "qwen": "qwen", "llama": "llama-3", "mistral": "mistral-instruct"}

TERMS_SCHEMA = {
    "type": "object",
    "properties": {
        "terms": {"type": "array", "items": {"type": "string", "maxLength": 8}, "maxItems": 5},
        "category": {"type": "string", "enum": list(CATEGORIES)},
    },
    "required": ["terms", "category"],
}


def runtime_available() -> bool:
    try:
        import llama_cpp  # noqa: F401
        return True
    except Exception:  # noqa: BLE001 - a broken install is as unavailable as a missing one
        return False


def models_dir() -> Path:
    return user_data_dir() / "models"


def list_models(extra_dirs: list[Path] | None = None) -> list[Path]:
    """GGUF files placed in the user data directory (and any extra directories)."""
    out = []
    for d in [models_dir(), *(extra_dirs or [])]:
        if d.is_dir():
            out.extend(sorted(p for p in d.glob("*.gguf") if p.is_file()))
    return out


def check_file(path: str | os.PathLike) -> int:
    """Cheap checks before llama.cpp sees the file: present, a GGUF, not obviously truncated."""
    p = Path(path)
    if not p.exists():
        raise ModelError(f"模型文件不存在：{p}")
    if not p.is_file():
        raise ModelError(f"不是文件：{p}")
    size = p.stat().st_size
    with open(p, "rb") as fh:
        head = fh.read(24)
    if len(head) < 24 or head[:4] != GGUF_MAGIC:
        raise ModelError(f"{p.name} 不是 GGUF 模型文件（文件头不是 GGUF）。请选择 .gguf 格式的模型。")
    version, n_tensors, n_kv = struct.unpack("<IQQ", head[4:24])
    if version not in (2, 3) or n_tensors == 0 or n_tensors > 1_000_000 or n_kv > 1_000_000:
        raise ModelError(f"{p.name} 的 GGUF 文件头无法识别（版本 {version}），文件可能已损坏。")
    if size < 1_000_000:
        raise ModelError(f"{p.name} 只有 {size} 字节，模型文件不完整。")
    return size


@dataclass
class ModelInfo:
    path: str
    name: str
    n_ctx: int
    train_ctx: int | None
    size_bytes: int
    chat_format: str | None      # None: the GGUF's own chat template is used
    has_template: bool
    load_s: float

    def describe(self) -> str:
        fmt = "内置对话模板" if self.has_template else f"对话格式 {self.chat_format}"
        return f"{self.name} · 上下文 {self.n_ctx} · {self.size_bytes / 1e6:.0f} MB · {fmt}"


class LocalModel:
    """A loaded GGUF model; one generation at a time (llama.cpp contexts are not re-entrant)."""

    def __init__(self, llama, info: ModelInfo):
        self.llama = llama
        self.info = info
        self._lock = threading.Lock()

    # -- prompts --------------------------------------------------------------
    @staticmethod
    def _prompt(name: str) -> str:
        return resource_path("prompts", name).read_text(encoding="utf-8")

    def count_tokens(self, text: str) -> int:
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    # -- A: terms -----------------------------------------------------------
    def propose_terms(self, question: str) -> tuple[list[str], str | None]:
        """Grammar-constrained JSON; whatever comes back is only a proposal (checked by the caller)."""
        messages = [{"role": "system", "content": self._prompt("terms_system.txt")},
                    {"role": "user", "content": self._prompt("terms_user.txt").format(question=question)}]
        with self._lock:
            out = self.llama.create_chat_completion(
                messages=messages, max_tokens=TERMS_TOKENS, temperature=0.2,
                response_format={"type": "json_object", "schema": TERMS_SCHEMA})
        text = out["choices"][0]["message"].get("content") or ""
        try:
            data = json.loads(text)
        except ValueError:
            return [], None
        terms = [t.strip() for t in data.get("terms", []) if isinstance(t, str) and t.strip()]
        cat = data.get("category") if data.get("category") in CATEGORIES else None
        return terms[:5], cat

    # -- C: the written answer --------------------------------------------------
    def write_answer(self, question: str, materials: list[Material], on_token: Callable[[str], None] | None = None,
                     cancel: threading.Event | None = None, timeout: float = DEFAULT_TIMEOUT) -> tuple[str, str | None]:
        """Stream an answer; returns (text, note) where note says why generation stopped early."""
        system = self._prompt("answer_system.txt")
        user_tpl = self._prompt("answer_user.txt")
        budget = self.info.n_ctx - ANSWER_TOKENS - 64
        block = fit_materials(materials, lambda s: self.count_tokens(system + user_tpl.format(question=question,
                                                                                             materials=s)), budget)
        messages = [{"role": "system", "content": system},
                    {"role": "user", "content": user_tpl.format(question=question, materials=block)}]
        parts: list[str] = []
        note = None
        start = time.monotonic()
        with self._lock:
            stream = self.llama.create_chat_completion(messages=messages, max_tokens=ANSWER_TOKENS,
                                                       temperature=0.3, stream=True)
            try:
                for chunk in stream:
                    delta = chunk["choices"][0].get("delta", {}).get("content")
                    if delta:
                        parts.append(delta)
                        if on_token:
                            on_token(delta)
                    if cancel is not None and cancel.is_set():
                        note = "已停止生成：以下是停止前已生成的部分。"
                        break
                    if time.monotonic() - start > timeout:
                        shown = f"{timeout:.0f}" if timeout >= 10 else f"{timeout:g}"
                        note = f"生成超过 {shown} 秒，已停止：以下是已生成的部分。"
                        break
            finally:
                close = getattr(stream, "close", None)
                if close:
                    close()
        return "".join(parts), note


def material_block(materials: list[Material], limit: int | None = None) -> str:
    """Numbered materials as the model sees them: layer and title only — no coordinate, no work number."""
    rows = []
    for m in materials:
        text = m.text if limit is None else m.text[:limit]
        rows.append(f"材料{m.n}（{LAYER_LABEL.get(m.layer, m.layer)}·{m.title}）：{text}")
    return "\n".join(rows)


def fit_materials(materials: list[Material], measure: Callable[[str], int], budget: int) -> str:
    """Trim materials until the prompt fits, keeping every layer represented: the longest layer loses first."""
    kept = list(materials)
    limit = None
    while True:
        block = material_block(kept, limit)
        if measure(block) <= budget or not kept:
            return block
        per_layer = {layer: [m for m in kept if m.layer == layer] for layer in LAYERS}
        biggest = max(per_layer, key=lambda k: len(per_layer[k]))
        if len(per_layer[biggest]) > 1:
            kept.remove(per_layer[biggest][-1])      # drop the lowest-ranked material of the fullest layer
        elif limit is None or limit > 60:
            limit = 200 if limit is None else int(limit * 0.7)   # then shorten every material
        else:
            return block


def default_threads() -> int:
    """All cores but one: llama.cpp's threads wait on each other at every step, so one thread
    preempted by the GUI or another process stalls them all (measured 2-20x slower decoding
    with both cores of a shared 2-core machine)."""
    return max(1, (os.cpu_count() or 2) - 1)


def load_model(path: str | os.PathLike, n_ctx: int = DEFAULT_CTX, chat_format: str | None = None,
               n_threads: int | None = None) -> LocalModel:
    """Load a GGUF from disk (never from a hub); clear ModelError on any failure."""
    size = check_file(path)
    if not runtime_available():
        raise ModelError("未安装 llama-cpp-python，模型功能不可用（安装见 README「本地模型」一节）；不用模型也能正常问答。")
    import llama_cpp
    t = time.perf_counter()
    try:
        probe = llama_cpp.Llama(model_path=str(path), n_ctx=256, vocab_only=True, verbose=False)
        meta = dict(probe.metadata)
        del probe
    except Exception as exc:  # noqa: BLE001 - llama.cpp reports load failures as ValueError/RuntimeError
        raise ModelError(f"模型文件无法读取（{Path(path).name}）：可能已损坏或不完整。{_short(exc)}") from None
    has_template = bool(meta.get("tokenizer.chat_template"))
    arch = meta.get("general.architecture", "")
    fmt = None if has_template and not chat_format else (chat_format or _ARCH_FORMAT.get(arch, "chatml"))
    train_ctx = _int(meta.get(f"{arch}.context_length"))
    ctx = min(n_ctx, train_ctx) if train_ctx else n_ctx
    try:
        llama = llama_cpp.Llama(model_path=str(path), n_ctx=ctx, n_threads=n_threads or default_threads(),
                                chat_format=fmt, verbose=False)
    except Exception as exc:  # noqa: BLE001
        raise ModelError(f"模型加载失败（{Path(path).name}）：可能已损坏、不完整或不受支持。{_short(exc)}") from None
    info = ModelInfo(str(path), meta.get("general.name") or Path(path).stem, llama.n_ctx(), train_ctx, size,
                     fmt, has_template, round(time.perf_counter() - t, 2))
    return LocalModel(llama, info)


def _int(v) -> int | None:
    try:
        return int(v)
    except (TypeError, ValueError):
        return None


def _short(exc: Exception) -> str:
    msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return f"（{msg[:120]}）"


# -- the pipeline with a model -------------------------------------------------------------

_MARK = re.compile(r"「([^「」]{1,400})」\s*[（(]\s*材料\s*(\d+)\s*[)）]")


def annotate(text: str, citations: list[Citation]) -> str:
    """Make D's findings visible in the text: corrected material numbers, unverified quotes."""
    queue = list(citations)

    def fix(m: re.Match) -> str:
        c = next((c for c in queue if c.quote == m.group(1)), None)
        if c is None:
            return m.group(0)
        queue.remove(c)
        if c.level == "unverified":
            return f"{m.group(0)}〔{c.note}〕"
        if c.corrected_from is not None:
            return f"「{m.group(1)}」(材料{c.material}，原标材料{c.corrected_from})"
        return m.group(0)
    return _MARK.sub(fix, text)


def choose_terms(engine, question: str, model: LocalModel, topics: list[str] | None = None) -> tuple:
    """Glossary terms plus the model's proposals that occur in the pack; code keeps the red lines."""
    sel = engine.select_terms(question, topics=topics)
    if sel.refusal is not None:
        return sel, []
    proposed, category = model.propose_terms(sel.question)
    kept, rejected = [], []
    have = {t.text for t in sel.terms}
    for t in dict.fromkeys(proposed):
        if t in have:
            continue
        if engine.df(t) > 0 and engine.df_share(t) <= 0.15:
            kept.append(t)
        else:
            rejected.append(t)
    for t in kept[: max(0, 8 - len(sel.terms))]:
        sel.terms.append(Term(t, "model"))
    if category and category != "超范围":
        sel.category = category
    return sel, rejected


def ask_with_model(engine, question: str, model: LocalModel | str, terms: list[str] | None = None,
                   on_token: Callable[[str], None] | None = None, cancel: threading.Event | None = None,
                   timeout: float = DEFAULT_TIMEOUT, topics: list[str] | None = None):
    """The whole pipeline with a model writing the prose; D verifies everything it wrote."""
    from .engine import Result, scope_lead
    if isinstance(model, (str, os.PathLike)):
        model = load_model(model)
    timing: dict[str, float] = {}
    t = time.perf_counter()
    if terms is not None or (cancel is not None and cancel.is_set()):
        sel, rejected = engine.select_terms(question, terms, topics), []
    else:
        sel, rejected = choose_terms(engine, question, model, topics)
    timing["terms"] = (time.perf_counter() - t) * 1000
    result = Result(sel.question, sel, model={"name": model.info.name, "path": model.info.path,
                                              "n_ctx": model.info.n_ctx, "rejected_terms": rejected})
    if sel.refusal is not None:
        result.timing_ms = {**timing, "retrieve": 0.0, "answer": 0.0, "verify": 0.0}
        return result
    engine.retrieve(result, timing)
    t = time.perf_counter()
    extractive = compose(engine.pack, sel.texts, result.materials, [engine.weight(x) for x in sel.texts])
    if not result.materials:
        result.answer = extractive
        scope_lead(result)
        timing["answer"] = (time.perf_counter() - t) * 1000
        timing["verify"] = 0.0
        result.timing_ms = timing
        return result
    if cancel is not None and cancel.is_set():        # stopped before the model began to write
        raw, note = "", "已停止生成：模型尚未开始作答。"
    else:
        raw, note = model.write_answer(sel.question, result.materials, on_token, cancel, timeout)
    timing["answer"] = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    clean, removed = strip_coordinates(raw)
    cits = citations_in(engine.pack, clean, result.materials)
    text = annotate(clean, cits)
    if removed:
        result.notes.append(f"模型输出中有 {len(removed)} 处疑似页码或坐标，已删除（坐标只由程序核验后给出）。")
    if note:
        result.notes.append(note)
    if not text.strip():
        result.notes.append("模型没有生成内容，以下为程序摘录的原文答案。")
        result.answer = extractive
    else:
        result.answer = Answer(text, cits, extractive.panes, extractive.no_sifenlu)
    scope_lead(result)
    timing["verify"] = (time.perf_counter() - t) * 1000
    result.timing_ms = timing
    result.model["removed_coordinates"] = len(removed)   # how many; never echoed back as text
    return result


def bench_model(engine, path: str, questions: list[str]) -> dict:
    """Load time, tokens/s and seconds per answer on this machine (reported, never asserted)."""
    model = load_model(path)
    tokens, seconds, per_answer = 0, 0.0, []
    for q in questions:
        counted = []
        t = time.perf_counter()
        ask_with_model(engine, q, model, on_token=counted.append)
        dt = time.perf_counter() - t
        per_answer.append(dt)
        tokens += sum(model.count_tokens(x) for x in counted)
        seconds += dt
    return {"name": model.info.name, "load_s": model.info.load_s,
            "tokens_per_s": round(tokens / seconds, 1) if seconds else None,
            "seconds_per_answer": round(sum(per_answer) / len(per_answer), 1) if per_answer else None}
