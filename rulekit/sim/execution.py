"""Where games run: in this process, on local worker processes, or on a Dask cluster.

A :class:`Job` says which games to play (the pack, its parameters, the agents, the base seed,
the round cap); a *chunk* is a range of its game numbers. Every pool cuts a run into chunks,
plays each with the same function, ``play(job, start, stop) -> Tally``, and merges the
tallies. The counts do not depend on the order, so every pool gives the same figures.

- :class:`InProcess` plays the chunks one after another.
- :class:`LocalProcesses` hands them to a standard ``ProcessPoolExecutor``.
- :class:`DaskPool` submits them to a Dask cluster through its ``concurrent.futures`` executor.

Each process (or thread of a Dask worker) loads a job's pack once (:func:`prepared`). The pack
travels to a Dask cluster as its files and their digest: a worker machine needs rulekit (and
the modules of any agents) installed, not the pack folder.
"""

from __future__ import annotations

import importlib
import math
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.bots.agent import AgentLike
from rulekit.bots.registry import load_agent
from rulekit.engine.game import Game
from rulekit.errors import GameRuntimeError, PackErrors, UsageError
from rulekit.pack.loader import load_pack
from rulekit.sim.stats import Tally

if TYPE_CHECKING:  # what only worker processes or a cluster need is imported where used
    from concurrent.futures import Future

AgentSpec = Any  # an agent name (str) or an agent object, as rulekit.sim.simulation takes them
Progress = Callable[[int], None]  # told how many more games are done
MAX_PACK_BYTES = 16 * 1024 * 1024  # a pack sent to a cluster is at most this big


# ---------------------------------------------------------------- what to play


@dataclass(frozen=True)
class PackSource:
    """A pack folder; with ``files``, the pack's own files travel with it (for other
    machines), and a worker writes them out once per digest."""

    folder: str
    digest: str = ""
    files: tuple[tuple[str, bytes], ...] | None = None
    portable: bool = True  # False for a variant, whose base is found from its folder

    @classmethod
    def with_files(cls, folder: Path) -> PackSource:
        """The pack in ``folder`` with its files (hidden files and caches left out)."""
        import hashlib

        files = []
        size = 0
        for path in sorted(folder.rglob("*")):
            relative = path.relative_to(folder)
            if not path.is_file() or any(part.startswith(".") or part == "__pycache__"
                                         for part in relative.parts):
                continue
            data = path.read_bytes()
            size += len(data)
            if size > MAX_PACK_BYTES:
                raise UsageError(f"the pack folder {folder} holds more than "
                                 f"{MAX_PACK_BYTES // (1024 * 1024)} MB: too big to send")
            files.append((relative.as_posix(), data))
        digest = hashlib.sha256()
        for name, data in files:
            digest.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
        return cls(str(folder), digest.hexdigest()[:20], tuple(files))

    def path(self) -> Path:
        """A folder holding the pack on this machine."""
        if self.files is None:
            return Path(self.folder)
        import tempfile

        target = Path(tempfile.gettempdir()) / "rulekit-packs" / self.digest / Path(
            self.folder).name
        if not target.is_dir():
            target.parent.mkdir(parents=True, exist_ok=True)
            staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=target.parent))
            for name, data in self.files:
                destination = staging / name
                destination.parent.mkdir(parents=True, exist_ok=True)
                destination.write_bytes(data)
            try:
                os.rename(staging, target)  # atomic: a concurrent worker may have won
            except OSError:
                if not target.is_dir():
                    raise
        return target


@dataclass(frozen=True)
class Job:
    """The games of one run: game ``i`` is played from ``derive(seed, i)``."""

    source: PackSource
    params: tuple[tuple[str, int], ...]
    agents: tuple[tuple[str, AgentSpec], ...]
    seed: int
    max_rounds: int
    pack_hash: str  # of the pack as this run loaded it: every process must load the same

    @property
    def key(self) -> tuple[Any, ...]:
        """What identifies the loaded pack and agents a process keeps between chunks."""
        agents = tuple((role, spec if isinstance(spec, str) else repr(spec))
                       for role, spec in self.agents)
        return (self.source.folder, self.source.digest, self.params, agents, self.pack_hash)

    @property
    def quick(self) -> bool:
        """Whether every seat plays at random (then games are quick)."""
        return all(spec == "random" for _, spec in self.agents)

    def ranges(self, games: int, slots: int, smallest: int,
               split: Callable[[int, int, int], list[tuple[int, int]]] | None = None
               ) -> list[tuple[int, int]]:
        """The chunks of this job: ``split`` (:func:`chunks` by default) if it is
        :attr:`quick`, else one game each (a search bot is slow: the progress shown moves with
        each game)."""
        if self.quick:
            return (split or chunks)(games, slots, smallest)
        return [(start, start + 1) for start in range(games)]


