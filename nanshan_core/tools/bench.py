"""``nanshan bench``: speed and memory, measured, never asserted.

These machines are shared and noisy, so every figure is reported beside a
baseline measured in the same run: retrieval against a plain regular-
expression scan over the same passages (``bruteforce_ms``).  GUI figures
(click to painted line, cold start) come from a separate offscreen process
so that Qt never enters this package.
"""
from __future__ import annotations

import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from ..ask.engine import Engine

DEFAULT_QUESTIONS = [
    "出家人能不能碰钱？", "失手杀了人算不算波罗夷？", "过了中午还能吃东西吗？", "比丘可以喝酒吗？生病呢？",
    "什么情况下会被赶出僧团？", "受具足戒要几个人？", "袈裟为什么要割截？", "安居期间可以外出吗？",
    "怎样忏悔突吉罗罪？", "偷多少钱算波罗夷？", "可以挖地种菜吗？", "比丘可以和女人单独在一起吗？",
    "还俗后还能再出家吗？", "戒体是什么？", "佛为什么制戒？", "布萨多久一次？",
]


def _pct(values: list[float], p: float) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def _stats(values: list[float]) -> dict:
    return {"p50": round(statistics.median(values), 2) if values else 0.0, "p95": round(_pct(values, 95), 2),
            "n": len(values)}


def questions_from(path: str | None) -> list[str]:
    if not path:
        return list(DEFAULT_QUESTIONS)
    out = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if line.strip():
            q = json.loads(line)
            if q.get("expect", "answer") == "answer":
                out.append(q["question"])
    return out


SEARCH_PHRASES = ["突吉羅", "波羅夷", "捉錢", "非時食", "三種淨肉", "摩那埵", "須提那", "五錢", "戒體", "酒",
                  "僧伽婆尸沙", "比丘尼"]


def _concordance(engine: Engine, texts: list[str], repeat: int) -> tuple[list[float], list[float]]:
    """The concordance's count for a dozen phrases, frequent and rare, against counting them by
    reading the same (already folded) passages."""
    from ..library.concordance import Searcher
    searcher = Searcher(engine.retriever)
    fold_query = engine.pack.normalizer.fold_query
    searcher.search([SEARCH_PHRASES[0]])          # warm: the index's terms, the passage bounds
    searcher.folded_corpus()                      # as the GUI does when its 检索 tab is first shown
    timed, brute = [], []
    for _ in range(repeat):
        for ph in SEARCH_PHRASES:
            searcher.__dict__.pop("_recent", None)   # time the search, not the recent-phrase memory
            t = time.perf_counter()
            searcher.search([ph]).count
            timed.append((time.perf_counter() - t) * 1000)
            f = fold_query(ph)
            t = time.perf_counter()
            sum(tx.count(f) for tx in texts)
            brute.append((time.perf_counter() - t) * 1000)
    return timed, brute


def run(engine: Engine, questions: list[str], repeat: int = 3, gui: bool = True, model: str | None = None,
        model_questions: int = 3, model_block: str = "focused") -> dict:
    pack = engine.pack
    # Warm-up: first use opens the index and loads the passage table (that is cold start, not a query).
    t = time.perf_counter()
    engine.ask(questions[0])
    first_query_ms = (time.perf_counter() - t) * 1000
    engine.warm_up(questions[0])        # as the app does once its pack is open
    selections = [engine.select_terms(q) for q in questions]
    fold = pack.normalizer.fold
    texts = [fold(pack.passage(i + 1).text) for i in range(len(engine.retriever.chunks))]
    retrieval, brute, answer = [], [], []
    for _ in range(repeat):
        for sel in selections:
            terms = sel.texts
            if not terms:
                continue
            folded = [pack.normalizer.fold_query(x) for x in terms]
            t = time.perf_counter()
            engine.retriever.retrieve(terms)
            retrieval.append((time.perf_counter() - t) * 1000)
            rx = re.compile("|".join(re.escape(f) for f in folded))
            t = time.perf_counter()
            counts = [len(rx.findall(tx)) for tx in texts]
            sorted(range(len(counts)), key=counts.__getitem__, reverse=True)[:20]
            brute.append((time.perf_counter() - t) * 1000)
        for q in questions:
            t = time.perf_counter()
            engine.ask(q)
            answer.append((time.perf_counter() - t) * 1000)
    search, search_brute = _concordance(engine, texts, repeat)
    out = {
        "retrieval_ms": _stats(retrieval),
        "search_ms": _stats(search),
        "search_bruteforce_ms": _stats(search_brute),
        "bruteforce_ms": _stats(brute),
        "answer_ms": _stats(answer),
        "first_query_ms": round(first_query_ms, 1),
        "rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "queries": len(retrieval),
    }
    if out["retrieval_ms"]["p50"]:
        out["speedup_vs_bruteforce_p50"] = round(out["bruteforce_ms"]["p50"] / out["retrieval_ms"]["p50"], 2)
    if gui:
        out.update(gui_figures(pack.path))
    if model:
        from ..ask.llm import bench_model
        qs = questions[:model_questions]
        out["model"] = bench_model(engine, model, qs, focused=model_block != "whole")
        if model_block == "both":       # the whole-passage block as the baseline, in the same run
            out["model_baseline"] = bench_model(engine, model, qs, focused=False)
    return out


