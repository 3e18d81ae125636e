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

from .errors import NanshanError

EXIT_ERROR = 2


class ProgressPrinter:
    """Build progress on stderr: a redrawn bar on a terminal, a line per stage change otherwise."""

    STAGES = {"parse": "读取 XML", "store": "写入行表", "index": "建立索引"}

    def __init__(self, stream=sys.stderr):
        self.stream = stream
        self.tty = stream.isatty()
        self.last_stage = None
        self.last_pct = -1

    def __call__(self, stage: str, done: int, total: int, message: str) -> None:
        pct = int(100 * done / total) if total else 100
        name = self.STAGES.get(stage, stage)
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
    from .build import build_pack
    from .paths import bundled_pack_dir, find_cbeta
    cbeta = find_cbeta(args.cbeta)
    if cbeta is None:
        raise NanshanError("找不到 CBETA 目录：请用 --cbeta DIR 指定，或设置 NANSHAN_CBETA_DIR")
    out = Path(args.out) if args.out else bundled_pack_dir()
    works = [w for w in args.works.split(",") if w.strip()] if args.works else None
    if args.if_stale:
        from .build import pack_is_current
        if pack_is_current(out, works):
            print(f"语料包已是最新：{out}")
            return 0
    t0 = time.perf_counter()
    manifest = build_pack(cbeta, out, works, progress=ProgressPrinter())
    t = manifest["totals"]
    mb = manifest["build"]["bytes"] / 1e6
    print(f"语料包已生成：{out}")
    print(f"  {t['works']} 部 · {t['fascicles']} 卷 · {t['paragraphs']} 段 · {t['lines']} 行 · "
          f"{t['cjk_chars']} 字（全部字符 {t['chars']}）· {t['passages']} 检索段")
    tm = manifest["build"]["timings"]
    print(f"  用时 {time.perf_counter() - t0:.1f} 秒（解析 {tm['parse_s']} · 写表 {tm['store_s']} · "
          f"索引 {tm['index_s']}），占用 {mb:.1f} MB")
    return 0


def cmd_line(args) -> int:
    from .pack import open_pack
    pack = open_pack(args.pack)
    print(pack.line(args.coord).text)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="nanshan", description="南山问律：律典问答与原文核对（离线）")
    sub = p.add_subparsers(dest="cmd", required=True)

    b = sub.add_parser("build-corpus", help="从 CBETA XML 生成语料包")
    b.add_argument("--cbeta", help="CBETA TEI P5 目录（默认：NANSHAN_CBETA_DIR 或 ../shared/cbeta）")
    b.add_argument("--out", help="输出目录（默认：项目内 corpus_pack/）")
    b.add_argument("--works", help="逗号分隔的经号，如 T1428,T1804（默认：21 部默认语料）")
    b.add_argument("--if-stale", action="store_true",
                   help="只在语料包缺失或与当前程序不符时重建")
    b.set_defaults(func=cmd_build_corpus)

    ln = sub.add_parser("line", help="打印一行原文（与 CBETA 字符完全一致）")
    ln.add_argument("coord")
    ln.add_argument("--pack")
    ln.set_defaults(func=cmd_line)
    return p


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except NanshanError as exc:
        print(f"错误：{exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("已中断", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
