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

import ctypes
import json
import logging
import os
import re
import struct
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import ModelError
from ..paths import resource_path, user_data_dir
from ..text import sentence_spans
from .answer import Answer
from .draft import SET_ASIDE_NOTICE, Draft, set_aside_reason
from .remembered import AnswerCache, Remembered, answer_key, model_identity
from .retrieve import LAYERS, OTHER, Material
from .terms import CATEGORIES, Term
from .verify import Citation, citations_in, strip_coordinates

GGUF_MAGIC = b"GGUF"
DEFAULT_CTX = 4096
ANSWER_TOKENS = 768
TERMS_TOKENS = 160
DEFAULT_TIMEOUT = 240.0
LAYER_LABEL = {"vinaya": "律本", "daoxuan": "道宣", "yuanzhao": "元照", "other": "其他"}
# Chat formats a reader can choose when a GGUF carries no chat template.
CHAT_FORMATS = ("gemma", "chatml", "llama-3", "mistral-instruct", "qwen", "llama-2")
_ARCH_FORMAT = {"gemma": "gemma", "gemma2": "gemma", "gemma3": "gemma", "qwen2": "chatml", "qwen3": "chatml",
                "qwen": "qwen", "llama": "llama-3", "mistral": "mistral-instruct"}

# llama-cpp-python's formats that silently drop a system message (Gemma has no system turn)
NO_SYSTEM_FORMATS = ("gemma",)

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
    system_role: bool = True     # False: the chat format drops system messages (gemma), so rules go in the user turn

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
        messages = self._chat(self._prompt("terms_system.txt"),
                              self._prompt("terms_user.txt").format(question=question))
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
    def answer_messages(self, question: str, materials: list[Material], fold=None) -> list[dict]:
        """System rules (the same for every question, so llama.cpp can keep them read) and the user part."""
        system = self._prompt("answer_system.txt")
        user_tpl = self._prompt("answer_user.txt")
        budget = self.info.n_ctx - ANSWER_TOKENS - 64
        if fold is not None:          # focused materials: a prompt read in half the time
            budget = min(budget, FOCUSED_PROMPT_TOKENS)
        block = fit_materials(materials, lambda s: self.count_tokens(system + user_tpl.format(question=question,
                                                                                             materials=s)),
                              budget, fold)
        return self._chat(system, user_tpl.format(question=question, materials=block))

    def _chat(self, system: str, user: str) -> list[dict]:
        """The rules as a system turn, or leading the user turn where the format has no system role.

        Either way they come first and are the same for every question, so llama.cpp can
        reuse what it read of them.
        """
        if self.info.system_role:
            return [{"role": "system", "content": system}, {"role": "user", "content": user}]
        return [{"role": "user", "content": f"{system}\n\n{user}"}]

    def write_answer(self, question: str, materials: list[Material], on_token: Callable[[str], None] | None = None,
                     cancel: threading.Event | None = None, timeout: float = DEFAULT_TIMEOUT,
                     fold=None) -> Draft:
        """Stream an answer; the Draft keeps the prompt (for the echo check) and the time of each part."""
        messages = self.answer_messages(question, materials, fold)
        prompt = "\n".join(m["content"] for m in messages)
        draft = Draft("", prompt=prompt)
        parts: list[str] = []
        start = time.monotonic()
        with self._lock:
            self._perf_reset()
            stream = self.llama.create_chat_completion(messages=messages, max_tokens=ANSWER_TOKENS,
                                                       temperature=0.3, stream=True)
            try:
                for chunk in stream:
                    delta = chunk["choices"][0].get("delta", {}).get("content")
                    if delta:
                        if draft.first_token_s is None:
                            draft.first_token_s = time.monotonic() - start
                        parts.append(delta)
                        if on_token:
                            on_token(delta)
                    if cancel is not None and cancel.is_set():
                        draft.note = "已停止生成：以下是停止前已生成的部分。"
                        break
                    if time.monotonic() - start > timeout:
                        shown = f"{timeout:.0f}" if timeout >= 10 else f"{timeout:g}"
                        draft.note = f"生成超过 {shown} 秒，已停止：以下是已生成的部分。"
                        break
            finally:
                close = getattr(stream, "close", None)
                if close:
                    close()
            self._perf(draft)
        draft.total_s = time.monotonic() - start
        draft.text = "".join(parts)
        draft.tokens = self.count_tokens(draft.text) if draft.text else 0
        return draft

    def _perf_reset(self) -> None:
        ctx = _context(self.llama)
        if ctx is not None:
            import llama_cpp
            llama_cpp.llama_perf_context_reset(ctx)

    def _perf(self, draft: Draft) -> None:
        """Fill in the prompt and writing figures from llama.cpp's own counters for the last request."""
        ctx = _context(self.llama)
        if ctx is None:                    # no counters: count the prompt's tokens ourselves
            draft.prompt_tokens = self.count_tokens(draft.prompt)
            return
        import llama_cpp
        perf = llama_cpp.llama_perf_context(ctx)
        n_ctx_used = int(getattr(self.llama, "n_tokens", 0))
        # the prompt as the chat template tokenised it
        draft.prompt_tokens = n_ctx_used - int(perf.n_eval) if n_ctx_used > perf.n_eval else self.count_tokens(draft.prompt)
        draft.cached_tokens = max(0, draft.prompt_tokens - int(perf.n_p_eval))
        draft.read_ms = float(perf.t_p_eval_ms) or None
        draft.write_ms = float(perf.t_eval_ms) or None


