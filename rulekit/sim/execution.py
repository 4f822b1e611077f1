"""Where games run: in this process, on local worker processes, or on a Dask cluster.

A pool plays each *chunk* (a range of game numbers) of a :class:`Job`, then merges the tallies.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import math
import os
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from rulekit.bots.agent import AgentLike, RandomAgent
from rulekit.bots.registry import load_agent
from rulekit.engine.game import Game
from rulekit.errors import GameRuntimeError, PackErrors, UsageError
from rulekit.pack.loader import load_pack
from rulekit.sim.stats import Tally

if TYPE_CHECKING:  # what only worker processes or a cluster need is imported where used
    from concurrent.futures import Future

AgentSpec = str | AgentLike  # an agent's name, or the agent itself
Progress = Callable[[int], None]  # told how many more games are done
MAX_PACK_BYTES = 16 * 1024 * 1024  # a pack sent to a cluster is at most this big
DASK_SECONDS = 10  # the longest wait for a Dask scheduler to answer, or for a first worker
_DASK_START = ("start a scheduler with `dask scheduler`, then `dask worker ADDRESS` on each "
               "machine, and give --scheduler tcp://HOST:8786 (not the dashboard's port)")
PackFiles = tuple[tuple[str, bytes], ...]  # (path in the pack folder, contents)


def agent_of(spec: AgentSpec) -> AgentLike:
    """The agent a spec names; an agent object is its own spec."""
    return load_agent(spec) if isinstance(spec, str) else spec


# ---------------------------------------------------------------- what to play


@dataclass(frozen=True)
class PackSource:
    """A pack folder, maybe with its files for a worker to write out."""

    folder: str
    digest: str = ""
    files: PackFiles | None = None
    portable: bool = True

    @classmethod
    def with_files(cls, folder: Path) -> PackSource:
        files = _pack_files(folder)
        return cls(str(folder), _digest(files), files)

    def path(self) -> Path:
        """A folder holding the pack on this machine."""
        if self.files is None:
            return Path(self.folder)
        target = Path(tempfile.gettempdir()) / "rulekit-packs" / self.digest / Path(
            self.folder).name
        if not target.is_dir():
            _write_pack(self.files, target)
        return target


def _pack_files(folder: Path) -> PackFiles:
    """The files of the pack in ``folder``, but hidden files and caches."""
    files = []
    size = 0
    for path in sorted(folder.rglob("*")):
        parts = path.relative_to(folder).parts
        if not path.is_file() or any(p.startswith(".") or p == "__pycache__" for p in parts):
            continue
        data = path.read_bytes()
        size += len(data)
        if size > MAX_PACK_BYTES:
            raise UsageError(f"the pack folder {folder} holds more than "
                             f"{MAX_PACK_BYTES // (1024 * 1024)} MB: too big to send")
        files.append((path.relative_to(folder).as_posix(), data))
    return tuple(files)


def _digest(files: PackFiles) -> str:
    digest = hashlib.sha256()
    for name, data in files:
        digest.update(name.encode() + b"\0" + len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:20]


def _write_pack(files: PackFiles, target: Path) -> None:
    """Write ``files`` into a folder, then rename it ``target``, unless another worker did."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=target.parent))
    for name, data in files:
        destination = staging / name
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)
    try:
        os.rename(staging, target)
    except OSError:
        if not target.is_dir():
            raise


@dataclass(frozen=True)
class Job:
    """The games of one run: game ``i`` starts from ``derive(seed, i)``."""

    source: PackSource
    params: tuple[tuple[str, int], ...]
    agents: tuple[tuple[str, AgentSpec], ...]
    seed: int
    max_rounds: int
    pack_hash: str  # of the pack as this run loaded it: every process must load the same
    traced: bool = False  # whether games are traced for a designer's report (sim/traces)

    @property
    def key(self) -> tuple[object, ...]:
        """What identifies the pack and the agents a process keeps between chunks."""
        agents = tuple((role, spec if isinstance(spec, str) else repr(spec))
                       for role, spec in self.agents)
        return (self.source.folder, self.source.digest, self.params, agents, self.pack_hash)

    @property
    def quick(self) -> bool:
        """Whether every seat plays at random (then games are quick)."""
        return all(spec.strip() == "random" if isinstance(spec, str) else type(spec) is RandomAgent
                   for _, spec in self.agents)

    def ranges(self, games: int, slots: int, smallest: int) -> list[tuple[int, int]]:
        """The chunks of this job: :func:`tapering_chunks` if :attr:`quick`, else single games."""
        if self.quick:
            return tapering_chunks(games, slots, smallest)
        return [(start, start + 1) for start in range(games)]


