"""The ``nanshan`` command line (contract in DESIGN.md; keep it stable).

Every error a user can cause ends as one readable line on stderr and a
non-zero exit status, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from .errors import NanshanError, PackError, QuestionError
from .i18n import localize as L
from .text import terminal_safe

EXIT_ERROR = 2
MAX_QUESTION_FILE = 1_000_000      # characters read from --question-file before giving up


class SafeStream:
    """stdout / stderr that never pass a terminal control through: a question, a model's
    words or a file name holding ESC sequences is printed with them escaped (\\u001b)."""

    def __init__(self, stream):
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(terminal_safe(text))

    def __getattr__(self, name):
        return getattr(self._stream, name)


def read_question(args) -> str:
    """The question from the command line, or from --question-file (``-`` = stdin): a
    question too long for a command line meets the same limit and message as any other."""
    if args.question_file is None:
        if args.question is None:
            raise QuestionError("请给出问题：nanshan ask \"问题\"，或 --question-file 文件（- 表示标准输入）")
        return args.question
    if args.question is not None:
        raise QuestionError("问题与 --question-file 只能给一个")
    try:
        if args.question_file == "-":
            text = sys.stdin.read(MAX_QUESTION_FILE + 1)
        else:
            with open(args.question_file, encoding="utf-8") as f:
                text = f.read(MAX_QUESTION_FILE + 1)
    except FileNotFoundError:
        raise QuestionError(f"找不到问题文件：{args.question_file}") from None
    except UnicodeDecodeError:
        raise QuestionError(f"问题文件不是 UTF-8 文本：{args.question_file}") from None
    except OSError as exc:
        raise QuestionError(f"无法读取问题文件 {args.question_file}：{exc.strerror or exc}") from None
    if len(text) > MAX_QUESTION_FILE:
        from .ask.engine import MAX_QUESTION
        raise QuestionError(f"问题文件过大（超过 {MAX_QUESTION_FILE:,} 字）。请精简到 {MAX_QUESTION} 字以内，一次问一件事。")
    return text


class ProgressPrinter:
    """Build progress on stderr: a redrawn bar on a terminal, a line per stage change otherwise."""

    STAGES = {"parse": "读取 XML", "store": "写入行表", "index": "建立索引", "eval": "评测"}

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.tty = stream.isatty()
        self.last_stage = None
        self.last_pct = -1

    def __call__(self, stage: str, done: int, total: int, message: str) -> None:
        pct = int(100 * done / total) if total else 100
        name = L(self.STAGES.get(stage, stage))
        if self.tty:
            bar = "#" * (pct // 4) + "-" * (25 - pct // 4)
            self.stream.write(f"\r{name:8} [{bar}] {pct:3d}%  {message[:40]:40}")
            if done >= total:
                self.stream.write("\n")
            self.stream.flush()
        elif stage != self.last_stage or pct >= self.last_pct + 25 or done >= total:
            self.stream.write(f"{name}: {pct}% {message}\n")
            self.stream.flush()
            self.last_pct = pct
        self.last_stage = stage


def cmd_build_corpus(args) -> int:
    from .corpus.build import build_pack
    from .paths import bundled_pack_dir, find_cbeta
    cbeta = find_cbeta(args.cbeta)
    if cbeta is None:
        raise NanshanError("找不到 CBETA 目录：请用 --cbeta DIR 指定，或设置 NANSHAN_CBETA_DIR")
    out = Path(args.out) if args.out else bundled_pack_dir()
    works = [w for w in args.works.split(",") if w.strip()] if args.works else None
    if works == ["all"]:
        from .corpus.works import all_works
        works = all_works(cbeta)
    if args.if_stale:
        from .corpus.build import pack_is_current
        if pack_is_current(out, works):
            print(L(f"语料包已是最新：{out}"))
            return 0
    t0 = time.perf_counter()
    manifest = build_pack(cbeta, out, works, progress=ProgressPrinter())
    from .ask.engine import prepare_postings
    t1 = time.perf_counter()
    kept = prepare_postings(out)
    t = manifest["totals"]
    mb = manifest["build"]["bytes"] / 1e6
    print(L(f"语料包已生成：{out}"))
    print(L(f"  {t['works']} 部 · {t['fascicles']} 卷 · {t['paragraphs']} 段 · {t['lines']} 行 · "
            f"{t['cjk_chars']} 字（全部字符 {t['chars']}）· {t['passages']} 检索段"))
    tm = manifest["build"]["timings"]
    print(L(f"  用时 {time.perf_counter() - t0:.1f} 秒（解析 {tm['parse_s']} · 写表 {tm['store_s']} · "
            f"索引 {tm['index_s']}），占用 {mb:.1f} MB"))
    print(L(f"  常用词检索表：{kept} 个词，{time.perf_counter() - t1:.1f} 秒（存于用户缓存目录）"))
    return 0


def cmd_search(args) -> int:
    from .library.concordance import Searcher
    from .corpus.works import LAYER_NAMES, normalise_work_id
    eng = _engine(args)
    works = [normalise_work_id(w) for w in args.work.split(",")] if args.work else None
    searcher = Searcher(eng.retriever)
    res = searcher.search(args.phrases, layer=args.layer, works=works, within=args.within)
    size = max(1, args.page_size)
    pages = max(1, -(-res.count // size))
    if not 1 <= args.page <= pages:
        raise NanshanError(f"只有 {pages} 页结果（共 {res.count} 处）")
    rows = searcher.rows(res, (args.page - 1) * size, size)
    if args.csv:
        n = searcher.export_csv(res, args.csv)
        print(L(f"已写入 {n} 条：{args.csv}"), file=sys.stderr)
    if args.json:
        print(json.dumps({"phrases": res.phrases, "count": res.count, "by_layer": res.by_layer,
                          "by_work": res.by_work, "page": args.page, "pages": pages,
                          "rows": [r.to_json() for r in rows]}, ensure_ascii=False, indent=1))
        return 0
    layers = "、".join(f"{LAYER_NAMES.get(k, k)} {v}" for k, v in sorted(res.by_layer.items(), key=lambda x: -x[1]))
    print(f"「{'」+「'.join(res.phrases)}」" + L(f"共 {res.count} 处（{layers or '无'}）；第 {args.page}/{pages} 页"))
    for r in rows:
        print(f"{r.coord}  {r.title}卷{r.juan}  {r.left}【{r.match}】{r.right}")
    return 0


def cmd_topics(args) -> int:
    from .ask.engine import check_question
    from .corpus.topics import format_report, report
    eng = _engine(args)
    sk = eng.skeleton
    if len(sk) == 0:
        raise PackError("语料包中没有主题骨架（旧版语料包）。请运行 `nanshan build-corpus` 重建。")
    if args.match:
        m = eng.matcher.match(check_question(args.match))
        data = {"confidence": m.confidence, "main": [x.to_json() for x in m.main],
                "ranked": [x.to_json() for x in m.ranked[:8]],
                "parts": [p.text for p in m.analysis.parts]}
        if args.json:
            print(json.dumps(data, ensure_ascii=False, indent=1))
        else:
            print(L("把握：") + f"{m.confidence}" + L("；分句：") + " | ".join(data["parts"]))
            for x in m.ranked[:8]:
                lead = "★" if any(x.topic.id == y.topic.id for y in m.main) else " "
                print(f"{lead} {x.topic.label()}  {x.topic.id}  {x.score:.1f}  {'、'.join(x.evidence)}")
        return 0
    if args.id:
        t = sk.get(args.id)
        if t is None:
            raise NanshanError(f"没有主题 {args.id}（例如 m.pc.37、k.07、p.14）")
        if args.json:
            print(json.dumps({**t.to_json(), "names": t.names, "phrasings": t.phrasings, "keywords": t.keywords,
                              "text": t.text, "anchors": [a.__dict__ for a in sk.anchors(t)]},
                             ensure_ascii=False, indent=1))
            return 0
        print(f"{t.label()}  [{t.id}]  " + L("名：") + "、".join(t.names))
        if t.text:
            print(L("戒本：") + t.text)
        if t.phrasings:
            print(L("白话：") + "、".join(t.phrasings))
        for a in sk.anchors(t):
            line = eng.pack.line_by_id(a.line)
            print(f"  {a.layer:<8} {a.work} {a.role:<9} {line.coord}  {line.text[:30]}")
        return 0
    r = report(sk)
    print(json.dumps(r, ensure_ascii=False, indent=1) if args.json else format_report(r))
    return 0


def cmd_line(args) -> int:
    from .corpus.pack import open_pack
    pack = open_pack(args.pack)
    print(pack.line(args.coord).text)
    return 0


def _engine(args):
    from .ask.engine import Engine
    from .corpus.pack import open_pack
    return Engine(open_pack(getattr(args, "pack", None)))


def format_result(res) -> str:
    """The readable form of an answer: question, terms, the answer with coordinates, the materials."""
    from .corpus.works import LAYER_NAMES
    d = res.to_json()
    # L() turns our own labels into the language LANG asks for; what the corpus says (quotations,
    # titles, material text, topic names, terms) and the reader's question are printed as they are
    out = [L("问题：") + d["question"], L("类别：") + L(d["category"])]
    if d["refused"]:
        out.append(L(d["refusal"]))
        if d["scope"].get("suggestion"):
            out.append(L("可以这样问：") + L(d["scope"]["suggestion"]))
        return "\n".join(out)
    if d["topics"]:
        how = L("依义推及的主题") if d["scope"]["outcome"] == "silent" else L("主题")
        out.append(f"{how}：" + "、".join(t["label"] for t in d["topics"]) + L(f"（把握 {d['confidence']:.2f}）"))
    if d["suggestions"]:
        out.append(L("未能确定问的是哪一条。您是否想问：") + "；".join(f"{t['label']}（{t['id']}）" for t in d["suggestions"]))
    src = {"glossary": "词表", "question": "问句", "map": "词对照", "offence": "罪名", "model": "模型", "user": "自定", "topic": "主题"}
    out.append(L("检索用语：") + ("、".join(f"{t['text']}（{L(src.get(t['source'], t['source']))}）"
                                       for t in d["term_sources"]) or L("（无）")))
    if res.selection.dropped:
        out.append(L("过于常见而未用：") + "、".join(res.selection.dropped))
    if d["clue_topics"]:
        out.append(L("线索：") + "、".join(d["clue_topics"]))
    out.append("")
    coords = {}
    for c in res.answer.citations:
        coords[(c.material, c.quote)] = c
    for line in d["answer"]["text"].splitlines():
        out.append(line if res.model else L(line))       # a model's words are its own
    out.append("")
    out.append(L("引文核验："))
    for c in res.answer.citations:
        where = c.coord or L("无坐标")
        level = L({"line": "行级", "paragraph": "段级", "unverified": "此处出处未通过核验"}[c.level])
        fix = L(f"（材料号已由 {c.corrected_from} 更正）") if c.corrected_from else ""
        out.append(f"  材料{c.material} {where} [{level}]{fix} 「{c.quote[:30]}{'…' if len(c.quote) > 30 else ''}」")
    out.append("")
    out.append(L("材料："))
    for m in res.materials:
        mark = L({"clue": "线索", "link": "注释对应", "search": "检索", "topic": "主题"}[m.source])
        layer = f"{LAYER_NAMES[m.layer]}（{m.group}）" if m.group else LAYER_NAMES[m.layer]
        out.append(f"[{m.n}] {layer}·《{m.title}》卷{m.juan} {m.start_coord}（{mark}）")
        out.append("    " + m.text)
    if d.get("notes"):
        out.extend(L(n) for n in d["notes"])
    model = d.get("model") or {}
    if model.get("cached"):
        out.append(L(f"模型回答{model['cached']['label']}，引文已重新核验；加 --regenerate 让模型重新生成。"))
    if model.get("set_aside"):
        out.append(L("模型草稿（未采用，未经核验，不能引用）："))
        out.extend("    " + line for line in model.get("draft", "").splitlines())   # the model's words, as written
    t = d["timing_ms"]
    out.append(L("用时：") + " · ".join(f"{k} {v:.0f} ms" for k, v in t.items()))
    return "\n".join(out)


def cmd_doctor(args) -> int:
    from .tools.doctor import FAIL, format_findings, run
    findings = run(args.pack)
    if args.json:
        print(json.dumps([f.to_json() for f in findings], ensure_ascii=False, indent=1))
    else:
        print(L(format_findings(findings)))
    return 1 if any(f.status == FAIL for f in findings) else 0


def cmd_ask(args) -> int:
    question = read_question(args)
    engine = _engine(args)
    terms = [t for t in args.terms.split(",")] if args.terms else None
    topics = [t.strip() for t in args.topic.split(",") if t.strip()] if args.topic else None
    if args.model:
        from .ask.llm import ask_with_model
        from .ask.remembered import AnswerCache
        res = ask_with_model(engine, question, args.model, terms=terms,
                             on_token=None if args.json else _stream_to_stderr, topics=topics,
                             cache=None if args.no_cache else AnswerCache(), regenerate=args.regenerate)
    else:
        res = engine.ask(question, terms=terms, topics=topics)
    if args.json:
        print(json.dumps(res.to_json(), ensure_ascii=False, indent=1))
    else:
        print(format_result(res))
    return 0


def _stream_to_stderr(token: str) -> None:
    sys.stderr.write(token)
    sys.stderr.flush()


def _eval_progress(args):
    """Questions done, on stderr as the pack build shows its stages (none with --json)."""
    if args.json:
        return None
    printer = ProgressPrinter()
    return lambda k, n, qid: printer("eval", k + 1, n, qid)


def cmd_eval(args) -> int:
    from .tools.evaluate import (format_report, format_scope_report, is_scope_set, run, run_scope,
                                 scope_cross_validation)
    from .paths import find_cbeta
    if args.questions is None and not args.scope_cv:
        raise SystemExit(L("请给出问题集（.jsonl），或用 --scope-cv 评测范围闸门。"))
    if args.scope_cv and args.questions is not None:
        raise SystemExit(L("--scope-cv 不另取问题集：它用 resources/scope 的标注问题。"))
    if args.questions is not None and not Path(args.questions).is_file():
        raise SystemExit(L("找不到问题集：") + args.questions)
    engine = _engine(args)
    if args.scope_cv:
        report = scope_cross_validation(engine, progress=_eval_progress(args))
        return _print_report(args, report, format_scope_report)
    if is_scope_set(Path(args.questions)):       # a set labelled with the gate's outcomes
        report = run_scope(engine, Path(args.questions), progress=_eval_progress(args))
        return _print_report(args, report, format_scope_report)
    cbeta = find_cbeta(args.cbeta) or Path(engine.pack.manifest["cbeta"]["source"])
    ask = None
    if args.model:
        from .ask.llm import ask_with_model, load_model
        model = load_model(args.model)
        ask = lambda q: ask_with_model(engine, q, model)  # noqa: E731
    report = run(engine, Path(args.questions), cbeta, ask=ask, progress=_eval_progress(args))
    return _print_report(args, report, format_report)


def _print_report(args, report: dict, fmt) -> int:
    """An evaluation's report as JSON (--json) or read by ``fmt`` (figures only with --summary)."""
    print(json.dumps(report, ensure_ascii=False, indent=1) if args.json else fmt(report, summary_only=args.summary))
    return 0


