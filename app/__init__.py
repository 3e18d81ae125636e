"""南山问律 desktop app: PySide6 widgets over nanshan_core (which never imports Qt)."""
import sys


def _keep_none_alive() -> None:
    """PySide6 6.12.0 on Python 3.11 drops a reference to None on every call of a method that
    returns nothing (QLabel.setText, QStandardItem.setData …: measured -1 per call), and None
    starts a process with only a few thousand references: the library of the whole-律部 pack
    (≈100,000 such calls) aborted the process with "none_dealloc".  Python 3.12 makes None
    immortal (PEP 683); on 3.11 its count is raised once far beyond reach, which is what
    immortality amounts to.  Remove with Python 3.11, or once PySide6 returns None properly."""
    if sys.version_info >= (3, 12) or hasattr(sys, "gettotalrefcount"):   # immortal / debug build
        return
    import ctypes
    ctypes.c_ssize_t.from_address(id(None)).value += 1 << 40


_keep_none_alive()
