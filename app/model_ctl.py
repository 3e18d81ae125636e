"""The optional local model, as the window holds it: chosen, loaded, remembered.

A GGUF is loaded in a worker thread of its own, so the window stays live for
the seconds (or minutes, for a large model) that takes.  Whether the
llama-cpp-python runtime is installed is also found out there: importing it
loads native libraries, which a cold start should not wait for.

One model at a time, and never touched by two threads: the controller will
not load, reload or drop a model while the window has told it that a
generation is running (``generating``), and a load first checks the new file
cheaply and only then releases the old model, so choosing a broken file
keeps the model that works.  Nothing here downloads anything: a model is a
file the reader picked, passed with --model, or put in ``llm.models_dir()``.
"""
from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Signal

from nanshan_core.ask import llm
from nanshan_core.ask.remembered import AnswerCache
from nanshan_core.errors import ModelError

from .workers import Runner, Task

CONTEXT_CHOICES = (2048, 4096, 8192)
TIMEOUT_CHOICES = (60.0, 120.0, 240.0, 600.0)
# marked here, translated where shown: translate("ModelController", INSTALL_HINT)
INSTALL_HINT = QT_TRANSLATE_NOOP("ModelController",
                                 "本地模型需要 llama-cpp-python：在程序目录运行 bash build_scripts/install_llm.sh"
                                 "（一次编译，约 6 分钟，需要 build-essential），然后重新启动南山问律。"
                                 "详见 README「Local model」一节。不用模型也能正常问答。")
UNAVAILABLE = QT_TRANSLATE_NOOP("ModelController", "模型功能不可用（未安装 llama-cpp-python）")


def generation_threads() -> int:
    """All cores but one: the window must keep a core to paint the streamed tokens.

    On a two-core machine two llama.cpp threads fighting the GUI thread (and
    anything else running) make decoding erratic, often many times slower.
    """
    return max(1, (os.cpu_count() or 2) - 1)


class LoadFailed(ModelError):
    """A load that failed; ``released`` says whether the previous model was already let go."""

    def __init__(self, message: str, released: bool):
        super().__init__(message)
        self.released = released


def _load(path: str, n_ctx: int, chat_format: str | None, old) -> llm.LocalModel:
    """Worker thread: cheap checks first (a bad file leaves ``old`` in place), then swap."""
    try:
        llm.check_file(path)
        if not llm.runtime_available():
            raise ModelError(f"{UNAVAILABLE}。{INSTALL_HINT}")
    except ModelError as exc:
        raise LoadFailed(str(exc), released=False) from None
    release(old)                 # two models in memory at once could exhaust a small machine
    try:
        return llm.load_model(path, n_ctx=n_ctx, chat_format=chat_format, n_threads=generation_threads())
    except ModelError as exc:
        raise LoadFailed(str(exc), released=old is not None) from None


def release(model) -> None:
    """Free llama.cpp's memory now rather than whenever the garbage collector runs."""
    close = getattr(getattr(model, "llama", None), "close", None)
    if close is not None:
        try:
            close()
        except Exception:  # noqa: BLE001 - freeing must never take the window down
            pass


