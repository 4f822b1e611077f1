"""Tests of the rulekit command line (rulekit.cli.main), mostly on the duel pack of conftest."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulekit import __version__
from rulekit.cli import main

ROOT = Path(__file__).resolve().parent.parent
LOCATED = re.compile(r"^(?P<file>\S+\.yaml):(?P<line>\d+):(?P<col>\d+): ", re.MULTILINE)
CARET = re.compile(r"^ +\^$", re.MULTILINE)

Run = Callable[..., tuple[int, str, str]]


def assert_no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text


# -- general ----------------------------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert __version__ in capsys.readouterr().out


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["simulate"], ["simulate", "x", "-n", "-3"],
                                  ["simulate", "x", "--workers", "0"], ["validate"],
                                  ["simulate", "x", "--seed", "abc"]])
def test_argparse_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    assert "usage:" in capsys.readouterr().err


def test_keyboard_interrupt_exits_130(run: Run, duel_pack: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    import rulekit.sim.simulation

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(rulekit.sim.simulation, "simulate", interrupted)
    code, out, err = run("simulate", duel_pack, "-n", "5")
    assert code == 130
    assert_no_traceback(out, err)


def test_python_dash_m_validate() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-m", "rulekit", "validate", "carchase"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^carchase: ok \(78 cards, \d+ scenarios\)$", proc.stdout, re.MULTILINE)
    assert proc.stderr == ""


# -- validate ---------------------------------------------------------------------------------


def test_validate_shipped_pack(run: Run) -> None:
    code, out, err = run("validate", "carchase")
    assert code == 0, err
    assert re.search(r"^carchase: ok \(78 cards, \d+ scenarios\)$", out, re.MULTILINE)


def test_validate_tiny_pack(run: Run, duel_pack: Path) -> None:
    code, out, err = run("validate", duel_pack)
    assert code == 0, err
    # the duel pack declares zones its code never uses: warnings, which do not fail it
    assert out.strip() == f"{duel_pack}: ok (2 cards, 2 scenarios; 3 warnings)"
    assert err.count("warning: zone '") == 3 and "'deck' is never used" in err


GAME = "game.yaml"
PACK = "pack.yaml"

# name -> (file, old text, new text, file with the error, text at the error or None, message)
BROKEN: dict[str, tuple[str, str, str, str, str | None, str]] = {
    "yaml syntax": (GAME, "{id: king, name: King, score: 13}", "{id: king, name: King",
                    GAME, None, "expected ','"),
    "duplicate key": (PACK, "name: Duel\n", "name: Duel\nname: Again\n",
                      PACK, "name: Again", "duplicate key 'name'"),
    "schema violation": (GAME, "points: {per_role: true", "points: {per_role: maybe",
                         GAME, "maybe", "expected true/false"),
    "unknown zone": (GAME, "if r > b { points[red] += 1 }",
                     "if r > b { points[red] += 1; move all from hand[red] to dicard }",
                     GAME, "dicard", "unknown zone 'dicard'"),
    "effect syntax error": (GAME, "if r > b { points[red] += 1 }", "if r > b { points[red] += }",
                            GAME, None, "syntax error"),
    "type error": (GAME, "if r > b { points[red] += 1 }", 'if r > b { points[red] += "x" }',
                   GAME, '"x"', "expected an integer"),
    "missing include": (PACK, "include: [game.yaml]", "include: [game.yaml, more.yaml]",
                        PACK, "more.yaml", "included file 'more.yaml' does not exist"),
    "unknown end role": (GAME, 'win red "Red has more points"', 'win redd "Red has more points"',
                         GAME, "redd", "redd"),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_validate_broken_pack(case: str, run: Run, make_pack: Callable[..., Path],
                              locate: Callable[[Path, str], tuple[int, int]]) -> None:
    file, old, new, error_file, at, message = BROKEN[case]
    folder = make_pack("broken", replace={file: (old, new)})
    code, out, err = run("validate", folder)
    assert code == 1
    assert_no_traceback(out, err)
    assert "ok" not in out
    assert message in err
    match = LOCATED.search(err)
    assert match is not None, err
    assert Path(match["file"]).name == error_file
    assert CARET.search(err), err
    if at is not None:
        line, col = locate(folder / error_file, at)
        assert f"{error_file}:{line}:{col}: " in err, err
    assert f"{folder}: invalid" in err


def test_validate_unknown_zone_hint(run: Run, make_pack: Callable[..., Path]) -> None:
    folder = make_pack("broken", replace={GAME: ("if r > b { points[red] += 1 }",
                                                 "if r > b { move all from hand[red] to dicard }")})
    code, _, err = run("validate", folder)
    assert code == 1
    assert "did you mean 'discard'?" in err


def test_validate_file_instead_of_folder(run: Run, duel_pack: Path) -> None:
    code, out, err = run("validate", duel_pack / GAME)
    assert code == 1
    assert_no_traceback(out, err)
    assert "a pack is a folder" in err


def test_validate_folder_without_manifest(run: Run, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, out, err = run("validate", empty)
    assert code == 1
    assert_no_traceback(out, err)
    assert "no pack.yaml" in err


def test_validate_unknown_pack_name(run: Run) -> None:
    code, _, err = run("validate", "carchse")
    assert code == 1
    assert "did you mean 'carchase'?" in err


def test_validate_broken_scenario_file(run: Run, make_pack: Callable[..., Path]) -> None:
    folder = make_pack("badscen", replace={"scenarios/duel.yaml": ('{red: "3", blue: "1"}',
                                                                   "{red: 3, blue: 1}")})
    code, _, err = run("validate", folder)
    assert code == 1
    assert LOCATED.search(err) and CARET.search(err)
    assert "duel.yaml" in err


def test_validate_several_packs(run: Run, duel_pack: Path,
                                make_pack: Callable[..., Path]) -> None:
    broken = make_pack("broken", replace={PACK: ("include: [game.yaml]", "include: [nope.yaml]")})
    code, out, err = run("validate", duel_pack, broken)
    assert code == 1
    assert f"{duel_pack}: ok" in out
    assert f"{broken}: invalid" in err
    assert "2 packs: 1 valid, 1 invalid" in err


# -- simulate ---------------------------------------------------------------------------------


def test_simulate_text(run: Run, duel_pack: Path) -> None:
    code, out, err = run("simulate", duel_pack, "-n", "60", "--seed", "3")
    assert code == 0, err
    for word in ("red", "blue", "draws", "capped", "95% CI", "mean rounds", "games/s"):
        assert word in out
    assert "\x1b[" not in out  # plain text when not a terminal


def test_simulate_json(run: Run, duel_pack: Path) -> None:
    code, out, err = run("simulate", duel_pack, "--games", "80", "--seed", "9", "--json")
    assert code == 0, err
    data = json.loads(out)
    for key in ("pack", "games", "seed", "wins", "draws", "capped", "mean_rounds", "seconds",
                "games_per_second", "win_rate", "ci95"):
        assert key in data
    assert data["pack"] == "duel" and data["games"] == 80 and data["seed"] == 9
    assert set(data["wins"]) == {"red", "blue"}
    assert sum(data["wins"].values()) + data["draws"] + data["capped"] == 80
    for role, (lo, hi) in data["ci95"].items():
        assert lo <= data["win_rate"][role] <= hi


def test_simulate_same_seed_same_json(run: Run, duel_pack: Path) -> None:
    def once(seed: str) -> dict[str, Any]:
        code, out, _ = run("simulate", duel_pack, "-n", "50", "--seed", seed, "--json")
        assert code == 0
        data: dict[str, Any] = json.loads(out)
        del data["seconds"], data["games_per_second"]
        return data

    assert once("4") == once("4")


def test_simulate_params(run: Run, duel_pack: Path) -> None:
    code, out, _ = run("simulate", duel_pack, "-n", "10", "--param", "turns=5", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["params"] == {"turns": 5} and data["mean_rounds"] == 5


@pytest.mark.parametrize(("param", "message"), [
    ("turns=0", "parameter 'turns' must be between 1 and 20, got 0"),
    ("turns=99", "between 1 and 20"),
    ("turn=3", "unknown parameter 'turn'"),
    ("turns=three", "must be an integer"),
    ("turns", "expected KEY=VALUE"),
])
def test_simulate_bad_param(run: Run, duel_pack: Path, param: str, message: str) -> None:
    code, out, err = run("simulate", duel_pack, "-n", "5", "--param", param)
    assert code == 1
    assert err.startswith("rulekit: error: ")
    assert message in err
    assert_no_traceback(out, err)


def test_simulate_unknown_param_hint(run: Run, duel_pack: Path) -> None:
    _, _, err = run("simulate", duel_pack, "--param", "turn=3")
    assert "did you mean 'turns'?" in err


@pytest.mark.parametrize(("agents", "message"), [
    ("rde=random", "unknown role 'rde'"),
    ("red=no_such_agents_module:Bot", "no module named 'no_such_agents_module'"),
    ("red=randm", "did you mean 'random'?"),
    ("red", "expected ROLE=AGENT"),
])
def test_simulate_bad_agents(run: Run, duel_pack: Path, agents: str, message: str) -> None:
    code, out, err = run("simulate", duel_pack, "-n", "5", "--agents", agents)
    assert code == 1
    assert err.startswith("rulekit: error: ")
    assert message in err
    assert_no_traceback(out, err)


def test_simulate_custom_agent(run: Run, duel_pack: Path, agents_module: str) -> None:
    code, out, err = run("simulate", duel_pack, "-n", "30", "--json",
                         "--agents", f"red={agents_module}:Three,blue=random")
    assert code == 0, err
    data = json.loads(out)
    assert data["wins"]["blue"] == 0 and data["wins"]["red"] > 20
    assert data["agents"] == {"red": f"{agents_module}:Three", "blue": "random"}


def test_simulate_illegal_agent_answer(run: Run, duel_pack: Path, agents_module: str) -> None:
    code, out, err = run("simulate", duel_pack, "-n", "3", "--agents",
                         f"blue={agents_module}:Cheater")
    assert code == 1
    assert err.startswith(f"rulekit: error: illegal choice: the agent of blue "
                          f"({agents_module}:Cheater) answered ")
    assert " at the decision '" in err and "(in the game with seed " in err
    assert_no_traceback(out, err)


@pytest.mark.parametrize(("agent", "message"), [
    ("os:getcwd", "TypeError: "),
    ("AGENTS:Broken", "RuntimeError: broken on purpose"),
])
@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_an_agent_that_raises(run: Run, duel_pack: Path, agents_module: str,
                                       agent: str, message: str, workers: str) -> None:
    code, out, err = run("simulate", duel_pack, "-n", "4", "--workers", workers, "--agents",
                         f"blue={agent.replace('AGENTS', agents_module)}")
    assert code == 1
    name = agent.replace('AGENTS', agents_module)
    first = err.splitlines()[0]
    assert re.match(rf"rulekit: error: the agent of blue \({name}\) failed at the decision "
                    rf"'[^']+': {message}.* \(in the game with seed \d+, round \d+\)$", first)
    assert "hint: run it from Python to see where" in err
    assert_no_traceback(out, err)


def test_simulate_workers_same_counts(run: Run, duel_pack: Path) -> None:
    def counts(workers: str) -> tuple[Any, ...]:
        code, out, err = run("simulate", duel_pack, "-n", "24", "--seed", "6",
                             "--workers", workers, "--json")
        assert code == 0, err
        data = json.loads(out)
        return data["wins"], data["draws"], data["capped"], data["mean_rounds"]

    assert counts("1") == counts("2")


def test_simulate_max_rounds(run: Run, duel_pack: Path) -> None:
    code, out, _ = run("simulate", duel_pack, "-n", "4", "-p", "turns=20", "--max-rounds", "3",
                       "--json")
    assert code == 0
    data = json.loads(out)
    assert data["capped"] == 4 and data["draws"] == 0


def test_simulate_broken_pack(run: Run, make_pack: Callable[..., Path]) -> None:
    folder = make_pack("broken", replace={GAME: ("points[red] += 1", 'points[red] += "x"')})
    code, out, err = run("simulate", folder, "-n", "5")
    assert code == 1
    assert LOCATED.search(err) and CARET.search(err)
    assert "rulekit: error: 1 error in the pack" in err
    assert_no_traceback(out, err)


def test_simulate_runtime_error(run: Run, make_pack: Callable[..., Path]) -> None:
    folder = make_pack("loop", replace={GAME: ("if r > b { points[red] += 1 }",
                                               "while true { points[red] += 1 }")})
    code, out, err = run("simulate", folder, "-n", "2")
    assert code == 1
    assert err.startswith("rulekit: error: ")
    assert "game.yaml:" in err and "seed" in err
    assert_no_traceback(out, err)


def test_simulate_missing_pack(run: Run, tmp_path: Path) -> None:
    code, _, err = run("simulate", tmp_path / "nowhere", "-n", "2")
    assert code == 1
    assert err.startswith("rulekit: error: ") and "no such pack folder" in err


# -- test -------------------------------------------------------------------------------------


def test_test_passing(run: Run, duel_pack: Path) -> None:
    code, out, err = run("test", duel_pack)
    assert code == 0, out + err
    assert re.search(r"^ok +the higher number scores$", out, re.MULTILINE)
    assert re.search(r"^ok +equal points are a draw$", out, re.MULTILINE)
    assert "2 passed, 0 failed" in out
    assert "rules covered: 2 of 3" in out
    assert "D-3" in out.split("rules covered")[1]


def test_test_require_coverage(run: Run, duel_pack: Path) -> None:
    code, out, err = run("test", duel_pack, "--require-coverage")
    assert code == 1
    assert "D-3" in out and "not covered" in err


def test_test_full_coverage(run: Run, make_pack: Callable[..., Path]) -> None:
    folder = make_pack("covered", replace={"scenarios/duel.yaml": ("covers: [D-2]",
                                                                   "covers: [D-2, D-3]")})
    code, out, _ = run("test", folder, "--require-coverage", "-v")
    assert code == 0
    assert "rules covered: 3 of 3" in out
    assert "covers: D-2, D-3" in out


def test_test_failing_scenario(run: Run, make_pack: Callable[..., Path],
                               locate: Callable[[Path, str], tuple[int, int]]) -> None:
    folder = make_pack("failing", replace={"scenarios/duel.yaml": ('"winner == red"',
                                                                   '"winner == blue"')})
    code, out, err = run("test", folder)
    assert code == 1
    assert_no_traceback(out, err)
    assert re.search(r"^FAIL +the higher number scores$", out, re.MULTILINE)
    line, col = locate(folder / "scenarios" / "duel.yaml", '"winner == blue"')
    assert f"duel.yaml:{line}:{col}: expected winner == blue" in out
    assert "1 passed, 1 failed" in out


def test_test_filter_and_params(run: Run, duel_pack: Path) -> None:
    code, out, _ = run("test", duel_pack, "-k", "DRAW", "--param", "turns=2")
    assert code == 0
    assert "equal points are a draw" in out
    assert "the higher number scores" not in out
    assert "1 passed, 0 failed" in out


def test_test_filter_matching_nothing(run: Run, duel_pack: Path) -> None:
    code, _, err = run("test", duel_pack, "-k", "no such scenario")
    assert code == 1
    assert "no scenario" in err


def test_test_broken_scenario_file(run: Run, make_pack: Callable[..., Path]) -> None:
    folder = make_pack("badscen", replace={"scenarios/duel.yaml": ("expect:", "expected:")})
    code, out, err = run("test", folder)
    assert code == 1
    assert LOCATED.search(err) and CARET.search(err)
    assert_no_traceback(out, err)


def test_test_pack_without_rules(run: Run, make_pack: Callable[..., Path]) -> None:
    folder = make_pack("norules", files={"rules.yaml": None},
                       replace={PACK: ("rules: rules.yaml\n", "")})
    code, out, _ = run("test", folder, "--require-coverage")
    assert code == 0
    assert "rules covered" not in out


def test_test_shipped_pack_runs(run: Run) -> None:
    code, out, err = run("test", "carchase", "-k", "Search")
    assert code in (0, 1)
    assert re.search(r"^(ok|FAIL) +Search", out, re.MULTILINE)
    assert_no_traceback(out, err)