def gui_figures(pack_path: Path) -> dict:
    """click_to_line_ms and cold_start_ms from an offscreen app process (see app/bench_gui.py)."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "NANSHAN_PACK": str(pack_path)}
    t = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-m", "app.bench_gui", "--pack", str(pack_path)], env=env,
                              capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return {"gui_error": str(exc)}
    if proc.returncode != 0:
        return {"gui_error": (proc.stderr.strip().splitlines() or ["GUI 测量失败"])[-1]}
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    data["gui_process_ms"] = round((time.perf_counter() - t) * 1000, 1)
    return data


def format_bench(d: dict) -> str:
    lines = [
        f"检索 retrieval_ms：p50 {d['retrieval_ms']['p50']} · p95 {d['retrieval_ms']['p95']}（{d['queries']} 次）",
        f"基线 bruteforce_ms（同一批文本的正则扫描）：p50 {d['bruteforce_ms']['p50']} · p95 {d['bruteforce_ms']['p95']}",
    ]
    if "speedup_vs_bruteforce_p50" in d:
        lines.append(f"  检索比基线快 {d['speedup_vs_bruteforce_p50']} 倍（p50 之比）")
    lines.append(f"原文检索 search_ms：p50 {d['search_ms']['p50']} · p95 {d['search_ms']['p95']}；"
                 f"基线（逐段计数）：p50 {d['search_bruteforce_ms']['p50']} · p95 {d['search_bruteforce_ms']['p95']}")
    lines.append(f"完整作答 answer_ms：p50 {d['answer_ms']['p50']} · p95 {d['answer_ms']['p95']}")
    lines.append(f"首问（含打开索引）：{d['first_query_ms']} ms；常驻内存峰值 rss_mb：{d['rss_mb']}")
    if "click_to_line_ms" in d:
        lines.append(f"点击坐标到该行显示 click_to_line_ms：{d['click_to_line_ms']}；冷启动 cold_start_ms：{d['cold_start_ms']}")
    if "gui_error" in d:
        lines.append(f"GUI 测量未完成：{d['gui_error']}")
    for key in ("model", "model_baseline"):
        if key not in d:
            continue
        m = d[key]
        lines.append(f"模型 {m.get('name')}：加载 {m.get('load_s')} s；{m.get('questions')} 问的中位数"
                     f"（材料：{'句段' if m.get('material_block') == 'focused' else '整段'}）：")
        lines.append(f"  提示 {m.get('prompt_tokens')} tokens（其中沿用缓存 {m.get('cached_tokens')}）· "
                     f"读提示 {m.get('prompt_tokens_per_s')} tokens/s · 首字 {m.get('first_token_s')} s")
        lines.append(f"  写作 {m.get('write_tokens_per_s')} tokens/s（{m.get('tokens')} tokens）· "
                     f"每答 {m.get('seconds_per_answer')} s · 草稿被搁置 {m.get('set_aside')} 次")
    if "model_baseline" in d and d["model"].get("first_token_s") and d["model_baseline"].get("first_token_s"):
        a, b = d["model"], d["model_baseline"]
        lines.append(f"  句段材料对整段材料：提示 {a['prompt_tokens'] / b['prompt_tokens']:.2f} 倍，"
                     f"首字 {a['first_token_s'] / b['first_token_s']:.2f} 倍，每答 "
                     f"{a['seconds_per_answer'] / b['seconds_per_answer']:.2f} 倍")
    return "\n".join(lines)