Prepared = tuple[Game, dict[str, AgentLike]]
Play = Callable[[Job, int, int], Tally]

# A job's key and its loaded pack and agents, per thread: a Dask worker may run several.
_held = threading.local()
_load_lock = threading.Lock()


def prepared(job: Job) -> Prepared:
    """The loaded pack and the agents of ``job``, loaded once per process or thread."""
    held: tuple[tuple[object, ...], Prepared] | None = getattr(_held, "job", None)
    if held is not None and held[0] == job.key:
        return held[1]
    game = _load_game(job)
    agents = {role: agent_of(spec) for role, spec in job.agents}
    _held.job = (job.key, (game, agents))
    return game, agents


def _load_game(job: Job) -> Game:
    """Load the pack of ``job``; it must be the one the run loaded."""
    try:
        with _load_lock:
            game = load_pack(job.source.path(), dict(job.params)).game
    except PackErrors as exc:  # PackErrors do not survive pickling: send the text
        raise GameRuntimeError(str(exc)) from None
    if game.pack_hash != job.pack_hash:
        raise GameRuntimeError(f"the pack in {job.source.folder} changed during the run",
                               hint="run it again")
    return game


@contextmanager
def holding(job: Job, ready: Prepared) -> Iterator[None]:
    """Let :func:`prepared` give ``ready`` for ``job`` in this process and those it forks."""
    before = getattr(_held, "job", None)
    _held.job = (job.key, ready)
    try:
        yield
    finally:
        _held.job = before


def tapering_chunks(games: int, slots: int, smallest: int) -> list[tuple[int, int]]:
    """Ranges of game numbers, about 16 per slot, then shorter, so no slot plays on alone.

    Each has at most an eighth of the games left per slot, and at least ``smallest``.
    """
    largest = max(smallest, math.ceil(games / (slots * 16)))
    ranges = []
    start = 0
    while start < games:
        size = min(largest, max(smallest, math.ceil((games - start) / (slots * 8))))
        ranges.append((start, min(start + size, games)))
        start += size
    return ranges


class Pool:
    """Runs the chunks of jobs; frees its workers at the end of a ``with`` block."""

    slots = 1
    scheduler: str | None = None

    def run(self, play: Play, job: Job, games: int, progress: Progress | None = None) -> Tally:
        """Play games ``0 .. games - 1`` of ``job``, telling ``progress`` of each chunk."""
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcess(Pool):
    """Every game in this process, one chunk after another."""

    def run(self, play: Play, job: Job, games: int, progress: Progress | None = None) -> Tally:
        """Play the job's chunks one after another."""
        return _merged((play(job, start, stop)
                        for start, stop in job.ranges(games, self.slots, 1)), progress)


def _merged(parts: Iterable[Tally], progress: Progress | None) -> Tally:
    tally = Tally()
    for part in parts:
        tally.merge(part)
        if progress is not None:
            progress(part.games)
    return tally


def _gather(futures: list[Future[Tally]], progress: Progress | None) -> Tally:
    """Merge the tallies of ``futures`` as they come."""
    from concurrent.futures import as_completed

    return _merged((future.result() for future in as_completed(futures)), progress)


@contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Hold Ctrl-C back while the block starts worker processes, so none is half started."""
    if not hasattr(signal, "pthread_sigmask"):  # (Windows)
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _start_worker(paths: list[str]) -> None:
    """Give a worker the parent's import path; let Ctrl-C end it quietly.

    A command that ignores Ctrl-C (a background job of a script) keeps its workers ignoring it.
    """
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    sys.path[:] = paths


class LocalProcesses(Pool):
    """``workers`` processes on this machine, forked where fork is safe (Linux)."""

    def __init__(self, workers: int) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self.slots = workers
        method = "fork" if sys.platform.startswith("linux") else "spawn"
        self._executor = ProcessPoolExecutor(workers, multiprocessing.get_context(method),
                                             initializer=_start_worker,
                                             initargs=(list(sys.path),))

    def run(self, play: Play, job: Job, games: int, progress: Progress | None = None) -> Tally:
        """Submit every chunk, then merge the tallies as workers finish them."""
        from concurrent.futures.process import BrokenProcessPool

        try:  # a worker may die while chunks are still being submitted
            with _ctrl_c_held():  # the executor starts its workers at the first chunk
                futures = [self._executor.submit(play, job, start, stop)
                           for start, stop in job.ranges(games, self.slots, 4)]
            # After an error or Ctrl-C, close() drops the chunks not started. Cancelling them
            # here would race with the executor's own thread, which fails them when Ctrl-C
            # has ended the workers (and then prints a traceback).
            return _gather(futures, progress)
        except BrokenProcessPool:
            raise GameRuntimeError("a worker process stopped unexpectedly") from None

    def close(self) -> None:
        """Stop the workers, dropping the chunks not yet started."""
        self._executor.shutdown(wait=True, cancel_futures=True)


class DaskPool(Pool):
    """The workers of the Dask cluster at ``address``, or of a new one for ``"local"``."""

    def __init__(self, address: str, workers: int = 1) -> None:
        self._distributed = _dask()
        self.scheduler = address
        self._cluster: Any = None  # Dask is untyped
        self._client: Any
        # A lost scheduler or worker is said in one line, not in Dask's logged tracebacks.
        self._levels = {name: logging.getLogger(name).level
                        for name in [*logging.root.manager.loggerDict, "distributed"]
                        if name.partition(".")[0] == "distributed"}
        for name in self._levels:
            logging.getLogger(name).setLevel(logging.CRITICAL)
        if address == "local":
            self._cluster = self._distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, dashboard_address=":0")
            self._client = self._distributed.Client(self._cluster)
        else:
            self._client = _connected(self._distributed, address)
        self.slots = self._threads()

    def _threads(self) -> int:
        threads: dict[str, int] = self._client.nthreads()
        return max(1, sum(threads.values()))

    def run(self, play: Play, job: Job, games: int, progress: Progress | None = None) -> Tally:
        """Send the job to every worker once, then submit its chunks."""
        from concurrent.futures import CancelledError

        try:
            self._client.wait_for_workers(1, timeout=DASK_SECONDS)
        except TimeoutError:
            raise UsageError(f"the Dask scheduler at '{self.scheduler}' has no worker",
                             "start one with `dask worker ADDRESS`") from None
        self.slots = self._threads()
        if job.source.files is None and job.source.portable:
            job = replace(job, source=PackSource.with_files(Path(job.source.folder)))
        try:
            shared = self._client.scatter(job, broadcast=True)
            executor = self._client.get_executor()
            futures = [executor.submit(play, shared, start, stop)
                       for start, stop in job.ranges(games, self.slots, 50)]
            try:
                tally = _gather(futures, progress)
            except BaseException:  # an error or Ctrl-C: the cluster drops the rest
                for future in futures:
                    future.cancel()
                raise
        except (CancelledError, OSError) as exc:  # the scheduler, or the last worker, lost
            raise UsageError(f"the Dask cluster at '{self.scheduler}' was lost during the run "
                             f"({type(exc).__name__}): its scheduler or its last worker stopped",
                             "run again once the cluster is back; " + _DASK_START) from None
        except self._distributed.KilledWorker:
            raise UsageError("a chunk of games made Dask workers stop again and again",
                             "run it on local workers (--workers) to see why") from None
        self._client.cancel(shared)
        return tally

    def close(self) -> None:
        """Close the client, and the cluster if this pool started it."""
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()
        for name, level in self._levels.items():
            logging.getLogger(name).setLevel(level)


def _connected(distributed: ModuleType, address: str) -> Any:
    """A client of the Dask scheduler at ``address``, or a UsageError that says why not."""
    try:
        _greeted(address)
        return distributed.Client(address, timeout=DASK_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"cannot reach the Dask scheduler at '{address}': {exc}",
                         _DASK_START) from None


def _greeted(address: str) -> None:
    """Check that a TCP address answers as a Dask scheduler does, greeting first.

    Dask's own timeout does not hold when another server listens there (a web server, such
    as the scheduler's dashboard): both sides wait for ever.
    """
    scheme, _, rest = address.rpartition("://")
    host, _, port = rest.rpartition(":")
    if scheme not in ("", "tcp") or not port.isdigit():
        return  # another transport (tls://...): Dask checks it
    with socket.create_connection((host.strip("[]") or "localhost", int(port)),
                                  timeout=DASK_SECONDS) as probe:
        try:
            probe.recv(1)
        except TimeoutError:
            raise TimeoutError(f"something listens there, but it is no Dask scheduler (no "
                               f"greeting in {DASK_SECONDS} s)") from None


def _dask() -> ModuleType:
    """The ``distributed`` module of Dask, an optional extra."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise UsageError("--scheduler needs Dask, which is not installed",
                         "pip install 'rulekit[dask]'") from None


def open_pool(workers: int = 1, scheduler: str | None = None) -> Pool:
    """The pool for ``--workers`` and ``--scheduler``, to use in a ``with`` block."""
    if scheduler is not None:
        return DaskPool(scheduler, workers)
    return LocalProcesses(workers) if workers > 1 else InProcess()