def _context(llama):
    """The raw llama_context of a Llama, or None (another runtime, or a test double)."""
    inner = getattr(llama, "_ctx", None)
    return getattr(inner, "ctx", None) if inner is not None else None


def material_block(materials: list[Material], limit: int | None = None, fold=None) -> str:
    """Numbered materials as the model sees them: layer and title only — no coordinate, no work number.

    With ``fold`` (the pack's search folding) a material is cut to the sentences around its
    matched terms: the model reads less, sooner, and every sentence it may quote is still
    the material's own text, so step D places it exactly.
    """
    rows = []
    for m in materials:
        text = focus(m, fold) if fold is not None else with_gaps(m)
        if limit is not None:
            text = text[:limit]
        rows.append(f"材料{m.n}（{LAYER_LABEL.get(m.layer, m.layer)}·{m.title}）：{text}")
    return "\n".join(rows)


FOCUSED_PROMPT_TOKENS = 2000   # the whole prompt, when materials are cut to their sentences
FOCUS_RADIUS = 1          # sentences kept on each side of a sentence holding a term
FOCUS_MIN = 120           # a material shorter than this is given whole


def with_gaps(m: Material) -> str:
    """The material's text with …… at each seam: the model must not read (and quote) a combined
    edition's 記 paragraphs, read on over the 疏 between them, as one sentence."""
    cuts = [0, *m.seams, len(m.text)]
    return "……".join(m.text[a:b] for a, b in zip(cuts, cuts[1:]))


def focus(m: Material, fold) -> str:
    """The sentences of a material that hold its terms, one either side, gaps marked ……."""
    text = m.text
    if len(text) <= FOCUS_MIN or not m.terms:
        return with_gaps(m)
    spans = sentence_spans(text)
    folded = fold(text)
    hits = set()
    for term in m.terms:
        t = fold(term)
        i = folded.find(t) if t else -1
        while i >= 0:
            hits.update(k for k, (a, b) in enumerate(spans) if a < i + len(t) and i < b)
            i = folded.find(t, i + 1)
    if not hits:
        return with_gaps(m)
    keep = sorted({k + d for k in hits for d in range(-FOCUS_RADIUS, FOCUS_RADIUS + 1) if 0 <= k + d < len(spans)})
    out, prev = [], None
    for k in keep:
        if prev is not None and (k != prev + 1 or any(spans[prev][1] <= x <= spans[k][0] for x in m.seams)):
            out.append("……")
        out.append(text[spans[k][0]:spans[k][1]])
        prev = k
    if keep[0] > 0:
        out.insert(0, "……")
    if keep[-1] < len(spans) - 1:
        out.append("……")
    return "".join(out)


def fit_materials(materials: list[Material], measure: Callable[[str], int], budget: int, fold=None) -> str:
    """Trim materials until the prompt fits, keeping every layer represented: the longest layer loses first."""
    kept = list(materials)
    limit = None
    while True:
        block = material_block(kept, limit, fold)
        if measure(block) <= budget or not kept:
            return block
        per_layer = {layer: [m for m in kept if m.layer == layer] for layer in (*LAYERS, OTHER)}
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


