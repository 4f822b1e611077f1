"""Scenario files read ahead in a forked process (rulekit/scenarios/ahead): the same report, the
same errors and the same stored results as when this process reads them itself, and the same
again when the other process fails, hangs, or cannot be started."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers_cli import Run, runner

import rulekit.scenarios.ahead as ahead
import rulekit.source.store
from rulekit.pack.find import shipped_packs_dir

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def pack_copy(tmp_path: Path, name: str = "rednotice") -> Path:
    folder = tmp_path / name
    shutil.copytree(shipped_packs_dir() / name, folder)
    return folder


SETUPS = {  # run before the command, in its process
    "serial": "a.read_ahead = lambda folder: None",
    "forked": "",
    "raises": "def bug(path): raise RuntimeError('a bug')\na._read = there(bug)",
    "dies": "a._read = there(lambda path: os._exit(3))",
    "hangs": "a._read = there(lambda path: time.sleep(60))\na.WAIT_SECONDS = 0.5",
    "slow": "a._read = there(lambda path: (time.sleep(0.2), read(path)))",  # 0.2 s a file
}


def validated(pack: Path, cache: Path, how: str, *argv: str) -> tuple[Any, ...]:
    """The exit code, output and stored results of a validation in a process of its own, with
    an empty cache folder (on any machine as on two cores), and how many processes read ahead
    (told by the command's process)."""
    code = "\n".join([
        "import os, sys, time, atexit", "import rulekit.scenarios.ahead as a",
        "a._can_fork = lambda: True", "forks = []", "import types, rulekit.sim.fork as f",
        "def counting(work):\n    forks.append(1)\n    return f.start(work)",
        "a.forked = types.SimpleNamespace(start=counting, SharedCounter=f.SharedCounter)",
        "parent, read, here = os.getpid(), a._read, []",
        "def reading(path):\n    if os.getpid() == parent:\n        here.append(path)\n"
        "    return read(path)",
        "a._read = reading",
        "def there(how):  # (in the other process: this one reads as usual)\n"
        "    return lambda path: reading(path) if os.getpid() == parent else how(path)",
        SETUPS[how],
        "atexit.register(lambda: open(os.environ['FORKS'], 'w').write(str(len(forks))))",
        "atexit.register(lambda: open(os.environ['FORKS'] + '.here', 'w').write(str(len(here))))",
        "sys.argv = ['rulekit', 'validate', *sys.argv[1:]]",
        "from rulekit.cli import entry", "entry()"])
    told = cache.with_name(cache.name + ".forks")
    done = subprocess.run([sys.executable, "-c", code, str(pack), *argv], capture_output=True,
                          text=True, check=False,
                          env={**os.environ, "RULEKIT_NO_CACHE": "", "FORKS": str(told),
                               "RULEKIT_CACHE_DIR": str(cache)})
    forks = int(told.read_text()) if told.exists() else -1
    return done.returncode, done.stdout, done.stderr, stores(cache), forks


def stores(cache: Path) -> dict[str, Any]:
    """What the store files of ``cache`` hold (their entries, by store)."""
    return {path.stem: pickle.loads(path.read_bytes())["entries"]
            for path in sorted((cache / "stored").glob("*.pickle"))}


def test_read_ahead_gives_the_same_report_and_stores_as_reading_here(tmp_path: Path) -> None:
    pack = pack_copy(tmp_path)
    *forked, forks = validated(pack, tmp_path / "forked", "forked")
    *alone, none = validated(pack, tmp_path / "alone", "serial")
    assert (forks, none) == (1, 0)
    assert forked == alone
    assert forked[0] == 0 and "123 scenarios" in forked[1]
    *again, forks = validated(pack, tmp_path / "forked", "forked")  # stored: nothing to read
    assert forks == 0 and again[:3] == forked[:3]


@pytest.mark.parametrize("mistakes", ["code", "code and yaml"])
def test_mistakes_in_scenario_files_are_the_same_read_ahead(mistakes: str,
                                                            tmp_path: Path) -> None:
    pack = pack_copy(tmp_path)
    files = sorted((pack / "scenarios").glob("*.yaml"))
    text = files[0].read_text(encoding="utf-8")
    assert "    expect:\n" in text
    files[0].write_text(text.replace("    expect:\n", "    expect:\n      - \"1 +\"\n", 1),
                        encoding="utf-8")
    if mistakes == "code and yaml":
        files[1].write_text(files[1].read_text(encoding="utf-8") + "\nscenarios: [\n",
                            encoding="utf-8")
    *forked, forks = validated(pack, tmp_path / "forked", "forked", "--format", "json")
    *alone, _ = validated(pack, tmp_path / "alone", "serial", "--format", "json")
    assert forks == 1 and forked[:3] == alone[:3] and forked[0] == 1
    if mistakes == "code":
        assert files[0].name in forked[1]
        assert forked[3] == alone[3]
        return
    # this process stops at the file that is not YAML; the other one also parsed the code of
    # the files free of mistakes (stored as a later run, with the file mended, stores it)
    assert files[1].name in forked[1]
    assert forked[3].keys() == alone[3].keys()
    for name, entries in alone[3].items():
        assert entries.items() <= forked[3][name].items()


def read_here(cache: Path) -> int:
    """How many scenario files the command's process read ahead itself (in the last run of
    :func:`validated` with ``cache``)."""
    return int(cache.with_name(cache.name + ".forks.here").read_text())


def test_the_files_are_shared_out_between_the_two_processes(tmp_path: Path) -> None:
    pack = pack_copy(tmp_path)
    *alone, _ = validated(pack, tmp_path / "alone", "serial")
    *shared, forks = validated(pack, tmp_path / "shared", "slow")
    assert forks == 1 and shared == alone
    assert 0 < read_here(tmp_path / "shared") < 9  # of 9 files: some read there
    *forked, forks = validated(pack, tmp_path / "forked", "forked")
    assert forks == 1 and forked == alone


@pytest.mark.parametrize("failure", ["raises", "dies", "hangs"])
def test_a_failure_of_the_other_process_leaves_the_work_to_this_one(
        failure: str, tmp_path: Path) -> None:
    pack = pack_copy(tmp_path)
    *alone, _ = validated(pack, tmp_path / "alone", "serial")
    *failed, forks = validated(pack, tmp_path / "failed", failure)
    assert forks == 1 and failed == alone


def test_no_fork_on_one_core_nor_for_small_or_stored_scenario_files(
        run: Run, tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if hasattr(os, "sched_getaffinity"):
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0})
        assert not ahead._can_fork()
    monkeypatch.setattr(ahead, "_can_fork", lambda: True)
    small = pack_copy(tmp_path, "carchase")
    monkeypatch.setattr(ahead, "MIN_CHARACTERS", 64 * 1024)
    assert ahead.read_ahead(small) is None  # 48 kB of scenario files
    monkeypatch.setattr(ahead, "MIN_CHARACTERS", 1)
    assert ahead._unstored(small)
    assert run("validate", small)[0] == 0
    assert ahead._unstored(small) == []  # stored now
    assert ahead._unstored(tmp_path) == []  # no manifest


def test_the_results_a_process_stored_are_added_to_another_ones(cache: Path) -> None:
    store = rulekit.source.store.Store("test-handed")
    try:
        before = rulekit.source.store.added().get("test-handed", {})
        assert before == {}
        store.put(("a",), b"1")
        handed = rulekit.source.store.added()["test-handed"]
        assert list(handed.values()) == [b"1"]
        other = {"test-handed": {b"x" * 32: b"2", **handed}, "no such store": {b"y": b"3"}}
        store._entries, store._added = {}, set()
        rulekit.source.store.add(other)
        assert store.get(("a",)) == b"1" and store._entries[b"x" * 32] == b"2"
    finally:
        rulekit.source.store._named.pop("test-handed")
        rulekit.source.store._stores.discard(store)
