"""Local worker processes: every game is played once, and a worker's mistake, a worker that
dies or a Ctrl-C stops the run cleanly, with a message, leaving no process behind."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from rulekit.errors import GameRuntimeError
from rulekit.sim.execution import Job, LocalProcesses, PackSource, prepared
from rulekit.sim.stats import Tally

JOB = Job(PackSource("nowhere"), (), (("red", "random"), ("blue", "random")), 0, 10, "")


def played(job: Job, start: int, stop: int) -> Tally:
    """A chunk as a tally: who played it, by game numbers."""
    return Tally(Counter({str(os.getpid()): stop - start}), games=stop - start,
                 lengths=Counter(range(start, stop)))


def failing(job: Job, start: int, stop: int) -> Tally:
    if start > 0:
        raise GameRuntimeError(f"no rule for game {start}")
    return played(job, start, stop)


def dying(job: Job, start: int, stop: int) -> Tally:
    if start > 0:
        os._exit(3)  # a worker killed without a word
    return played(job, start, stop)


@pytest.mark.parametrize("workers, games", [(2, 1000), (3, 50), (2, 1), (4, 2)])
def test_every_game_is_played_once(workers: int, games: int) -> None:
    seen: list[int] = []
    with LocalProcesses(workers) as pool:
        tally = pool.run(played, JOB, games, seen.append)
    assert tally.games == games == sum(seen)
    assert tally.lengths == {index: 1 for index in range(games)}
    assert sum(tally.wins.values()) == games
    assert str(os.getpid()) not in tally.wins  # the workers played them all


def test_a_mistake_in_a_worker_stops_the_run_with_its_message() -> None:
    with LocalProcesses(2) as pool, pytest.raises(GameRuntimeError, match="no rule for game"):
        pool.run(failing, JOB, 2000)
    assert multiprocessing.active_children() == []


def test_a_worker_that_dies_stops_the_run_and_no_worker_is_left_behind() -> None:
    with LocalProcesses(3) as pool, pytest.raises(GameRuntimeError, match="stopped unexpect"):
        pool.run(dying, JOB, 2000)
    assert multiprocessing.active_children() == []


def test_a_worker_that_dies_while_chunks_are_submitted_stops_the_run(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures.process import BrokenProcessPool

    with LocalProcesses(2) as pool:
        submit = pool._executor.submit
        calls = []

        def breaking(*args: object) -> object:
            calls.append(args)
            if len(calls) > 1:  # as the executor does once a worker has died
                raise BrokenProcessPool("a child process terminated abruptly")
            return submit(*args)

        monkeypatch.setattr(pool._executor, "submit", breaking)
        with pytest.raises(GameRuntimeError, match="stopped unexpect"):
            pool.run(played, JOB, 200)


def test_a_pack_changed_since_the_run_loaded_it_is_refused(duel_pack: Path) -> None:
    job = Job(PackSource(str(duel_pack)), (), (("red", "random"), ("blue", "random")), 0, 10,
              "the hash of another pack")
    with pytest.raises(GameRuntimeError, match="changed during the run"):
        prepared(job)


def test_a_run_in_one_process_loads_no_machinery_for_worker_processes() -> None:
    code = ("import sys\n"
            "from rulekit.sim.simulation import simulate\n"
            "simulate('carchase', games=3)\n"
            "print(sorted(m for m in ('multiprocessing', 'concurrent.futures') "
            "if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def _children(pid: int) -> list[int]:
    with open(f"/proc/{pid}/task/{pid}/children") as file:
        return [int(child) for child in file.read().split()]


def _simulate_with_workers(ctrl_c: Callable[..., object] | int) -> subprocess.Popen[str]:
    """Start a long run on two workers, its Ctrl-C handled as ``ctrl_c`` makes it.

    ``signal.default_int_handler`` starts it as a terminal does; ``signal.SIG_IGN`` as a
    script starts a background job. Either way, whatever pytest itself was started with.
    """
    command = [sys.executable, "-m", "rulekit", "simulate", "carchase", "-n", "10000000",
               "--workers", "2"]
    before = signal.signal(signal.SIGINT, ctrl_c)
    try:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, start_new_session=True)
    finally:
        signal.signal(signal.SIGINT, before)
    deadline = time.monotonic() + 60
    while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)  # until both workers play
    return process


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_ctrl_c_stops_a_run_with_workers_quietly() -> None:
    """Ctrl-C, which a terminal sends to every process of the command, ends the run with the
    exit code of an interrupted command, no traceback and no process left behind."""
    process = _simulate_with_workers(signal.default_int_handler)
    try:
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:  # (the test failed: the run goes on)
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130, err
    assert out == "" and "Traceback" not in err
    with pytest.raises(ProcessLookupError):
        os.killpg(process.pid, 0)  # nobody is left in the command's process group


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_a_run_that_ignores_ctrl_c_goes_on_after_it_with_all_its_workers() -> None:
    process = _simulate_with_workers(signal.SIG_IGN)
    try:
        workers = _children(process.pid)
        os.killpg(process.pid, signal.SIGINT)
        time.sleep(1)
        going_on = process.poll() is None and _children(process.pid) == workers
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        _, err = process.communicate()
    assert going_on, err