PROMPT_CACHE_BYTES = 1 << 30
log = logging.getLogger("nanshan.llama")
_LOG_CALLBACK = None        # kept alive: llama.cpp holds only a C pointer to it


def route_llama_log() -> None:
    """llama.cpp's own log lines go to the app's log (debug level), never to the terminal or stderr."""
    global _LOG_CALLBACK
    if _LOG_CALLBACK is not None:
        return
    import llama_cpp

    @llama_cpp.llama_log_callback
    def _to_log(level, text, user_data):  # noqa: ARG001 - the C signature
        try:
            log.debug("%s", text.decode("utf-8", "replace").rstrip())
        except Exception:  # noqa: BLE001 - an exception must never cross back into C
            pass
    _LOG_CALLBACK = _to_log
    llama_cpp.llama_log_set(_LOG_CALLBACK, ctypes.c_void_p(0))


def gpu_layers() -> int:
    """Every layer on the GPU when this llama.cpp was built with GPU support, none otherwise."""
    import llama_cpp
    try:
        return -1 if llama_cpp.llama_supports_gpu_offload() else 0
    except AttributeError:
        return 0


def load_model(path: str | os.PathLike, n_ctx: int = DEFAULT_CTX, chat_format: str | None = None,
               n_threads: int | None = None) -> LocalModel:
    """Load a GGUF from disk (never from a hub); clear ModelError on any failure."""
    size = check_file(path)
    if not runtime_available():
        raise ModelError("未安装 llama-cpp-python，模型功能不可用（安装见 README「本地模型」一节）；不用模型也能正常问答。")
    import llama_cpp
    route_llama_log()
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
                                n_gpu_layers=gpu_layers(), chat_format=fmt, verbose=False,
                                # sliding-window models (Gemma 3) can drop the tail of their cache, and so
                                # reuse the prompt's prefix, only with a full-size window cache
                                swa_full=True)
        # the system rules are the same for every answer: keep the state after each call, so the
        # next answer starts from the longest prefix already read instead of the whole prompt
        llama.set_cache(llama_cpp.LlamaRAMCache(capacity_bytes=PROMPT_CACHE_BYTES))
    except Exception as exc:  # noqa: BLE001
        raise ModelError(f"模型加载失败（{Path(path).name}）：可能已损坏、不完整或不受支持。{_short(exc)}") from None
    template = str(meta.get("tokenizer.chat_template") or "")
    system_role = "system" in template if fmt is None else fmt not in NO_SYSTEM_FORMATS
    info = ModelInfo(str(path), meta.get("general.name") or Path(path).stem, llama.n_ctx(), train_ctx, size,
                     fmt, has_template, round(time.perf_counter() - t, 2), system_role)
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
    proposed, category = model.propose_terms(sel.asked or sel.question)
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
                   timeout: float = DEFAULT_TIMEOUT, topics: list[str] | None = None, focused: bool = True,
                   cache: AnswerCache | None = None, regenerate: bool = False):
    """The whole pipeline with a model writing the prose; D verifies everything it wrote.

    ``focused``: the model reads the sentences around each material's terms rather than whole
    passages (a shorter prompt, a sooner first word); False gives it whole passages.
    ``cache``: a remembered answer to the same question, pack and model is verified again and
    shown at once instead of asking the model (``regenerate`` asks it anyway).
    """
    from .engine import Result
    if isinstance(model, (str, os.PathLike)):
        model = load_model(model)
    timing: dict[str, float] = {}
    key = _cache_key(engine, question, terms, topics, model) if cache is not None else None
    hit = cache.get(key) if key and not regenerate else None
    t = time.perf_counter()
    if hit is not None:
        sel, rejected = engine.select_terms(question, hit.terms, topics), []
        sel.category = hit.category or sel.category
    elif terms is not None or (cancel is not None and cancel.is_set()):
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
    extractive = engine.extractive(result)
    if not result.materials:
        draft = Draft("")
    elif hit is not None:
        draft = Draft(hit.text)
    elif cancel is not None and cancel.is_set():        # stopped before the model began to write
        draft = Draft("", "已停止生成：模型尚未开始作答。")
    else:
        # the model never sees a request the scope note declines (a verdict, a text to make up)
        draft = model.write_answer(sel.asked or sel.question, result.materials, on_token, cancel, timeout,
                                   fold=engine.pack.normalizer.fold if focused else None)
    timing["answer"] = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    kept = _verify_draft(engine, result, draft, extractive)
    if hit is not None:
        if kept:
            result.model["cached"] = {"label": hit.label, "saved": hit.saved}
            result.model["generation"] = hit.generation
        else:                                   # never trusted: a remembered text that no longer verifies goes
            cache.forget(key)
    elif kept and cache is not None and not draft.note:
        cache.put(key, Remembered(strip_coordinates(draft.text)[0], sel.texts, sel.category, model.info.name,
                                  time.time(), draft.timing()))
    timing["verify"] = (time.perf_counter() - t) * 1000
    result.timing_ms = timing
    return result


