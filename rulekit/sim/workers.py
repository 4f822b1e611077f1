"""Games shared among forked helper processes, with nothing between them but a counter.

Where processes can be forked (Linux), the helpers are forked once the pack is compiled: they
inherit it, and start playing at once. This process and the helpers take the chunks of a run in
order from one shared counter (an integer in memory shared by all, guarded by a one-byte token
in a pipe: whoever reads it holds the counter, and writes it back), so that nobody waits for a
chunk to be handed out; a helper sends the tally of each chunk it plays down a pipe of its own,
and this process merges them as they come, between chunks of its own. No thread of this process
serves the helpers, and nothing of ``multiprocessing`` is imported or set up: a run costs a fork
per helper and a few system calls per chunk.
"""

from __future__ import annotations

import contextlib
import gc
import os
import pickle
import select
import signal
import struct
from collections.abc import Callable
from typing import Any

from rulekit.errors import GameRuntimeError
from rulekit.sim.fork import SharedCounter
from rulekit.sim.stats import Tally

Ranges = list[tuple[int, int]]
_SIZE = struct.Struct("<Q")  # the length of a message, and the shared counter


class _Counter:
    """The ranges of a run, handed out in order from a counter shared by processes forked
    after it is made (:class:`rulekit.sim.fork.SharedCounter`)."""

    def __init__(self, ranges: Ranges) -> None:
        self.ranges = ranges
        self.shared = SharedCounter(len(ranges))

    def take(self) -> tuple[int, int] | None:
        """The next chunk, or None when every chunk has been taken."""
        index = self.shared.take()
        return None if index is None else self.ranges[index]

    def close(self) -> None:
        self.shared.close()


def run_forked(play: Callable[[Any, int, int], Tally], job: Any, ranges: Ranges, helpers: int,
               count: Callable[[Tally], None]) -> None:
    """Play every range of ``ranges`` (``play(job, start, stop)``) here and in ``helpers``
    forked processes; ``count`` is told of each tally, in this process."""
    counter = _Counter(ranges)
    readers: dict[int, _Messages] = {}  # by file descriptor: the pipes of running helpers
    pids: list[int] = []
    gc.freeze()  # the collector leaves inherited objects alone: fewer pages copied
    try:
        for _ in range(helpers):
            reader, writer = os.pipe()
            pid = os.fork()
            if pid == 0:  # the helper: it never returns from here
                os.close(reader)
                _helper(writer, counter, play, job)
            os.close(writer)
            pids.append(pid)
            readers[reader] = _Messages(reader)
        while (chunk := counter.take()) is not None:
            count(play(job, *chunk))
            _receive(readers, count, block=False)
        while readers:
            _receive(readers, count, block=True)
    finally:
        stopped_early = bool(readers)  # an error, or Ctrl-C
        for pid in pids:
            if stopped_early:
                _kill(pid)
            os.waitpid(pid, 0)
        for reader in readers:
            os.close(reader)
        counter.close()
        gc.unfreeze()


class _Messages:
    """The messages of one helper: a length, then a pickle, read as they come."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.data = b""

    def read(self) -> list[Any] | None:
        """The messages whole in what can be read now (it waits for at least a byte);
        None once the helper has closed its pipe."""
        data = os.read(self.fd, 1 << 16)
        if not data:
            return None
        self.data += data
        messages = []
        while len(self.data) >= _SIZE.size:
            (size,) = _SIZE.unpack_from(self.data)
            end = _SIZE.size + size
            if len(self.data) < end:
                break
            messages.append(pickle.loads(self.data[_SIZE.size:end]))
            self.data = self.data[end:]
        return messages


def _receive(readers: dict[int, _Messages], count: Callable[[Tally], None],
             block: bool) -> None:
    """Count the tallies the helpers sent; drop the pipe of a helper that has finished."""
    ready, _, _ = select.select(list(readers), [], [], None if block else 0)
    for fd in ready:
        messages = readers[fd].read()
        if messages is None:  # the helper died without a word
            raise GameRuntimeError("a worker process stopped unexpectedly")
        for kind, value in messages:
            if kind == "tally":
                count(value)
            elif kind == "error":
                raise value
            else:
                del readers[fd]
                os.close(fd)


def _send(fd: int, message: tuple[str, Any]) -> None:
    data = pickle.dumps(message, pickle.HIGHEST_PROTOCOL)
    data = _SIZE.pack(len(data)) + data
    while data:
        data = data[os.write(fd, data):]


def _helper(pipe: int, counter: _Counter, play: Callable[[Any, int, int], Tally],
            job: Any) -> None:
    """A helper's life: play chunks until none is left, sending each tally; then leave at
    once, running nothing of what this process would run at its exit."""
    status = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent, which stops us
        try:
            while (chunk := counter.take()) is not None:
                _send(pipe, ("tally", play(job, *chunk)))
            _send(pipe, ("done", None))
        except Exception as exc:  # sent to the parent, which raises it
            try:
                _send(pipe, ("error", exc))
            except Exception:  # an error that does not pickle: its text
                _send(pipe, ("error", GameRuntimeError(str(exc))))
        status = 0
    finally:
        os._exit(status)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # (it had finished)
        os.kill(pid, signal.SIGTERM)


__all__ = ["run_forked"]
