"""Where things live: resources, the corpus pack, a CBETA tree, user data.

One place answers these so the CLI, the GUI and the frozen bundle agree.  A
frozen (PyInstaller) app looks inside its bundle first; a source checkout
uses the project root.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "nanshan-wenlu"
APP_AUTHOR = "nanshan"


def project_root() -> Path:
    """The source checkout, or the unpacked bundle when frozen."""
    if getattr(sys, "frozen", False):
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent))
    return Path(__file__).resolve().parent.parent


def resource_path(*parts: str) -> Path:
    return project_root().joinpath("resources", *parts)


def load_resource_json(name: str):
    """A JSON file of resources/; a missing or broken one is an installation error with a clear message."""
    import json
    from .errors import NanshanError
    path = resource_path(name)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NanshanError(f"程序资源缺失：{path}。安装不完整，请重新安装或从源码目录运行。") from None
    except ValueError as exc:
        raise NanshanError(f"程序资源 {path} 已损坏（{exc}）。请重新安装。") from None


def user_data_dir() -> Path:
    return Path(os.environ.get("NANSHAN_DATA_DIR") or platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))


def user_config_dir() -> Path:
    return Path(os.environ.get("NANSHAN_CONFIG_DIR") or platformdirs.user_config_dir(APP_NAME, APP_AUTHOR))


def user_cache_dir() -> Path:
    """Things rebuilt on demand (the topic index): losing them costs only time."""
    return Path(os.environ.get("NANSHAN_CACHE_DIR") or platformdirs.user_cache_dir(APP_NAME, APP_AUTHOR))


def bundled_pack_dir() -> Path:
    return project_root() / "corpus_pack"


def user_pack_dir() -> Path:
    return user_data_dir() / "corpus_pack"


def wide_pack_dir() -> Path:
    """The whole-律部 pack (``build-corpus --works all``), kept beside the default one and never
    in its place, so switching back costs nothing; NANSHAN_WIDE_PACK points elsewhere."""
    env = os.environ.get("NANSHAN_WIDE_PACK")
    return Path(env) if env else user_data_dir() / "corpus_pack_all"


def default_pack_dir(explicit: str | os.PathLike | None = None) -> Path:
    """--pack, else NANSHAN_PACK, else the bundled/built pack, else the one in user data."""
    if explicit:
        return Path(explicit)
    env = os.environ.get("NANSHAN_PACK")
    if env:
        return Path(env)
    bundled = bundled_pack_dir()
    if (bundled / "manifest.json").exists():
        return bundled
    user = user_pack_dir()
    if (user / "manifest.json").exists():
        return user
    return bundled


def cbeta_candidates() -> list[Path]:
    """CBETA trees to try, in order: NANSHAN_CBETA_DIR, then ../shared/cbeta beside the project."""
    out = []
    env = os.environ.get("NANSHAN_CBETA_DIR")
    if env:
        out.append(Path(env))
    out.append(project_root().parent / "shared" / "cbeta")
    return out


def find_cbeta(explicit: str | os.PathLike | None = None) -> Path | None:
    if explicit:
        return Path(explicit)
    for cand in cbeta_candidates():
        if (cand / "T").is_dir() or (cand / "X").is_dir():
            return cand
    return None
