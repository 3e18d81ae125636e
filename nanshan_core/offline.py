"""The app never goes online; this guard proves it where it runs.

While active, every way Python code opens a connection or resolves a name (socket.connect,
connect_ex, create_connection, getaddrinfo) raises and is recorded.  The GUI's --selftest (and
so the frozen app's) runs under it, as do the tests.  Code below Python (llama.cpp, Qt) does
not connect either, but is outside what this guard can see.
"""
from __future__ import annotations

import contextlib
import socket


@contextlib.contextmanager
def no_network():
    """Yields the list of attempts (empty when all went well)."""
    tried: list = []
    saved = (socket.socket.connect, socket.socket.connect_ex, socket.create_connection, socket.getaddrinfo)

    def refuse(*args, **kwargs):
        tried.append(repr(args[1:3] if args and isinstance(args[0], socket.socket) else args[:2]))
        raise OSError("南山问律不联网：拒绝了一次网络连接")
    socket.socket.connect = refuse
    socket.socket.connect_ex = refuse
    socket.create_connection = refuse
    socket.getaddrinfo = refuse
    try:
        yield tried
    finally:
        socket.socket.connect, socket.socket.connect_ex, socket.create_connection, socket.getaddrinfo = saved
