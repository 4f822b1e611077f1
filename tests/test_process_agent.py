"""``exec:COMMAND``: an agent run as another program, handed its seat's observation only."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from helpers_cli import Run, runner

FIRST = """\
import json, sys
for line in sys.stdin:
    question = json.loads(line)
    with open(sys.argv[1], "a") as seen:
        seen.write(json.dumps(sorted(question)) + "\\n")
    print(question["options"][0]["id"], flush=True)
"""


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


def _agent(tmp_path: Path, code: str) -> str:
    script = tmp_path / "agent.py"
    script.write_text(code)
    return f"exec:{sys.executable} {script} {tmp_path / 'seen.jsonl'}"


def test_a_program_plays_a_seat_from_what_the_seat_sees(run: Run, tmp_path: Path) -> None:
    code, out, err = run("simulate", "carchase", "-n", "2", "--agents",
                         f"law={_agent(tmp_path, FIRST)}")
    assert code == 0, err
    assert "2 games" in out
    asked = [json.loads(line) for line in (tmp_path / "seen.jsonl").read_text().splitlines()]
    assert len(asked) > 4
    assert set(map(tuple, asked)) == {("kind", "observation", "options", "prompt", "role")}


@pytest.mark.parametrize(("program", "why"), [
    ("import sys; sys.exit(3)", "it ended (exit code 3)"),
    ("import sys\nfor line in sys.stdin: print('nonsense', flush=True)",
     "answered 'nonsense' at the decision '"),
])
def test_a_program_that_fails_stops_the_run_with_one_line(run: Run, tmp_path: Path,
                                                          program: str, why: str) -> None:
    code, _, err = run("simulate", "carchase", "-n", "1", "--agents",
                         f"law={_agent(tmp_path, program)}")
    assert code != 0
    assert why in err
    assert len(err.strip().splitlines()) <= 2  # the message and its hint


def test_a_command_that_cannot_start_is_named(run: Run) -> None:
    code, _, err = run("simulate", "carchase", "-n", "1", "--agents",
                       "law=exec:/no/such/program")
    assert code != 0
    assert "the agent program '/no/such/program' failed: it cannot start" in err
