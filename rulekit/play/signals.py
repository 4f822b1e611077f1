"""SIGHUP and SIGTERM end a game as Ctrl-C does, the game saved.

Closing the terminal sends SIGHUP. Either signal becomes an exception in the game loop, which leaves
with the game saved.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any

NAMES = ("SIGHUP", "SIGTERM")


class Stopped(BaseException):
    """The process was asked to stop by a signal.

    It is no Exception, so that no ``except Exception`` swallows it.
    """

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """The exit code of a process ended by the signal."""
        return 128 + self.signum


def _raise(signum: int, frame: FrameType | None) -> None:
    """Raise :class:`Stopped`, ignoring the next signals meanwhile."""
    for name in NAMES:  # a second signal must not cut the saving short
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_IGN)
    raise Stopped(signum)


@contextmanager
def stopping_signals() -> Iterator[None]:
    """Within the block, SIGHUP and SIGTERM raise :class:`Stopped`.

    That is in the main thread only. The former handlers come back after.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before: dict[int, Any] = {}
    for name in NAMES:
        number = getattr(signal, name, None)
        if number is not None:
            before[number] = signal.signal(number, _raise)
    try:
        yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)


__all__ = ["Stopped", "stopping_signals"]
