"""Running engine and builder work off the GUI thread.

The window must never freeze, and a failure must come back as a message for
the window, never as a traceback.  Errors the user can cause (NanshanError)
carry their own Chinese message; anything else is a bug, printed to stderr
for the developer and reported in the window in one line.
"""
from __future__ import annotations

import sys
import traceback
from typing import Callable

from PySide6.QtCore import QCoreApplication, QObject, QRunnable, QThreadPool, Signal

from nanshan_core.errors import NanshanError


class TaskSignals(QObject):
    done = Signal(object)
    failed = Signal(str, object)     # message, the exception
    progress = Signal(object)
    token = Signal(str)              # a piece of streamed text (a model writing an answer)


class Task(QRunnable):
    """One call of ``fn`` in a pool thread; ``fn`` may take ``progress=`` to report back.

    ``stream=True`` passes ``on_token=``: each piece of text is a queued signal,
    delivered in the GUI thread in order and always before ``done``.
    """

    def __init__(self, fn: Callable, *args, with_progress: bool = False, stream: bool = False, **kwargs):
        super().__init__()
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.signals = TaskSignals()
        if with_progress:
            self.kwargs["progress"] = self.signals.progress.emit
        if stream:
            self.kwargs["on_token"] = self.signals.token.emit

    def run(self) -> None:
        try:
            result = self.fn(*self.args, **self.kwargs)
        except NanshanError as exc:
            self._emit(self.signals.failed, str(exc), exc)
        except Exception as exc:  # a bug: keep the window alive, tell the developer
            traceback.print_exc(file=sys.stderr)
            message = QCoreApplication.translate("Task", "内部错误（{kind}：{exc}）。请把这条信息告诉开发者。")
            self._emit(self.signals.failed, message.format(kind=type(exc).__name__, exc=exc), exc)
        else:
            self._emit(self.signals.done, result)

    @staticmethod
    def _emit(signal, *args) -> None:
        """Deliver a result, unless the app is already closing and its receivers are gone
        (a background check may finish after the window: nothing is left to tell)."""
        try:
            signal.emit(*args)
        except RuntimeError:
            pass


class Runner(QObject):
    """A pool of one thread or more, keeping each task alive until its signals have been delivered."""

    def __init__(self, threads: int = 1, parent: QObject | None = None):
        super().__init__(parent)
        self.pool = QThreadPool(self)
        self.pool.setMaxThreadCount(threads)
        self.pool.setExpiryTimeout(-1)     # keep the thread, and with it its sqlite connection

        self._live: set[Task] = set()

    def start(self, task: Task, on_done: Callable | None = None, on_failed: Callable | None = None,
              on_progress: Callable | None = None, on_token: Callable | None = None) -> Task:
        if on_token:
            task.signals.token.connect(on_token)
        if on_done:
            task.signals.done.connect(on_done)
        if on_failed:
            task.signals.failed.connect(on_failed)
        if on_progress:
            task.signals.progress.connect(on_progress)
        task.signals.done.connect(lambda *_: self._live.discard(task))
        task.signals.failed.connect(lambda *_: self._live.discard(task))
        task.setAutoDelete(False)
        self._live.add(task)
        self.pool.start(task)
        return task

    @property
    def busy(self) -> bool:
        return bool(self._live)

    def wait(self, msecs: int = -1) -> bool:
        return self.pool.waitForDone(msecs)
