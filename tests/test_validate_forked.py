"""The end of a validation done in a forked process while the scenario files are checked
(rulekit/cli/validate: lint warnings and the first half of the cache's writing; rulekit/sim/fork):
the same report, the same cache entry and the same stored results as when this process does
it, and the same again when the other process fails, dies, hangs or sends something else."""

from __future__ import annotations

import json
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rulekit.pack.find import shipped_packs_dir

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")

UNUSED = """
  never_called:
    params: {p: role}
    do: |
      let spare = 1
"""

SETUPS = {  # run before the command, in its process
    "here": "v._fork_tail = lambda pack, cache: None",
    "forked": "",
    "raises": "v._tail = failing(lambda: 1 / 0)",
    "dies": "v._tail = failing(lambda: os._exit(3))",
    "hangs": "v._tail = failing(lambda: time.sleep(60))\nf.WAIT_SECONDS = 0.5",
    "garbage": "v._tail = failing(lambda: 'not a result')",
    "storing": "import rulekit.source.schema as s\n"  # the other process stores one result more
               "def storing(pack, cache):\n    s._passed.put(('made up',), b'')\n"
               "    return tail(pack, cache)\nv._tail = storing",
}


def pack_copy(tmp_path: Path, warned: bool = True) -> Path:
    """A copy of Car Chase, with a procedure never called (a lint warning) if ``warned``."""
    folder = tmp_path / "carchase"
    shutil.copytree(shipped_packs_dir() / "carchase", folder)
    if warned:
        flow = folder / "flow.yaml"
        text = flow.read_text(encoding="utf-8")
        flow.write_text(text.replace("procedures:\n", "procedures:" + UNUSED, 1),
                        encoding="utf-8")
    return folder


def validated(pack: Path, cache: Path, how: str) -> tuple[Any, ...]:
    """The exit code, output, cache entries and stored results of ``rulekit validate`` in a
    process of its own with the cache folder ``cache`` (on any machine as on two cores), and
    how many processes did the end of the validation (told by the command's process).
    ``how``: a key of SETUPS; a failing one makes the forked process fail, the work done here
    then as usual."""
    code = "\n".join([
        "import os, sys, time, atexit", "import rulekit.cli.validate as v",
        "import rulekit.sim.fork as f", "f.can_fork = lambda: True", "forks = []",
        "fork_tail = v._fork_tail", "tail = v._tail",
        "def counting(pack, cache):\n    found = fork_tail(pack, cache)\n"
        "    forks.append(found is not None)\n    return found",
        "v._fork_tail = counting",
        "def failing(how):\n    def tail_here_only(pack, cache):\n"
        "        if os.getpid() == parent:\n            return tail(pack, cache)\n"
        "        return how()\n    return tail_here_only",
        "parent = os.getpid()", SETUPS[how],
        "atexit.register(lambda: open(os.environ['FORKS'], 'w').write(str(sum(forks))))",
        "sys.argv = ['rulekit', 'validate', *sys.argv[1:]]",
        "from rulekit.cli import entry", "entry()"])
    told = cache.with_name(cache.name + ".forks")
    done = subprocess.run([sys.executable, "-c", code, str(pack)], capture_output=True,
                          text=True, check=False,
                          env={**os.environ, "RULEKIT_NO_CACHE": "", "FORKS": str(told),
                               "RULEKIT_CACHE_DIR": str(cache)})
    forks = int(told.read_text()) if told.exists() else -1
    entries = [json.loads(path.read_text(encoding="utf-8"))
               for path in sorted((cache / "validate").glob("*.json"))]
    stored = {path.stem: pickle.loads(path.read_bytes())["entries"]
              for path in sorted((cache / "stored").glob("*.pickle"))}
    return done.returncode, done.stdout, done.stderr, entries, stored, forks


def test_the_end_done_meanwhile_gives_the_same_report_entry_and_stores(tmp_path: Path) -> None:
    pack = pack_copy(tmp_path)
    *forked, forks = validated(pack, tmp_path / "forked", "forked")
    *here, none = validated(pack, tmp_path / "here", "here")
    assert (forks, none) == (1, 0)
    assert forked == here
    code, out, err, entries, _ = forked
    assert code == 0 and "1 warning" in out
    assert "procedure 'never_called' is never called" in err and "flow.yaml:" in err
    assert len(entries) == 1 and len(entries[0]["warnings"]) == 1
    assert entries[0]["meanings"] and entries[0]["numbers"]


def test_an_entry_written_meanwhile_serves_the_next_runs(tmp_path: Path) -> None:
    pack = pack_copy(tmp_path)
    first = validated(pack, tmp_path / "cache", "forked")
    again = validated(pack, tmp_path / "cache", "forked")  # answered from the entry
    assert again[-1] == 0 and again[:3] == first[:3]
    cards = pack / "cards.yaml"  # (not flow.yaml, which holds the warning)
    cards.write_text(cards.read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    edited = validated(pack, tmp_path / "cache", "forked")  # an edit the entry knows holds
    assert edited[-1] == 0 and edited[:3] == first[:3]


def test_what_the_other_process_stores_is_stored(tmp_path: Path) -> None:
    pack = pack_copy(tmp_path)
    *here, _ = validated(pack, tmp_path / "here", "here")
    *storing, forks = validated(pack, tmp_path / "storing", "storing")
    assert forks == 1 and storing[:4] == here[:4]
    assert len(storing[4]["schema-passes"]) == len(here[4]["schema-passes"]) + 1


@pytest.mark.parametrize("failure", ["raises", "dies", "hangs", "garbage"])
def test_a_failure_of_the_other_process_leaves_the_work_to_this_one(
        failure: str, tmp_path: Path) -> None:
    pack = pack_copy(tmp_path)
    *here, _ = validated(pack, tmp_path / "here", "here")
    *failed, forks = validated(pack, tmp_path / "failed", failure)
    assert forks == 1 and failed == here


def test_a_mistake_found_in_a_scenario_file_is_reported_alike_and_nothing_is_cached(
        tmp_path: Path) -> None:
    pack = pack_copy(tmp_path, warned=False)
    scenario = sorted((pack / "scenarios").glob("*.yaml"))[0]
    text = scenario.read_text(encoding="utf-8")
    scenario.write_text(text.replace("expect:\n", "expect:\n      - no_such_name > 1\n", 1),
                        encoding="utf-8")
    *forked, forks = validated(pack, tmp_path / "forked", "forked")
    *here, _ = validated(pack, tmp_path / "here", "here")
    assert forks == 1 and forked == here
    code, _, err, entries, _ = forked
    assert code == 1 and "no_such_name" in err and scenario.name in err
    assert entries == []