def cmd_bench(args) -> int:
    from .tools.bench import format_bench, questions_from, run
    engine = _engine(args)
    report = run(engine, questions_from(args.questions), repeat=args.repeat, gui=not args.no_gui, model=args.model,
                 model_questions=args.model_questions, model_block=args.model_block)
    print(json.dumps(report, ensure_ascii=False, indent=1) if args.json else format_bench(report))
    return 0


def cmd_open(args) -> int:
    """Launch the GUI at a coordinate (the GUI itself lives in app/, started as a process)."""
    import subprocess
    from .corpus.coords import parse
    parse(args.coord)  # a malformed coordinate is refused here, before a window opens
    cmd = [sys.executable, "-m", "app.main", "--open", args.coord]
    if args.pack:
        cmd += ["--pack", args.pack]
    return subprocess.call(cmd)


def cmd_feedback(args) -> int:
    """The reader's marks (有帮助 / 不相关 / 出处有误), counted or written out; read locally only."""
    from .feedback import FeedbackStore, format_summary
    store = FeedbackStore()
    if store.message:
        print(store.message, file=sys.stderr)
    if args.export:
        try:
            n = store.export_jsonl(args.export)
        except OSError as exc:
            raise NanshanError(f"无法写入 {args.export}（{exc.strerror or exc}）") from None
        print(f"已导出 {n} 条反馈：{args.export}", file=sys.stderr)
    if args.json:
        print(json.dumps({"path": str(store.path), **store.summary()}, ensure_ascii=False, indent=1))
    elif args.summary or not args.export:
        print(format_summary(store.summary(), store.path))
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nanshan", description="南山问律：律典问答与原文核对（离线）")
    sub = p.add_subparsers(dest="cmd", required=True)

    b = sub.add_parser("build-corpus", help="从 CBETA XML 生成语料包")
    b.add_argument("--cbeta", help="CBETA TEI P5 目录（默认：NANSHAN_CBETA_DIR 或 ../shared/cbeta）")
    b.add_argument("--out", help="输出目录（默认：项目内 corpus_pack/）")
    b.add_argument("--works", help="逗号分隔的经号，如 T1428,T1804；all = CBETA 目录中的全部律部（默认：21 部默认语料）")
    b.add_argument("--if-stale", action="store_true",
                   help="只在语料包缺失或与当前程序不符时重建")
    b.set_defaults(func=cmd_build_corpus)

    d = sub.add_parser("doctor", help="检查语料包、字体、模型运行库与用户数据，并说明如何处理")
    d.add_argument("--pack")
    d.add_argument("--json", action="store_true")
    d.set_defaults(func=cmd_doctor)

    a = sub.add_parser("ask", help="提一个问题，得到三层引文答案")
    a.add_argument("question", nargs="?")
    a.add_argument("--question-file", metavar="FILE", help="从文件读取问题（UTF-8；- 表示标准输入）")
    a.add_argument("--json", action="store_true", help="输出 JSON（格式见 DESIGN.md）")
    a.add_argument("--model", help="本地 GGUF 模型文件（可选）")
    a.add_argument("--regenerate", action="store_true", help="不用已缓存的模型回答，让模型重新生成")
    a.add_argument("--no-cache", action="store_true", help="不读也不存模型回答缓存")
    a.add_argument("--terms", help="逗号分隔的检索用语，代替自动选词")
    a.add_argument("--topic", help="逗号分隔的主题编号（如 m.pc.37），就这些主题作答（见「您是否想问」）")
    a.add_argument("--pack")
    a.set_defaults(func=cmd_ask)

    e = sub.add_parser("eval", help="在带标准答案的问题集上评测")
    e.add_argument("questions", nargs="?", help="问题集（.jsonl）；用 --scope-cv 时不给")
    e.add_argument("--scope-cv", action="store_true",
                   help="范围闸门的留一文件交叉验证：resources/scope 每个标注文件由用其余文件训练的分类器判")
    e.add_argument("--json", action="store_true")
    e.add_argument("--model")
    e.add_argument("--cbeta", help="核对行号用的 CBETA 原始 XML 目录")
    e.add_argument("--summary", action="store_true", help="只印总数，不列逐题未中（留出集用）")
    e.add_argument("--pack")
    e.set_defaults(func=cmd_eval)

    bn = sub.add_parser("bench", help="测量速度与内存（与同次运行的基线对比）")
    bn.add_argument("--json", action="store_true")
    bn.add_argument("--questions", help="问题集 JSONL（默认：内置 16 问）")
    bn.add_argument("--repeat", type=int, default=3)
    bn.add_argument("--no-gui", action="store_true", help="不测 GUI 指标")
    bn.add_argument("--model", help="同时测本地 GGUF 模型的速度（读提示、首字、写作分开计）")
    bn.add_argument("--model-questions", type=int, default=3, help="测模型用的问题数（默认 3）")
    bn.add_argument("--model-block", choices=("focused", "whole", "both"), default="focused",
                    help="给模型的材料：focused 命中句及前后各一句（默认），whole 整段，both 两者都测并给出比值")
    bn.add_argument("--pack")
    bn.set_defaults(func=cmd_bench)

    op = sub.add_parser("open", help="打开桌面程序并跳到某一行")
    op.add_argument("coord")
    op.add_argument("--pack")
    op.set_defaults(func=cmd_open)

    se = sub.add_parser("search", help="原文检索（逐字，繁简通检）：每处出现及其坐标")
    se.add_argument("phrases", nargs="+", help="一个或几个词句（几个时须同在一段）")
    se.add_argument("--within", type=int, help="几个词句须在此字数之内")
    se.add_argument("--layer", choices=["vinaya", "daoxuan", "yuanzhao", "other"])
    se.add_argument("--work", help="逗号分隔的经号，如 T1428,T1804")
    se.add_argument("--page", type=int, default=1, help="第几页（每页 --page-size 条）")
    se.add_argument("--page-size", type=int, default=50)
    se.add_argument("--csv", help="全部结果写入 CSV 文件")
    se.add_argument("--json", action="store_true")
    se.add_argument("--pack")
    se.set_defaults(func=cmd_search)

    tp = sub.add_parser("topics", help="主题骨架：戒条、犍度、篇及其在各层的位置")
    tp.add_argument("--report", action="store_true", help="各篇聚条数与各层覆盖报告")
    tp.add_argument("--match", metavar="问题", help="显示一个问题匹配到的主题")
    tp.add_argument("id", nargs="?", help="显示一个主题（如 m.pc.37）")
    tp.add_argument("--json", action="store_true")
    tp.add_argument("--pack")
    tp.set_defaults(func=cmd_topics)

    fb = sub.add_parser("feedback", help="读者反馈（有帮助／不相关／出处有误）：统计或导出，只存在本机")
    fb.add_argument("--summary", action="store_true", help="按类别、层、典籍与坐标统计（默认）")
    fb.add_argument("--export", metavar="FILE", help="全部反馈写入 JSONL 文件（每行一条，UTF-8）")
    fb.add_argument("--json", action="store_true", help="统计以 JSON 输出")
    fb.set_defaults(func=cmd_feedback)

    ln = sub.add_parser("line", help="打印一行原文（与 CBETA 字符完全一致）")
    ln.add_argument("coord")
    ln.add_argument("--pack")
    ln.set_defaults(func=cmd_line)
    return p


def main(argv: list[str] | None = None) -> int:
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(sys.stdout), SafeStream(sys.stderr)
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = saved


def localize_help(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """--help in the language LANG asks for (the strings above are written in 简体)."""
    parser.description = L(parser.description) if parser.description else parser.description
    for action in parser._actions:
        if action.help and action.help != argparse.SUPPRESS:
            action.help = L(action.help)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action._choices_actions:
                sub.help = L(sub.help) if sub.help else sub.help
            for sub in dict.fromkeys(action.choices.values()):
                localize_help(sub)
    return parser


def _main(argv: list[str] | None) -> int:
    parser = localize_help(build_parser())
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except NanshanError as exc:
        print(L(f"错误：{exc}"), file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(L("已中断"), file=sys.stderr)
        return 130
    except BrokenPipeError:          # output piped into head/less and closed early
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