Prepared = tuple[Game, dict[str, AgentLike]]
Play = Callable[[Job, int, int], Tally]

# What this thread plays with: a job's key and its loaded pack and agents. Per thread, since a
# Dask worker may run tasks in several threads.
_held = threading.local()
_load_lock = threading.Lock()


def prepared(job: Job) -> Prepared:
    """The loaded pack and the agents of ``job``: loaded on the first chunk a process (or
    thread) plays, and kept for the next ones."""
    held: tuple[tuple[Any, ...], Prepared] | None = getattr(_held, "job", None)
    if held is not None and held[0] == job.key:
        return held[1]
    try:
        with _load_lock:
            game = load_pack(job.source.path(), dict(job.params)).game
    except PackErrors as exc:  # PackErrors do not survive pickling: send the text
        raise GameRuntimeError(str(exc)) from None
    if game.pack_hash != job.pack_hash:
        raise GameRuntimeError(f"the pack in {job.source.folder} changed during the run",
                               hint="run it again")
    agents = {role: load_agent(spec) if isinstance(spec, str) else spec
              for role, spec in job.agents}
    _held.job = (job.key, (game, agents))
    return game, agents


@contextmanager
def holding(job: Job, ready: Prepared) -> Iterator[None]:
    """Let :func:`prepared` give ``ready`` for ``job`` in this thread while the block runs.

    A run passes on the pack it loaded, so that this process does not load it again. Worker
    processes forked meanwhile start with it too."""
    before = getattr(_held, "job", None)
    _held.job = (job.key, ready)
    try:
        yield
    finally:
        _held.job = before


def chunks(games: int, slots: int, smallest: int) -> list[tuple[int, int]]:
    """Ranges of game numbers: about 16 per slot (so that slots finish together and progress
    moves), none smaller than ``smallest`` games, at least one per slot."""
    if games <= 0:
        return []
    size = max(smallest, math.ceil(games / (slots * 16)))
    size = max(1, min(size, math.ceil(games / slots)))
    return [(start, min(start + size, games)) for start in range(0, games, size)]


def tapering_chunks(games: int, slots: int, smallest: int) -> list[tuple[int, int]]:
    """Ranges of game numbers, as :func:`chunks` at first, then smaller and smaller: each at
    most an eighth of what is left per slot, down to ``smallest`` games. Taken in order, the
    last ranges are short, so that no slot plays on long after the others have finished."""
    if games <= 0:
        return []
    largest = max(smallest, math.ceil(games / (slots * 16)))
    ranges = []
    start = 0
    while start < games:
        size = min(largest, max(smallest, math.ceil((games - start) / (slots * 8))))
        ranges.append((start, min(start + size, games)))
        start += size
    return ranges


# ---------------------------------------------------------------- pools


class Pool:
    """Runs the chunks of jobs; a context manager that frees its workers at exit."""

    slots = 1
    scheduler: str | None = None

    def run(self, play: Play, job: Job, games: int, progress: Progress | None = None) -> Tally:
        """Play games ``0 .. games - 1`` of ``job``; ``progress`` is told of each chunk."""
        raise NotImplementedError

    def close(self) -> None:
        """Free the workers."""

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcess(Pool):
    """Every game in this process, one chunk after another."""

    def run(self, play: Play, job: Job, games: int, progress: Progress | None = None) -> Tally:
        tally = Tally({})
        # A hundredth of the run at a time; one game at a time with a (slow) search bot.
        step = max(1, games // 100) if job.quick else 1
        for start in range(0, games, step):
            part = play(job, start, min(start + step, games))
            tally.merge(part)
            if progress is not None:
                progress(part.games)
        return tally


def _gather(futures: list[Future[Tally]], progress: Progress | None) -> Tally:
    """Merge the tallies of ``futures`` as they come; cancel the rest on an error or Ctrl-C."""
    from concurrent.futures import as_completed

    tally = Tally({})
    try:
        for future in as_completed(futures):
            part = future.result()
            tally.merge(part)
            if progress is not None:
                progress(part.games)
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    return tally


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back while the block starts worker processes.

    Workers are born with it blocked, so it never catches one half started. This process gets
    it at the end of the block."""
    if not hasattr(signal, "pthread_sigmask"):  # (Windows)
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _start_worker(paths: list[str]) -> None:
    """Give a worker process the parent's import path (agents may live in modules found
    through it). Ctrl-C, which a terminal sends to every process of the command, ends it
    at once and quietly: the parent stops the run."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    sys.path[:] = paths