def _cache_key(engine, question: str, terms, topics, model: LocalModel) -> str | None:
    try:
        model_id = model_identity(model.info.path)
    except OSError:
        return None
    return answer_key(question, terms, topics, engine.pack.checksum, model_id)


def _verify_draft(engine, result, draft: Draft, extractive: Answer) -> bool:
    """Step D over the model's text, then the rule that a draft must earn its place.

    Returns whether the model's text is the answer shown; otherwise the extractive answer
    stands and the reason (and the draft) are kept for the reader to see.
    """
    from .engine import scope_lead
    if not result.materials:
        result.answer = extractive
        scope_lead(result)
        return False
    clean, removed = strip_coordinates(draft.text)
    cits = citations_in(engine.pack, clean, result.materials)
    text = annotate(clean, cits)
    if removed:
        result.notes.append(f"模型输出中有 {len(removed)} 处疑似页码或坐标，已删除（坐标只由程序核验后给出）。")
    if draft.note:
        result.notes.append(draft.note)
    if draft.prompt:
        result.model["generation"] = draft.timing()
    result.model["removed_coordinates"] = len(removed)   # how many; never echoed back as text
    reason = set_aside_reason(clean, cits, draft.prompt) if clean.strip() else None
    kept = False
    if not text.strip():
        result.notes.append("模型没有生成内容，以下为程序摘录的原文答案。")
        result.answer = extractive
    elif reason:
        result.notes.append(f"{SET_ASIDE_NOTICE}（{reason}）。")
        result.model["set_aside"] = reason
        result.model["draft"] = text        # shown only behind a disclosure, marked as a draft
        result.answer = extractive
    else:
        result.answer = Answer(text, cits, extractive.panes, extractive.no_sifenlu)
        kept = True
    scope_lead(result)
    return kept


def bench_model(engine, path: str, questions: list[str], focused: bool = True) -> dict:
    """The model's time in parts, on this machine (reported, never asserted).

    Reading the prompt and writing the answer run at very different speeds, and what a reader
    waits for first is the first token: a single "tokens/s" figure hides both.
    """
    model = load_model(path)
    rows = []
    for q in questions:
        t = time.perf_counter()
        res = ask_with_model(engine, q, model, focused=focused)
        gen = dict((res.model or {}).get("generation") or {})
        gen["seconds"] = time.perf_counter() - t
        gen["set_aside"] = bool((res.model or {}).get("set_aside"))
        rows.append(gen)

    def med(key):
        vals = sorted(r[key] for r in rows if r.get(key) is not None)
        return round(vals[len(vals) // 2], 2) if vals else None
    return {"name": model.info.name, "load_s": model.info.load_s, "questions": len(rows),
            "material_block": "focused" if focused else "whole passages",
            "prompt_tokens": med("prompt_tokens"), "cached_tokens": med("cached_tokens"),
            "prompt_tokens_per_s": med("prompt_tokens_per_s"), "first_token_s": med("first_token_s"),
            "write_tokens_per_s": med("write_tokens_per_s"), "tokens": med("tokens"),
            "seconds_per_answer": med("seconds"), "set_aside": sum(r["set_aside"] for r in rows),
            "per_question": rows}
