"""Where games run: in this process, on local worker processes, or on a Dask cluster.

A :class:`Job` says which games to play (the pack, its parameters, the agents, the base seed,
the round cap); a *chunk* is a range of game numbers of a job. Every pool cuts a run into
chunks, plays each with the same function, ``play(job, start, stop) -> Tally``, and merges the
tallies, whose counts do not depend on the order: so any pool gives the same figures.

- :class:`InProcess` plays the chunks one after another.
- :class:`LocalProcesses` shares them among worker processes, in chunks that taper towards the
  end so that all finish together. On Linux the workers are forked after the pack is compiled,
  so they inherit it and start at once, and take chunks from a shared counter
  (:mod:`rulekit.sim.workers`); elsewhere the pack travels with the job, as its files and their
  digest, and each worker compiles it once.
- :class:`DaskPool` submits them to a Dask cluster through its ``concurrent.futures`` executor.
  The pack travels with the job, as its files and their digest: a worker machine needs rulekit
  (and the modules of any agents) installed, not the pack folder.
"""

from __future__ import annotations

import importlib
import math
import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.errors import GameRuntimeError, PackErrors, UsageError
from rulekit.sim.stats import Tally

if TYPE_CHECKING:  # what only worker processes or a cluster need is imported where used
    from concurrent.futures import Executor, Future

    from rulekit.bots.agent import AgentLike
    from rulekit.engine.game import Game

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

    @property
    def key(self) -> tuple[Any, ...]:
        """What identifies the compiled pack and agents a worker keeps between chunks."""
        agents = tuple((role, spec if isinstance(spec, str) else repr(spec))
                       for role, spec in self.agents)
        return (self.source.folder, self.source.digest, self.params, agents)

    @property
    def quick(self) -> bool:
        """Whether every seat plays at random (a game then takes about a millisecond)."""
        return all(spec == "random" for _, spec in self.agents)

    def ranges(self, games: int, slots: int, smallest: int,
               split: Callable[[int, int, int], list[tuple[int, int]]] | None = None
               ) -> list[tuple[int, int]]:
        """The chunks of this job: ``split`` (:func:`chunks` by default) if it is
        :attr:`quick`, else one game each (a game with a search bot takes seconds: the progress
        shown moves with each)."""
        if self.quick:
            return (split or chunks)(games, slots, smallest)
        return [(start, start + 1) for start in range(games)]


Prepared = tuple["Game", dict[str, "AgentLike"]]
Play = Callable[[Job, int, int], Tally]

_inherited: dict[tuple[Any, ...], Prepared] = {}  # set before forking workers
_local = threading.local()  # per thread: a Dask worker may run tasks in several threads
_load_lock = threading.Lock()


