"""Build the frozen desktop app: a PyInstaller one-folder bundle with the prebuilt corpus pack.

    python build_scripts/freeze.py [--dist DIR] [--pack DIR] [--cbeta DIR] [--no-selftest]

The bundle at DIR/nanshan-wenlu/ runs without Python, CBETA or a network: it
carries the app, resources/, the default corpus pack (built from the CBETA
tree first if missing or stale), OpenCC's dictionaries, a CJK font pair under
the SIL Open Font Licence (so Chinese renders where no CJK font is installed)
and, when llama-cpp-python is installed, llama.cpp's shared libraries.  The
frozen executable's --selftest is run offscreen at the end.
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "build_scripts"))

from nanshan_core.corpus.build import build_pack, pack_is_current  # noqa: E402
from nanshan_core.cli import ProgressPrinter  # noqa: E402
from nanshan_core.corpus.pack import Pack  # noqa: E402
from nanshan_core.paths import find_cbeta  # noqa: E402

NAME = "nanshan-wenlu"
# Noto CJK (SIL OFL 1.1): the serif TC cut for corpus text, the sans SC cut for the interface.
FONT_FILES = ("NotoSerifCJK-Regular.ttc", "NotoSansCJK-Regular.ttc")
FONT_DIRS = ("/usr/share/fonts/opentype/noto", "/usr/share/fonts/noto-cjk", "/usr/share/fonts/google-noto-cjk",
             "/usr/local/share/fonts")
FONT_LICENCE = "/usr/share/doc/fonts-noto-cjk/copyright"

END_USER_README = """南山问律 · 桌面版
================
运行：./nanshan-gui        自检：./nanshan-gui --selftest
本文件夹自带语料包（CBETA 文本）与中文字体，无需联网、无需安装 Python。
用户数据（历史、书签、设置）：~/.local/share/nanshan-wenlu 与 ~/.config/nanshan-wenlu
本地模型：把 .gguf 文件放到 ~/.local/share/nanshan-wenlu/models/，或在程序中选择文件。
CBETA 文本依其授权供非商业使用，须保留文件头信息（见程序“关于”）。
字体 Noto Serif/Sans CJK 依 SIL Open Font License 1.1 随附（见 _internal/resources/fonts/）。
"""


def find_fonts() -> list[str]:
    out = []
    for name in FONT_FILES:
        for d in FONT_DIRS:
            p = Path(d) / name
            if p.exists():
                out.append(str(p))
                break
        else:
            raise SystemExit(f"找不到字体 {name}：请安装 Debian 包 fonts-noto-cjk（bash build_scripts/setup_env.sh 会安装）")
    if Path(FONT_LICENCE).exists():
        lic = Path(tempfile.mkdtemp()) / "LICENSE-NotoCJK.txt"
        shutil.copy(FONT_LICENCE, lic)
        out.append(str(lic))
    return out


def ensure_pack(pack: Path, cbeta: str | None) -> Path:
    if not pack_is_current(pack):
        src = find_cbeta(cbeta)
        if src is None:
            raise SystemExit("语料包缺失且找不到 CBETA 目录：请用 --cbeta DIR 指定")
        print(f"生成语料包 {pack} …", file=sys.stderr)
        build_pack(src, pack, progress=ProgressPrinter())
    Pack(pack, verify="full")  # refuse to ship a pack whose checksums do not match
    return pack


def freeze(dist: Path, pack: Path, work: Path) -> Path:
    from translations import QM, release
    release()                    # the 繁體 .qm goes into the bundle with resources/
    if not QM.exists():
        raise SystemExit(f"界面翻译未能生成：{QM}")
    env = {**os.environ, "NANSHAN_ROOT": str(ROOT), "NANSHAN_FREEZE_PACK": str(pack),
           "NANSHAN_FREEZE_FONTS": os.pathsep.join(find_fonts()), "NANSHAN_BUNDLE_NAME": NAME}
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
           "--distpath", str(dist), "--workpath", str(work), str(ROOT / "build_scripts" / "nanshan.spec")]
    subprocess.run(cmd, check=True, env=env, cwd=str(ROOT))
    bundle = dist / NAME
    (bundle / "README.txt").write_text(END_USER_README, encoding="utf-8")
    return bundle


def selftest(bundle: Path) -> str:
    """Run the frozen --selftest offscreen with private user data; returns its one line."""
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NANSHAN_", "PYTHON"))}
        env.update({"QT_QPA_PLATFORM": "offscreen", "HOME": home, "XDG_DATA_HOME": f"{home}/data",
                    "XDG_CONFIG_HOME": f"{home}/config", "LANG": "C.UTF-8"})
        proc = subprocess.run([str(bundle / "nanshan-gui"), "--selftest"], env=env, capture_output=True,
                              text=True, timeout=300)
    line = (proc.stdout.strip().splitlines() or [""])[-1]
    if proc.returncode != 0:
        raise SystemExit(f"冻结程序自检失败（退出码 {proc.returncode}）：{line or proc.stderr[-500:]}")
    return line


def du(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", default=str(ROOT / "dist"), help="输出目录（默认 dist/）")
    ap.add_argument("--pack", default=str(ROOT / "corpus_pack"), help="要打包的语料包（缺失则先生成）")
    ap.add_argument("--cbeta", help="生成语料包用的 CBETA 目录")
    ap.add_argument("--no-selftest", action="store_true")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    pack = ensure_pack(Path(args.pack).resolve(), args.cbeta)
    dist = Path(args.dist).resolve()
    bundle = freeze(dist, pack, ROOT / "build" / "pyinstaller")
    t_build = time.perf_counter() - t0
    print(f"打包完成：{bundle / 'nanshan-gui'}（用时 {t_build:.0f} 秒，共 {du(bundle) / 1e6:.0f} MB，"
          f"其中语料包 {du(pack) / 1e6:.0f} MB）")
    if not args.no_selftest:
        print("自检：" + selftest(bundle))
    return 0


if __name__ == "__main__":
    sys.exit(main())
