"""Games shared among forked helper processes, with nothing between them but a counter.

Where processes can be forked (Linux), the helpers are forked once the pack is compiled: they
inherit it, and start playing at once. This process and the helpers take the chunks of a run in
order from one shared counter (a lock and an integer), so that nobody waits for a chunk to be
handed out; a helper sends the tally of each chunk it plays down a pipe of its own, and this
process merges them as they come, between chunks of its own. No thread of this process serves the
helpers: chunks of a few games cost almost nothing to hand out, and all finish together.
"""

from __future__ import annotations

import gc
import multiprocessing
import signal
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from typing import Any

from rulekit.errors import GameRuntimeError
from rulekit.sim.stats import Tally

Ranges = list[tuple[int, int]]


def run_forked(play: Callable[[Any, int, int], Tally], job: Any, ranges: Ranges, helpers: int,
               count: Callable[[Tally], None]) -> None:
    """Play every range of ``ranges`` (``play(job, start, stop)``) here and in ``helpers``
    forked processes; ``count`` is told of each tally, in this process."""
    context = multiprocessing.get_context("fork")
    taken = context.RawValue("q", 0)
    lock = context.Lock()

    def take() -> tuple[int, int] | None:
        with lock:
            index: int = taken.value
            if index >= len(ranges):
                return None
            taken.value = index + 1
        return ranges[index]

    pipes: list[Connection] = []
    processes = []
    gc.freeze()  # the collector leaves inherited objects alone: fewer pages copied
    try:
        for _ in range(helpers):
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_helper, args=(sender, take, play, job),
                                      daemon=True)
            process.start()
            sender.close()
            pipes.append(receiver)
            processes.append(process)
        while (chunk := take()) is not None:
            count(play(job, *chunk))
            _receive(pipes, count, block=False)
        while pipes:
            _receive(pipes, count, block=True)
    finally:
        for process in processes:
            if process.is_alive() and pipes:  # stopped early (an error, Ctrl-C)
                process.terminate()
            process.join()
        for pipe in pipes:
            pipe.close()
        gc.unfreeze()


def _receive(pipes: list[Connection], count: Callable[[Tally], None], block: bool) -> None:
    """Count the tallies the helpers sent; drop the pipe of a helper that has finished."""
    for pipe in wait(pipes, timeout=None if block else 0):
        assert isinstance(pipe, Connection)
        try:
            kind, value = pipe.recv()
        except EOFError:  # the helper died without a word
            raise GameRuntimeError("a worker process stopped unexpectedly") from None
        if kind == "tally":
            count(value)
        elif kind == "error":
            raise value
        else:
            pipes.remove(pipe)
            pipe.close()


def _helper(pipe: Connection, take: Callable[[], tuple[int, int] | None],
            play: Callable[[Any, int, int], Tally], job: Any) -> None:
    """A helper's life: play chunks until none is left, sending each tally."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is for the parent, which stops us
    try:
        while (chunk := take()) is not None:
            pipe.send(("tally", play(job, *chunk)))
        pipe.send(("done", None))
    except Exception as exc:  # sent to the parent, which raises it
        try:
            pipe.send(("error", exc))
        except Exception:  # an error that does not pickle: its text
            pipe.send(("error", GameRuntimeError(str(exc))))
    finally:
        pipe.close()


__all__ = ["run_forked"]
