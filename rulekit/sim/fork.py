"""Work done meanwhile in a forked process, its result handed back pickled down a pipe.

On two cores a short command can do two independent pieces of its work at once: :func:`start`
forks a process that runs one piece while this one goes on with another, and
:meth:`Forked.result` waits for it and unpickles what it returned. A fork is made only where
it is safe and pays (:func:`can_fork`: ``os.fork`` exists, two cores or more, no other thread
runs); everywhere else :func:`start` gives None, and the caller does the piece itself. The
other process never returns into the caller's code, never runs this process's exit handlers
and never writes to its streams: whatever it does, its only effect is the bytes it sends (it
may write files its work writes). If it fails, dies, or takes past the time given, the result
is a failure, and the caller does the piece itself: the outcome is the same either way.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import select
import signal
import struct
import sys
import time
from collections.abc import Callable
from typing import Any

WAIT_SECONDS = 30.0  # at most, by default, for the other process
_NUMBER = struct.Struct("<Q")


def can_fork() -> bool:
    """Whether forking here is safe (no other thread) and pays (more than one core)."""
    if not hasattr(os, "fork"):
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if not cores or cores < 2:
        return False
    threading = sys.modules.get("threading")
    return threading is None or threading.active_count() == 1


def start(work: Callable[[], Any]) -> Forked | None:
    """``work`` run in a forked process, or None if no process could be forked (the caller
    checks :func:`can_fork` first). Its return value must pickle."""
    try:
        reader, writer = os.pipe()
    except OSError:
        return None
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        return None
    if pid == 0:  # the other process: it never returns from here
        os.close(reader)
        _child(writer, work)
    os.close(writer)
    return Forked(pid, reader)


class Forked:
    """The forked process, seen from this one."""

    def __init__(self, pid: int, reader: int) -> None:
        self.pid: int | None = pid
        self.reader = reader

    def result(self, wait: float | None = None) -> tuple[bool, Any]:
        """Wait (at most ``wait`` seconds, else :data:`WAIT_SECONDS`) for the other process:
        (True, what its work returned), or (False, None) if it failed, died or took too long
        (it is killed)."""
        if self.pid is None:
            return False, None
        data = _read_all(self.reader, time.monotonic() + (WAIT_SECONDS if wait is None
                                                           else wait))
        if not self._end(kill=data is None) or not data:
            return False, None
        try:
            return True, pickle.loads(data)
        except Exception:  # a message cut short
            return False, None

    def stop(self) -> None:
        """End the other process, if it still runs (its result is not used)."""
        if self.pid is not None:
            self._end(kill=True)

    def _end(self, kill: bool) -> bool:
        """Reap the other process (killed first if ``kill``); whether it ended well."""
        pid, self.pid = self.pid, None
        assert pid is not None
        with contextlib.suppress(OSError):
            os.close(self.reader)
        if kill:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        try:
            _, status = os.waitpid(pid, 0)
        except OSError:
            return False
        return not kill and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


class SharedCounter:
    """The numbers 0, 1, ... below ``size``, each handed out once, to this process and to the
    processes forked after it was made: an integer in anonymous shared memory, guarded by a
    one-byte token in a pipe (whoever reads the token holds the counter, and writes it back),
    so that work is shared out as it is done, with nobody waiting for a piece to be sent."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.memory = mmap.mmap(-1, _NUMBER.size)  # anonymous and shared with forked processes
        self.token_in, self.token_out = os.pipe()
        os.write(self.token_out, b"\0")

    def take(self, wait: float | None = None) -> int | None:
        """The next number; None when all are taken, or when the token does not come back
        within ``wait`` seconds (None: however long; a process that held it died)."""
        if wait is not None and not select.select([self.token_in], [], [], wait)[0]:
            return None
        os.read(self.token_in, 1)  # (waits while another process holds it)
        try:
            index: int = _NUMBER.unpack_from(self.memory)[0]
            if index >= self.size:
                return None
            _NUMBER.pack_into(self.memory, 0, index + 1)
        finally:
            os.write(self.token_out, b"\0")
        return index

    def close(self) -> None:
        os.close(self.token_in)
        os.close(self.token_out)
        self.memory.close()


def _child(writer: int, work: Callable[[], Any]) -> None:
    """Run ``work``, send its result down ``writer``, and exit (never returning, never running
    this process's exit handlers, never writing to its streams)."""
    code = 1
    try:
        data = pickle.dumps(work(), pickle.HIGHEST_PROTOCOL)
        view = memoryview(data)
        while view:
            view = view[os.write(writer, view):]
        code = 0
    except BaseException:  # (any failure: the caller does the work itself)
        code = 1
    finally:
        os._exit(code)


def _read_all(fd: int, deadline: float) -> bytes | None:
    """Everything written to ``fd`` until it is closed; None if that takes past ``deadline``
    (or reading fails)."""
    chunks: list[bytes] = []
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
    except (OSError, ValueError):
        return None


__all__ = ["WAIT_SECONDS", "Forked", "SharedCounter", "can_fork", "start"]
