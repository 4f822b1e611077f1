"""Print what hostile scenario files cost: processor time and memory, checked and run.

    python benchmarks/bench_hostile_scenarios.py [--only NAME ...] [--cpu SECONDS]

Each case is a scenario file made to cost as much as a file within the limits can (long play,
many scenarios, many or heavy ``expect`` lines, big lists, star patterns, many parameter sets,
many files...), put into a copy of a pack. For each, ``rulekit validate --no-cache`` and
``rulekit test`` run as a user runs them, in a process of their own; the script prints each
one's processor time (user + system), its peak memory and the first line of its answer. A run
past ``--cpu`` seconds is stopped and shown as such. The bar: no case over 5 s or 500 MB.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulekit.limits import (  # noqa: E402
    MAX_EXPECT_CHARS,
    MAX_FILE_BYTES,
    MAX_SCENARIO_BYTES,
    MAX_SCENARIO_EXPECTS,
    MAX_SCENARIO_FILES,
    MAX_SCENARIO_PARAMS,
    MAX_SCENARIO_STEPS,
    MAX_SCENARIOS,
)
from rulekit.pack.loader import load_pack  # noqa: E402
from tests.helpers_lang import MANIFEST, content  # noqa: E402

RULEKIT = [sys.executable, "-m", "rulekit"]
BYTES = MAX_FILE_BYTES - 4096  # a file as large as a pack file may be
UNDER = MAX_SCENARIO_BYTES - 4096  # as large as a pack's scenario files may be in all
CARDS = ["pedal_to_the_metal", "skid", "bust", "smokey", "go_airborne", "wheelie"]
# A game that never ends: each round asks Alice to pick, for ever.
ENDLESS = content(rounds="9000000000000", phases={"main": """
    let x = choose a one of ["p", "q"] prompt "Pick"
    log "Alice picks {x}."
