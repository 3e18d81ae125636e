"""The 繁體 interface: keep resources/i18n/nanshan_zh_TW.ts and compile it to .qm.

    python build_scripts/translations.py            # lupdate app/, fill new entries, lrelease
    python build_scripts/translations.py --release  # only compile the .ts to .qm (builds do this)
    python build_scripts/translations.py --check    # exit 1 if the .ts is not current (CI, tests)

The source strings are 简体 (zh_CN).  pyside6-lupdate collects them from app/*.py
into the .ts, which is committed: it is our own data, and the place a reviewer
corrects a translation.  An entry without a translation gets OpenCC s2twp (Taiwan
characters and phrases) plus the reviewed Taiwan interface words of
nanshan_core.i18n; an entry that already has one keeps it, so a reviewed word
survives every update.  The .qm is a build product (git-ignored): setup_env.sh
and freeze.py run --release.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nanshan_core.i18n import to_traditional  # noqa: E402

TS = ROOT / "resources" / "i18n" / "nanshan_zh_TW.ts"
QM = TS.with_suffix(".qm")
SOURCES = ROOT / "app"


def tool(name: str) -> str:
    """pyside6-lupdate / -lrelease beside this Python (the venv), else on PATH."""
    here = Path(sys.executable).parent / name
    found = str(here) if here.exists() else shutil.which(name)
    if not found:
        raise SystemExit(f"找不到 {name}：请在项目的虚拟环境中运行（PySide6 自带）")
    return found


def lupdate(ts: Path) -> None:
    files = sorted(str(p) for p in SOURCES.glob("*.py"))
    subprocess.run([tool("pyside6-lupdate"), "-silent", "-no-obsolete", "-locations", "none",
                    "-source-language", "zh_CN", "-target-language", "zh_TW", *files, "-ts", str(ts)],
                   check=True, cwd=ROOT)


def machine(source: str) -> str:
    """The first-pass translation of one interface string."""
    return to_traditional(source)


def fill(ts: Path) -> tuple[int, int]:
    """Translate the unfinished entries; returns (filled, kept)."""
    tree = ET.parse(ts)
    filled = kept = 0
    for msg in tree.getroot().iter("message"):
        tr = msg.find("translation")
        if tr is None:
            tr = ET.SubElement(msg, "translation")
        if tr.get("type") == "unfinished" or not tr.text:
            tr.text = machine(msg.findtext("source") or "")
            tr.attrib.pop("type", None)
            filled += 1
        else:
            kept += 1
    ET.indent(tree, "    ")
    body = ET.tostring(tree.getroot(), encoding="unicode")
    ts.write_text('<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n' + body + "\n", encoding="utf-8")
    return filled, kept


def release(ts: Path = TS, qm: Path = QM) -> Path:
    subprocess.run([tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True, cwd=ROOT)
    return qm


def sources(ts: Path) -> set[tuple[str, str]]:
    root = ET.parse(ts).getroot()
    return {(ctx.findtext("name"), m.findtext("source")) for ctx in root.iter("context") for m in ctx.iter("message")}


def is_current() -> bool:
    """Does lupdate over app/ find exactly the strings the committed .ts holds?"""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / TS.name
        lupdate(fresh)
        return sources(fresh) == sources(TS)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--release", action="store_true", help="只把 .ts 编译为 .qm")
    ap.add_argument("--check", action="store_true", help="检查 .ts 是否包含 app/ 的全部界面字符串")
    args = ap.parse_args(argv)
    if args.check:
        if is_current():
            return 0
        print(f"{TS.relative_to(ROOT)} 不是最新：请运行 python build_scripts/translations.py", file=sys.stderr)
        return 1
    if not args.release:
        TS.parent.mkdir(parents=True, exist_ok=True)
        lupdate(TS)
        filled, kept = fill(TS)
        print(f"{TS.relative_to(ROOT)}：新译 {filled} 条（OpenCC s2twp），保留 {kept} 条")
    release()
    print(f"已生成 {QM.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
