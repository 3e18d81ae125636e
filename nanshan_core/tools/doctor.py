"""`nanshan doctor`: what is wrong with this installation, and how to fix each thing.

A reader without internet cannot search an error message; the app has to say what it found and
what to do.  Each check looks at one thing (the pack, the CBETA source for rebuilding, the fonts,
the model runtime and the remembered model, the user-data files, the cache) and reports ok / warn /
fail with a fix in one sentence.  The GUI's 帮助 → 检查环境 runs the same checks and adds Qt's own
font check, which this module cannot do (it never imports Qt).
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..errors import NanshanError

OK, WARN, FAIL = "ok", "warn", "fail"
MARKS = {OK: "✓", WARN: "!", FAIL: "✗"}
LOW_DISK = 500 * 1024 * 1024


@dataclass
class Finding:
    name: str
    status: str
    detail: str
    fix: str = ""

    def to_json(self) -> dict:
        return self.__dict__.copy()


def check_pack(path: str | os.PathLike | None = None) -> list[Finding]:
    """Integrity (every file's sha256, timed), schema, and counts the manifest promises."""
    from ..corpus.pack import Pack
    from ..paths import default_pack_dir
    where = default_pack_dir(path)
    if not (where / "manifest.json").exists():
        return [Finding("语料包", FAIL, f"{where} 中没有语料包",
                        "运行 `nanshan build-corpus`（或启动程序时按提示生成）")]
    t = time.perf_counter()
    try:
        pack = Pack(where, verify="full")
    except NanshanError as exc:
        return [Finding("语料包", FAIL, str(exc), "运行 `nanshan build-corpus` 重新生成语料包")]
    ms = (time.perf_counter() - t) * 1000
    m = pack.manifest
    out = [Finding("语料包完整性", OK, f"{where}：{len(m['files'])} 个文件的校验和全部相符（{ms:.0f} ms）")]
    totals = m.get("totals", {})
    try:
        lines = pack.db.execute("SELECT COUNT(*) FROM lines").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return out + [Finding("语料包内容", FAIL, f"数据库无法读取（{exc}）", "运行 `nanshan build-corpus` 重新生成")]
    if totals.get("lines") not in (None, lines):
        out.append(Finding("语料包内容", FAIL, f"清单记 {totals['lines']} 行，数据库有 {lines} 行",
                           "运行 `nanshan build-corpus` 重新生成"))
    else:
        out.append(Finding("语料包内容", OK, f"{len(pack.works)} 部 · {totals.get('fascicles', '?')} 卷 · {lines} 行"
                           f"（格式版本 {m.get('schema')}）"))
    return out


def check_cbeta() -> Finding:
    from ..paths import find_cbeta
    found = find_cbeta()
    if found is None:
        return Finding("CBETA 原文", WARN, "找不到 CBETA XML 目录（只在重新生成语料包时需要）",
                       "把 CBETA TEI P5 目录放在程序旁的 ../shared/cbeta，或用 --cbeta / NANSHAN_CBETA_DIR 指定")
    return Finding("CBETA 原文", OK, str(found))


def check_fonts_fc() -> Finding:
    """Without Qt: ask fontconfig (Linux) for a font that covers Chinese."""
    if not shutil.which("fc-list"):
        return Finding("中文字体", WARN, "无法在命令行检查字体（没有 fc-list）", "在程序中用 帮助 → 检查环境 检查")
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        return Finding("中文字体", WARN, f"fc-list 无法运行（{exc}）", "在程序中用 帮助 → 检查环境 检查")
    families = sorted({f.split(",")[0].strip() for f in out.splitlines() if f.strip()})
    if not families:
        return Finding("中文字体", FAIL, "系统中没有能显示中文的字体",
                       "安装 Noto CJK（Debian/Ubuntu：sudo apt install fonts-noto-cjk）")
    return Finding("中文字体", OK, "、".join(families[:4]) + ("…" if len(families) > 4 else ""))


def check_model(userdata) -> list[Finding]:
    from ..ask import llm
    out = []
    if llm.runtime_available():
        import llama_cpp
        out.append(Finding("模型运行库", OK, f"llama-cpp-python {getattr(llama_cpp, '__version__', '?')}"))
    else:
        out.append(Finding("模型运行库", WARN, "未安装 llama-cpp-python：只能用摘录答案（不影响引文与坐标）",
                           "如需模型撰写：pip install llama-cpp-python，或运行 build_scripts/install_llm.sh"))
    remembered = userdata.get("model_path", "") if userdata else ""
    if remembered:
        try:
            size = llm.check_file(remembered)
            out.append(Finding("上次使用的模型", OK, f"{remembered}（{size / 1e6:.0f} MB）"))
        except NanshanError as exc:
            out.append(Finding("上次使用的模型", WARN, str(exc), "在 模型 菜单中重新选择一个 .gguf 文件"))
    return out


def check_userdata(userdata) -> list[Finding]:
    """Files that could not be read were moved aside when loading; say so, and where."""
    from ..feedback import FeedbackStore
    out = []
    feedback = FeedbackStore(userdata.data_dir)
    for msg in userdata.messages + ([feedback.message] if feedback.message else []):
        out.append(Finding("用户数据", WARN, msg, "原文件已另存为 .corrupt-… ，可手工查看；程序已用空白记录继续"))
    for d in (userdata.data_dir, userdata.config_dir):
        if d.exists() and not os.access(d, os.W_OK):
            out.append(Finding("用户数据", FAIL, f"{d} 不可写：书签与历史无法保存", "检查该目录的权限"))
    free = shutil.disk_usage(_existing(userdata.data_dir)).free
    if free < LOW_DISK:
        out.append(Finding("磁盘空间", WARN, f"用户数据所在磁盘只剩 {free / 1e6:.0f} MB",
                           "清理磁盘；书签栏的「另存…」可把书签与历史存到别处"))
    if not out:
        out.append(Finding("用户数据", OK, f"历史 {len(userdata.history)} 条 · 书签 {len(userdata.bookmarks)} 个 · "
                           f"反馈 {len(feedback)} 条 · {userdata.data_dir}"))
    return out


def _existing(p: Path) -> Path:
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def run(pack: str | os.PathLike | None = None, fonts: bool = True, userdata=None) -> list[Finding]:
    """Every check; the GUI passes its own UserData (and checks fonts with Qt instead)."""
    from ..userdata import UserData
    userdata = userdata or UserData()
    findings = check_pack(pack) + [check_cbeta()]
    if fonts:
        findings.append(check_fonts_fc())
    findings += check_model(userdata) + check_userdata(userdata)
    return findings


def format_findings(findings: list[Finding]) -> str:
    lines = []
    for f in findings:
        lines.append(f"{MARKS[f.status]} {f.name}：{f.detail}")
        if f.fix and f.status != OK:
            lines.append(f"    处理：{f.fix}")
    bad = sum(f.status == FAIL for f in findings)
    warn = sum(f.status == WARN for f in findings)
    lines.append("一切正常。" if not bad and not warn else f"{bad} 项错误，{warn} 项提示。")
    return "\n".join(lines)