class ModelController(QObject):
    """State of the local model for one window; every change is said through a signal."""

    runtimeKnown = Signal(bool)
    loading = Signal(str)             # the file being loaded
    loaded = Signal(object)           # ModelInfo
    failed = Signal(str)              # a message for the reader
    unloaded = Signal()
    changed = Signal()                # anything the menu or indicator shows

    def __init__(self, userdata, parent: QObject | None = None):
        super().__init__(parent)
        self.userdata = userdata
        self.runner = Runner(1, self)
        self.model: llm.LocalModel | None = None
        self.runtime: bool | None = None        # None until the background check has answered
        self.loading_path: str | None = None
        self.generating = False                 # set by the window around a generation
        self.last_error: str | None = None
        self._pending: str | None = None         # load this once the runtime check has answered
        self._closed = False
        self.answers = AnswerCache()             # remembered model answers (user cache)

    # -- settings -----------------------------------------------------------------------
    def _number(self, key: str, kind, default):
        """A numeric setting; a hand-edited or damaged value falls back to the default."""
        try:
            return kind(self.userdata.get(key) or default)
        except (TypeError, ValueError):
            return default

    @property
    def n_ctx(self) -> int:
        return self._number("model_ctx", int, llm.DEFAULT_CTX)

    @property
    def timeout(self) -> float:
        return self._number("model_timeout", float, llm.DEFAULT_TIMEOUT)

    def chat_format_for(self, path: str) -> str | None:
        formats = self.userdata.get("model_formats", {})
        fmt = formats.get(str(path)) if isinstance(formats, dict) else None
        return fmt if fmt in llm.CHAT_FORMATS else None

    def _remember(self, key: str, value) -> str | None:
        try:
            self.userdata.set(key, value)
            return None
        except OSError as exc:
            return self.tr("无法保存设置（{exc}）。").format(exc=exc)

    # -- state ---------------------------------------------------------------------------
    @property
    def info(self) -> llm.ModelInfo | None:
        return self.model.info if self.model is not None else None

    @property
    def busy(self) -> bool:
        """Loading, or generating: the model must not be swapped now."""
        return self.loading_path is not None or self.generating

    def usable(self) -> llm.LocalModel | None:
        """The model to ask with, or None (no model, or one is being loaded)."""
        return None if self.loading_path is not None else self.model

    # -- start ---------------------------------------------------------------------------
    def start(self, path: str | None = None, autoload: bool = True) -> None:
        """Check the runtime in the background; then load ``path`` or the remembered model."""
        remembered = (self.userdata.get("model_path", "") or None) if autoload else None
        self._pending = path or remembered
        self.runner.start(Task(llm.runtime_available), self._runtime_checked,
                          lambda msg, exc: self._runtime_checked(False))

    def _runtime_checked(self, ok) -> None:
        self.runtime = bool(ok)
        if self._closed:
            return
        self.runtimeKnown.emit(self.runtime)
        self.changed.emit()
        pending, self._pending = self._pending, None
        if not pending:
            return
        if pending == self.userdata.get("model_path", ""):
            if not Path(pending).is_file():
                self._remember("model_path", None)
                self._fail(self.tr("上次选用的模型文件不见了：{path}。本次不用模型，可在「模型」菜单重新选择。").format(path=pending))
                return
            if not self.runtime:
                self._fail(self.tr("{unavailable}，上次选用的模型 {name} 没有加载。{hint}").format(
                    unavailable=self.tr(UNAVAILABLE), name=Path(pending).name, hint=self.tr(INSTALL_HINT)))
                return
        self.load(pending)          # --model FILE: a bad file gets load's own clear message

    # -- load and unload ---------------------------------------------------------------
    def load(self, path: str | os.PathLike, chat_format: str | None = None, n_ctx: int | None = None) -> bool:
        """Load in the worker; False (with ``failed``) when a model may not be swapped now."""
        if self.generating:
            self._fail(self.tr("模型正在作答，请先停止或等它写完再换模型。"))
            return False
        if self.loading_path is not None:
            self._fail(self.tr("上一个模型还在加载，请稍候。"))
            return False
        path = str(path)
        fmt = chat_format or self.chat_format_for(path)
        old = self.model
        self.model = None                 # from now on no ask may pick up the old model
        self.loading_path = path
        self.last_error = None
        self.loading.emit(path)
        self.changed.emit()
        self.runner.start(Task(_load, path, n_ctx or self.n_ctx, fmt, old),
                          self._loaded, lambda msg, exc: self._load_failed(msg, exc, old))
        return True

    def _loaded(self, model) -> None:
        self.loading_path = None
        if self._closed:             # the window went away while this was loading
            release(model)
            return
        self.model = model
        note = self._remember("model_path", model.info.path)
        self.loaded.emit(model.info)
        self.changed.emit()
        if note:
            self._fail(note)

    def _load_failed(self, message: str, exc, old) -> None:
        self.loading_path = None
        released = getattr(exc, "released", True)
        if old is not None and not released:
            self.model = old
            message += self.tr(" 仍在使用原来的模型 {name}。").format(name=old.info.name)
        elif old is not None:
            message += self.tr(" 原来的模型已卸载，现在不用模型作答。")
        self._fail(message)
        self.changed.emit()

    def _fail(self, message: str) -> None:
        self.last_error = message
        self.failed.emit(message)

    def unload(self) -> bool:
        """Back to the extractive answer (and remembered so, for the next start)."""
        if self.busy:
            self._fail(self.tr("模型正在加载或作答，请稍候再改。"))
            return False
        old, self.model = self.model, None
        release(old)
        self._remember("model_path", None)
        self.unloaded.emit()
        self.changed.emit()
        return True

    def close(self) -> None:
        """Window closing: free the model, unless a generation or a load may still be using it
        (then the garbage collector frees it once that thread lets go)."""
        self._closed = True
        self._pending = None
        if not self.busy:
            release(self.model)
        self.model = None

    # -- settings that reload ------------------------------------------------------------
    def set_chat_format(self, fmt: str) -> bool:
        """For a GGUF without a chat template: remember the format for this file and reload with it."""
        if fmt not in llm.CHAT_FORMATS or self.model is None:
            return False
        path = self.model.info.path
        formats = dict(self.userdata.get("model_formats", {}))
        formats[path] = fmt
        note = self._remember("model_formats", formats)
        if note:
            self._fail(note)
        if self.model.info.chat_format == fmt:
            return True
        return self.load(path, chat_format=fmt)

    def set_ctx(self, n_ctx: int) -> bool:
        """Remember the context length; a loaded model is reloaded with it."""
        note = self._remember("model_ctx", int(n_ctx))
        if note:
            self._fail(note)
        info = self.info
        if info is not None and info.n_ctx != min(int(n_ctx), info.train_ctx or int(n_ctx)):
            return self.load(info.path, n_ctx=int(n_ctx))
        self.changed.emit()
        return True

    def set_timeout(self, seconds: float) -> None:
        note = self._remember("model_timeout", float(seconds))
        if note:
            self._fail(note)
        self.changed.emit()