def prepared(job: Job) -> Prepared:
    """The compiled pack and the agents of ``job``, loaded once per process (or thread)."""
    key = job.key
    found = _inherited.get(key)
    if found is not None:
        return found
    cache: dict[tuple[Any, ...], Prepared] = getattr(_local, "cache", None) or {}
    _local.cache = cache
    if key not in cache:
        from rulekit.bots.registry import load_agent
        from rulekit.pack.loader import load_pack

        try:
            with _load_lock:
                game = load_pack(job.source.path(), dict(job.params)).game
        except PackErrors as exc:  # PackErrors do not survive pickling: send the text
            raise GameRuntimeError(str(exc)) from None
        agents = {role: load_agent(spec) if isinstance(spec, str) else spec
                  for role, spec in job.agents}
        cache[key] = (game, agents)
    return cache[key]


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

    def run(self, play: Play, job: Job, games: int, ready: Prepared,
            progress: Progress | None = None) -> Tally:
        """Play games ``0 .. games - 1`` of ``job``; ``ready`` is the job compiled here."""
        raise NotImplementedError

    def close(self) -> None:
        """Free the workers."""

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcess(Pool):
    """Every game in this process, one chunk after another."""

    def run(self, play: Play, job: Job, games: int, ready: Prepared,
            progress: Progress | None = None) -> Tally:
        tally = Tally({})
        size = games if progress is None else max(1, games // 100)
        _inherited[job.key] = ready
        try:
            step = max(1, size) if job.quick else 1  # a game with a search bot takes seconds
            for start in range(0, games, step):
                part = play(job, start, min(start + step, games))
                tally.merge(part)
                if progress is not None:
                    progress(part.games)
        finally:
            _inherited.pop(job.key, None)
        return tally


def _gather(executor: Executor, play: Play, job: Any, ranges: list[tuple[int, int]],
            progress: Progress | None) -> Tally:
    """Submit a chunk per range (``job``: a Job, or a Dask future of one) and merge."""
    from concurrent.futures import as_completed

    tally = Tally({})
    futures: list[Future[Tally]] = [executor.submit(play, job, start, stop)
                                    for start, stop in ranges]
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


def _init_worker(paths: list[str]) -> None:
    """Give a helper process the parent's import path (agents may live in modules found
    through it), and leave Ctrl-C to the parent, which stops the helpers quietly."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    sys.path[:] = paths


class LocalProcesses(Pool):
    """``workers`` processes on this machine: this one and ``workers - 1`` helpers. All take
    chunks from one queue, so this process plays from the first moment while the helpers start,
    and nobody waits at the end. Where processes fork, the helpers are forked with the compiled
    pack and share a counter of chunks (:mod:`rulekit.sim.workers`); elsewhere they are a
    ``ProcessPoolExecutor``'s, and the pack travels by content."""

    def __init__(self, workers: int) -> None:
        self.slots = workers

    def run(self, play: Play, job: Job, games: int, ready: Prepared,
            progress: Progress | None = None) -> Tally:
        fork = sys.platform.startswith("linux")
        if not fork and job.source.files is None and job.source.portable:
            job = _with_files(job)  # the pack travels by content, not found again by folder
        todo = deque(job.ranges(games, self.slots, 4, tapering_chunks))
        helpers = min(self.slots, len(todo)) - 1
        tally = Tally({})

        def count(part: Tally) -> None:
            tally.merge(part)
            if progress is not None:
                progress(part.games)

        _inherited[job.key] = ready  # this process, and forked helpers, start with it
        if fork:
            from rulekit.sim.workers import run_forked

            try:
                run_forked(play, job, list(todo), helpers, count)
                return tally
            finally:
                _inherited.pop(job.key, None)
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        pool = ProcessPoolExecutor(max_workers=max(1, helpers),
                                   mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_init_worker, initargs=(list(sys.path),))
        running: set[Future[Tally]] = set()
        try:
            while todo or running:
                while todo and len(running) < 2 * helpers:  # two chunks queued per helper
                    start, stop = todo.popleft()
                    running.add(pool.submit(play, job, start, stop))
                if todo:
                    start, stop = todo.popleft()  # this process plays too, in the same order
                    count(play(job, start, stop))
                    done = {future for future in running if future.done()}
                else:
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    running.discard(future)
                    count(future.result())
            return tally
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
            _inherited.pop(job.key, None)


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

    def run(self, play: Play, job: Job, games: int, ready: Prepared,
            progress: Progress | None = None) -> Tally:
        self.slots = max(1, sum(self._client.nthreads().values()))
        if job.source.files is None and job.source.portable:
            job = _with_files(job)
        shared = self._client.scatter(job, broadcast=True)  # the pack goes once per worker
        try:
            return _gather(self._client.get_executor(), play, shared,
                           job.ranges(games, self.slots, 50), progress)
        finally:
            self._client.cancel(shared)

    def close(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _with_files(job: Job) -> Job:
    """``job`` with its pack's files and their digest in it."""
    return Job(PackSource.with_files(Path(job.source.folder)), job.params, job.agents,
               job.seed, job.max_rounds)


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
           "open_pool", "prepared", "tapering_chunks"]