"""})


def _fill(head: str, item: Callable[[int], str], tail: str = "", size: int = UNDER) -> str:
    """``head``, then ``item(i)`` for i = 0, 1... as long as the text fits ``size``."""
    parts, total, i = [head], len(head) + len(tail), 0
    while True:
        piece = item(i)
        if total + len(piece) > size:
            return "".join(parts) + tail
        parts.append(piece)
        total += len(piece)
        i += 1


def _long_game(pack: str, params: dict[str, int]) -> tuple[int, list[str]]:
    """The longest of a few random games of ``pack``: its seed and its steps."""
    game = load_pack(pack, params).game
    longest: tuple[int, list[str]] = (0, [])
    for seed in range(20):
        rng, state, steps = random.Random(seed), game.new_game(seed), []
        while state["result"] is None and (pending := game.pending(state)):
            answers = {d.player: d.sample(rng) for d in pending}
            steps.append("{" + ", ".join(f"{r}: '{a.id}'" for r, a in answers.items()) + "}")
            state = game.apply(state, answers)
        longest = max(longest, (seed, steps), key=lambda game: len(game[1]))
    return longest


def _long_games(pack: str, params: dict[str, int], expects: int = 0) -> str:
    """Scenarios that each play a long game of ``pack``, up to the limit of steps in all."""
    seed, steps = _long_game(pack, params)
    given = ", ".join(f"{name}: {value}" for name, value in params.items())
    body = f"    seed: {seed}\n    params: {{{given}}}\n    play:\n" + "".join(
        f"      - {step}\n" for step in steps)
    body += "    expect:\n" + "      - round >= 1\n" * expects if expects else ""
    count = min(MAX_SCENARIO_STEPS // len(steps), MAX_SCENARIOS)
    return "scenarios:\n" + "".join(f"  - name: s{i}\n" + body for i in range(count))


def _at_once() -> str:
    """Every limit reached at once in one pack's scenarios, within its size."""
    per = MAX_SCENARIO_STEPS // MAX_SCENARIOS
    line = "count(discard) >= 0 and round >= 1 and not finished or finished"
    expects = min(MAX_EXPECT_CHARS // len(line), 5_000) // MAX_SCENARIOS
    seed, steps = _long_game("carchase", {})
    steps = steps[:per]
    body = "".join(f"      - {step}\n" for step in steps) + "    expect:\n" + \
        f"      - {line}\n" * expects + "    log_for:\n      law: ['*e*e*e*e*e*e*Z', " \
        "{contains: [zz, yy]}]\n"
    return "scenarios:\n" + "".join(f"  - name: s{i}\n    seed: {seed}\n    play:\n" + body
                                    for i in range(MAX_SCENARIOS))


def _one(body: str) -> str:
    return 'scenarios:\n  - name: "hostile"\n' + body


def _steps(pack: str, count: int | None = None) -> str:
    item = "      - a: p\n" if pack == "endless" else "      - {law: pedal_to_the_metal}\n"
    head = _one("    play:\n")
    if count is not None:
        return head + item * count
    return _fill(head, lambda i: item)


CASES: dict[str, tuple[str, Callable[[], str | list[str]]]] = {
    # name: (pack, the scenario file, or a list of files)
    "a pack file's size (refused)": ("carchase", lambda: _fill(
        "scenarios:\n", lambda i: f"  - {{name: s{i}}}\n", size=BYTES)),
    "many scenarios": ("carchase", lambda: _fill(
        "scenarios:\n", lambda i: f"  - {{name: s{i}}}\n")),
    "many scenarios at the limit": ("carchase", lambda: "scenarios:\n" + "".join(
        f"  - {{name: s{i}, start: {{phase: chase}}, expect: [round == 1]}}\n"
        for i in range(MAX_SCENARIOS))),
    "many steps, endless game": ("endless", lambda: _steps("endless")),
    "steps at the limit, endless": ("endless", lambda: _steps("endless", MAX_SCENARIO_STEPS)),
    "long games at the limit": ("carchase", lambda: _long_games("carchase", {"turns": 50})),
    "long games, Red Notice": ("rednotice", lambda: _long_games("rednotice", {})),
    "every limit at once": ("carchase", _at_once),
    "many steps after the end": ("carchase", lambda: _steps("carchase")),
    "many expects": ("carchase", lambda: _fill(_one("    expect:\n"),
                                               lambda i: "      - 'true'\n")),
    "heavy expects": ("carchase", lambda: _fill(
        _one("    expect:\n"), lambda i: "      - sum(range(1, 99999)) > 0\n")),
    "heavy expects, many scenarios": ("carchase", lambda: _fill("scenarios:\n", lambda i: (
        f"  - name: s{i}\n    expect: [sum(range(1, 99999)) > 0, count(range(1, 99999)) > 0,"
        " sum(range(1, 99999)) > 0, count(range(1, 99999)) > 0]\n"))),
    "one huge expect": ("carchase", lambda: _fill(
        _one("    expect:\n      - count(["), lambda i: "1, ", "1]) > 0\n")),
    "expect lines at the limit": ("carchase", lambda: "scenarios:\n" + "".join(
        f"  - name: s{i}\n    expect:\n" + "      - count(discard) >= 0\n" * (
            MAX_SCENARIO_EXPECTS // MAX_SCENARIOS) for i in range(MAX_SCENARIOS))),
    "one expect at the limit": ("carchase", lambda: _fill(
        _one("    expect:\n      - count(["), lambda i: "1, ", "1]) > 0\n",
        size=MAX_EXPECT_CHARS - 100)),
    "heavy expects at the limit": ("carchase", lambda: "scenarios:\n" + "".join(
        f"  - name: s{i}\n    expect:\n" + "      - sum(range(1, 99999)) > 0\n" * 3
        for i in range(MAX_SCENARIOS))),
    "far round, seed and params": ("carchase", lambda: "scenarios:\n" + "".join(
        f"  - {{name: s{i}, seed: {2**63 - 1 - i}, params: {{turns: 50}}, start: {{round: "
        f"{2**62 + i}, phase: chase}}, expect: [round > 1]}}\n" for i in range(MAX_SCENARIOS))),
    "deep expect": ("carchase", lambda: _one(
        "    expect:\n      - " + "(" * 99 + "true" + ")" * 99 + "\n")),
    "false expect, explained": ("carchase", lambda: _fill(
        _one("    expect:\n      - count(["), lambda i: "round, ", "1]) == 0\n")),
    "many params sets": ("carchase", lambda: "scenarios:\n" + "".join(
        f"  - {{name: s{t}-{h}, params: {{turns: {t}, hand_size: {h}}}}}\n"
        for t in range(1, 51) for h in range(1, 31))),
    "params sets at the limit": ("carchase", lambda: "scenarios:\n" + "".join(
        f"  - {{name: s{t}, params: {{turns: {t}}}}}\n"
        for t in range(1, MAX_SCENARIO_PARAMS + 1))),
    "log_for stars": ("carchase", lambda: _one(
        "    start: {phase: chase}\n    play:\n      - {law: [skid], fugitive: [wheelie]}\n"
        "    log_for:\n      law:\n" + "".join(
            f"        - '{'*e' * 24}*Z{i}'\n" for i in range(40)))),
    "log_for many lines": ("carchase", lambda: _fill(
        _one("    log_for:\n      law:\n"), lambda i: "        - {contains: zzzz}\n")),
    "options_for big list": ("carchase", lambda: _fill(
        _one("    start: {phase: chase}\n    options_for:\n      law: ["), lambda i: f"o{i}, ",
        "x]\n")),
    "options_for contains": ("carchase", lambda: _fill(
        _one("    start: {phase: chase}\n    options_for:\n      law: {not_contains: ["),
        lambda i: f"o{i}, ", "x]}\n")),
    "sees contains": ("carchase", lambda: _fill(
        _one("    sees:\n      law:\n        discard: {not_contains: ["),
        lambda i: f"{CARDS[i % 6]}, ", "skid]}\n")),
    "never_sees big list": ("carchase", lambda: _fill(
        _one("    never_sees:\n      law: ["), lambda i: f"{CARDS[i % 6]}, ", "skid]\n")),
    "unknown cards": ("carchase", lambda: _fill(
        _one("    zones:\n      discard: ["), lambda i: f"card{i}, ", "x]\n")),
    "unknown ids, many scenarios": ("carchase", lambda: "scenarios:\n" + "".join(
        f"  - {{name: s{i}, covers: [x{i}], never_sees: {{law: [y{i}]}}, zones: {{\"hand[law]\": "
        f"[z{i}]}}, expect: [zz{i} == 1]}}\n" for i in range(MAX_SCENARIOS))),
    "schema errors": ("carchase", lambda: _fill(
        _one("    zones:\n      discard: ["), lambda i: f"{i}, ", "1]\n")),
    "big subset answer": ("carchase", lambda: _fill(
        _one("    start: {phase: chase}\n    play:\n      - law: ["), lambda i: f"c{i}, ",
        "x]\n")),
    "deep nesting": ("carchase", lambda: _one(
        "    variables: {x: " + "[" * 50_000 + "]" * 50_000 + "}\n")),
    "long name": ("carchase", lambda: _fill('scenarios:\n  - name: "', lambda i: "n" * 1000,
                                             '"\n    expect: [false]\n')),
    "many files": ("carchase", lambda: ["scenarios:\n  - {name: s, expect: [round == 1]}\n"]
                   * (MAX_SCENARIO_FILES + 1)),
    "files at the limit": ("carchase", lambda: [
        "scenarios:\n  - {name: s, start: {phase: chase}, expect: [round == 1]}\n"]
        * MAX_SCENARIO_FILES),
}


def measure(command: list[str], cpu: int) -> tuple[float, float, str]:
    """Processor seconds, peak megabytes and first line of output of ``command``."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))

    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT,
                                   preexec_fn=limit, env={**os.environ, "COLUMNS": "200"})
        _, status, usage = os.wait4(process.pid, 0)
        output.seek(0)
        lines = output.read().decode("utf-8", "replace").splitlines()
    first = next((line for line in lines if "FAIL" in line or "error" in line),
                 lines[0] if lines else "")
    if os.waitstatus_to_exitcode(status) < 0:
        first = f"stopped past {cpu} s"
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, first[:110]


def make_pack(root: Path, pack: str, files: list[str]) -> Path:
    """A copy of ``pack`` whose scenarios are ``files`` only."""
    folder = root / "pack"
    shutil.rmtree(folder, ignore_errors=True)
    if pack == "endless":
        folder.mkdir()
        (folder / "pack.yaml").write_text(MANIFEST + "scenarios: [scenarios/*.yaml]\n")
        (folder / "content.yaml").write_text(ENDLESS)
    else:
        shutil.copytree(ROOT / "games" / pack, folder)
        shutil.rmtree(folder / "scenarios")
    (folder / "scenarios").mkdir()
    for i, text in enumerate(files):
        (folder / "scenarios" / f"s{i:05}.yaml").write_text(text, encoding="utf-8")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="cases whose name contains one of these")
    parser.add_argument("--cpu", type=int, default=60, help="stop a run past this many seconds")
    args = parser.parse_args()
    print(f"{'case':<30} {'size':>7} {'validate':>9} {'MB':>5} {'test':>8} {'MB':>5}  answer")
    worst = (0.0, 0.0)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (pack, make) in CASES.items():
            if args.only and not any(word in name for word in args.only):
                continue
            made = make()
            files = made if isinstance(made, list) else [made]
            folder = make_pack(Path(tmp), pack, files)
            size = sum(len(text) for text in files)
            checked = measure([*RULEKIT, "validate", "--no-cache", str(folder)], args.cpu)
            tested = measure([*RULEKIT, "test", str(folder)], args.cpu)
            worst = (max(worst[0], checked[0], tested[0]), max(worst[1], checked[1], tested[1]))
            print(f"{name:<30} {size / 1e6:>6.2f}M {checked[0]:>8.2f}s {checked[1]:>5.0f} "
                  f"{tested[0]:>7.2f}s {tested[1]:>5.0f}  {tested[2] or checked[2]}",
                  flush=True)
    print(f"worst: {worst[0]:.2f} s of processor time, {worst[1]:.0f} MB")


if __name__ == "__main__":
    main()
