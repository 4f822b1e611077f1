"""Local worker processes: every chunk is played exactly once whoever plays it, and a mistake
met by a helper process stops the run with its message, in this process."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from typing import Any

import pytest

from rulekit.errors import GameRuntimeError
from rulekit.sim.execution import Job, LocalProcesses, PackSource
from rulekit.sim.stats import Tally

JOB = Job(PackSource("nowhere"), (), (("red", "random"), ("blue", "random")), 0, 10)


def played(job: Job, start: int, stop: int) -> Tally:
    """A chunk as a tally: who played it, by game numbers."""
    return Tally({str(os.getpid()): stop - start}, games=stop - start,
                 lengths={index: 1 for index in range(start, stop)})


def failing(job: Job, start: int, stop: int) -> Tally:
    time.sleep(0.002)  # the helper starts before this process has played every chunk
    if start > 0 and os.getpid() != PARENT:
        raise GameRuntimeError(f"no rule for game {start}")
    return played(job, start, stop)


PARENT = os.getpid()


@pytest.mark.parametrize("workers, games", [(2, 1000), (3, 50), (2, 1), (4, 2)])
def test_every_game_is_played_once(workers: int, games: int) -> None:
    seen: list[int] = []
    with LocalProcesses(workers) as pool:
        tally = pool.run(played, JOB, games, (Any, {}), seen.append)  # type: ignore[arg-type]
    assert tally.games == games == sum(seen)
    assert tally.lengths == {index: 1 for index in range(games)}
    assert sum(tally.wins.values()) == games


def test_a_mistake_in_a_helper_stops_the_run_with_its_message() -> None:
    with LocalProcesses(2) as pool, pytest.raises(GameRuntimeError, match="no rule for game"):
        pool.run(failing, JOB, 2000, (Any, {}))  # type: ignore[arg-type]


def test_a_run_in_one_process_loads_no_machinery_for_worker_processes() -> None:
    """``simulate`` with one worker starts no process and imports nothing for them
    (multiprocessing and concurrent.futures cost start-up time of every run)."""
    code = ("import sys\n"
            "from rulekit.sim.simulation import simulate\n"
            "simulate('carchase', games=3)\n"
            "print(sorted(m for m in ('multiprocessing', 'concurrent.futures', "
            "'rulekit.sim.workers') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def dying(job: Job, start: int, stop: int) -> Tally:
    time.sleep(0.002)
    if os.getpid() != PARENT:
        os._exit(3)  # a helper killed without a word
    return played(job, start, stop)


def bulky(job: Job, start: int, stop: int) -> Tally:
    """A tally far larger than a pipe holds at once (its message comes in many reads)."""
    tally = played(job, start, stop)
    tally.ends = {(f"game {start}", f"reason {i}"): 1 for i in range(3000)}
    return tally


def test_a_helper_that_dies_stops_the_run_and_no_helper_is_left_behind(
        monkeypatch: pytest.MonkeyPatch) -> None:
    forked: list[int] = []
    fork = os.fork

    def counted() -> int:
        pid = fork()
        if pid:
            forked.append(pid)
        return pid
    monkeypatch.setattr(os, "fork", counted)
    with LocalProcesses(3) as pool, pytest.raises(GameRuntimeError, match="stopped unexpect"):
        pool.run(dying, JOB, 2000, (Any, {}))  # type: ignore[arg-type]
    assert len(forked) == 2
    for pid in forked:  # every helper was waited for (and stopped, if it still ran)
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_tallies_larger_than_a_pipe_arrive_whole() -> None:
    with LocalProcesses(2) as pool:
        tally = pool.run(bulky, JOB, 400, (Any, {}))  # type: ignore[arg-type]
    chunks = {winner for winner, _ in tally.ends}
    assert tally.games == 400 and len(chunks) > 2
    assert tally.ends == {(chunk, f"reason {i}"): 1 for chunk in chunks for i in range(3000)}