class LocalProcesses(Pool):
    """``workers`` worker processes on this machine, in a ``ProcessPoolExecutor``.

    They are forked where the platform has a safe fork (Linux), else started afresh. They take
    the chunks in order from the executor's queue. The chunks taper towards the end, so that
    all workers finish together."""

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.slots = workers
        method = "fork" if sys.platform.startswith("linux") else "spawn"
        self._executor = ProcessPoolExecutor(workers, multiprocessing.get_context(method),
                                             initializer=_start_worker,
                                             initargs=(list(sys.path),))

    def run(self, play: Play, job: Job, games: int, progress: Progress | None = None) -> Tally:
        from concurrent.futures.process import BrokenProcessPool

        with _ctrl_c_held():  # the executor starts its workers at the first chunk
            futures = [self._executor.submit(play, job, start, stop)
                       for start, stop in job.ranges(games, self.slots, 4, tapering_chunks)]
        try:
            return _gather(futures, progress)
        except BrokenProcessPool:
            raise GameRuntimeError("a worker process stopped unexpectedly") from None

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


class DaskPool(Pool):
    """The workers of a Dask cluster: one at ``address``, or a new one on this machine
    (``"local"``, ``workers`` worker processes of one thread)."""

    def __init__(self, address: str, workers: int = 1, processes: bool = True) -> None:
        try:  # imported by name: Dask is an optional extra, and untyped
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise UsageError("--scheduler needs Dask, which is not installed",
                             "pip install 'rulekit[dask]'") from None
        self.scheduler = address
        self._cluster: Any = None
        if address == "local":
            self._cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                         processes=processes, dashboard_address=":0")
            self._client: Any = distributed.Client(self._cluster)
        else:
            try:
                self._client = distributed.Client(address, timeout=10)
            except (OSError, TimeoutError, ValueError) as exc:
                raise UsageError(f"cannot reach the Dask scheduler at '{address}': {exc}",
                                 "start one with `dask scheduler`, then `dask worker "
                                 "ADDRESS` on each machine") from None
        self.slots = max(1, sum(self._client.nthreads().values()))

    def run(self, play: Play, job: Job, games: int, progress: Progress | None = None) -> Tally:
        self.slots = max(1, sum(self._client.nthreads().values()))
        if job.source.files is None and job.source.portable:
            job = _with_files(job)
        shared = self._client.scatter(job, broadcast=True)  # the pack goes once per worker
        try:
            executor = self._client.get_executor()
            return _gather([executor.submit(play, shared, start, stop)
                            for start, stop in job.ranges(games, self.slots, 50)], progress)
        finally:
            self._client.cancel(shared)

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _with_files(job: Job) -> Job:
    """``job`` with its pack's files and their digest in it."""
    return Job(PackSource.with_files(Path(job.source.folder)), job.params, job.agents,
               job.seed, job.max_rounds, job.pack_hash)


@contextmanager
def open_pool(workers: int = 1, scheduler: str | None = None) -> Iterator[Pool]:
    """The pool for ``--workers`` and ``--scheduler``."""
    pool: Pool
    if scheduler is not None:
        pool = DaskPool(scheduler, workers)
    elif workers > 1:
        pool = LocalProcesses(workers)
    else:
        pool = InProcess()
    with pool:
        yield pool


__all__ = ["DaskPool", "InProcess", "Job", "LocalProcesses", "PackSource", "Pool", "chunks",
           "holding", "open_pool", "prepared", "tapering_chunks"]
