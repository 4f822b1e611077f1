"""Print how long ``rulekit validate PACK`` takes, a whole process each time, as a user runs it.

    python benchmarks/bench_validate.py [REPEATS] [--pack PACK ...] [--edit FILE]
                                        [--code [comment|number] | --value] [--against FOLDER]

Each pack is copied into a temporary folder, and validated there with a cache folder of its own:

- *empty cache*: nothing stored yet (no validation result, no syntax tree, no schema check), and
  an empty temp folder (where lark keeps the tables of a grammar it builds): a fresh CI machine
  (``--temp-kept``: the temp folder of the machine, as measured before this option);
- *after an edit*: the first run after a change of one pack file, everything stored by the run
  before. The change is different at each run:

  - by default, a comment line added at the end of ``--edit`` (``flow.yaml`` by default): what
    the files mean is unchanged;
  - ``--code`` (``--code comment``): a comment line of the effect language at the start of the
    first ``do: |`` block of ``--edit``, so that the text of one piece of code changes, not
    its meaning;
  - ``--code number``: the first number of that block made another (say ``0`` to ``3``), so
    that what one piece of code means changes (a real edit, still valid);
  - ``--value``: a real edit of data, still valid: a number of the first card of ``--edit``
    (by default the file that declares the ``cards:``), or, when ``--edit`` is ``pack.yaml``,
    the default of its first parameter, another value within its bounds;
- *unchanged*: run again, the pack unchanged (answered from the validation cache);
- ``--no-cache``: from scratch, reading and writing no cache at all.

``--against FOLDER`` (a checkout of another rulekit, say ``git worktree add /tmp/before main``)
times that rulekit too, each of its runs next to the same run of this one (interleaved, either
first in turn, so that both see the same load), on a copy of the pack of its own; a last line
gives the median of the differences between the two runs of each pair (this one less that
one, wall and CPU), which resolves smaller differences than the minimums and medians on a
noisy machine.

For each: the minimum and the median of the wall time and of the CPU time (user + system) of
the process, which a busy machine disturbs less; ``python -c pass`` is timed alike, as the
floor. The load average is printed before and after: figures taken on a busy machine are noisy.
Python's bytecode cache is used as in an installed rulekit. Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_load import timed  # one run of a command: wall and CPU seconds

ROOT = Path(__file__).resolve().parent.parent
RULEKIT = [sys.executable, "-m", "rulekit", "validate"]


def medians(samples: list[tuple[float, float]]) -> str:
    """Wall min/median and CPU min/median, in ms."""
    wall = [s[0] * 1000 for s in samples]
    cpu = [s[1] * 1000 for s in samples]
    return (f"{min(wall):>4.0f}/{statistics.median(wall):<4.0f} "
            f"{min(cpu):>4.0f}/{statistics.median(cpu):<4.0f}")


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def change(file: Path, run: int, mode: str) -> None:
    """Edit ``file`` as ``mode`` says (see the module's documentation), differently at each
    ``run``."""
    text = file.read_text(encoding="utf-8")
    if mode == "comment":
        file.write_text(f"{text}\n# edited ({run})\n", encoding="utf-8")
        return
    lines = text.split("\n")
    if mode == "value" and file.name == "pack.yaml":
        at = next(i for i, line in enumerate(lines) if DEFAULT.search(line))
        found = DEFAULT.search(lines[at])
        assert found is not None
        low, high = int(found["min"]), int(found["max"])
        value = low + (int(found["value"]) - low + run + 1) % (high - low + 1)
        lines[at] = DEFAULT.sub(lambda m: m.group().replace(m["value"], str(value), 1),
                                lines[at], count=1)
    elif mode == "value":
        start = lines.index("cards:")
        at = next(i for i in range(start, len(lines)) if CARD_NUMBER.search(lines[i]))
        lines[at] = CARD_NUMBER.sub(lambda m: f"{m[1]}{int(m[2]) + run + 1}", lines[at],
                                    count=1)
    else:
        at = next(i for i, line in enumerate(lines) if line.rstrip().endswith("do: |"))
        indent = len(lines[at + 1]) - len(lines[at + 1].lstrip())
        if mode == "code comment":
            lines.insert(at + 1, " " * indent + f"# edited ({run})")
        else:  # the first number of the block, outside texts
            end = next(i for i in range(at + 1, len(lines)) if lines[i].strip()
                       and len(lines[i]) - len(lines[i].lstrip()) < indent)
            at = next(i for i in range(at + 1, end) if NUMBER.search(_unquoted(lines[i])))
            found = NUMBER.search(_unquoted(lines[at]))
            assert found is not None
            lines[at] = (lines[at][:found.start()] + str(int(found.group()) + run + 1)
                         + lines[at][found.end():])
    file.write_text("\n".join(lines), encoding="utf-8")


DEFAULT = re.compile(r"default: (?P<value>-?[0-9]+), min: (?P<min>-?[0-9]+), "
                     r"max: (?P<max>-?[0-9]+)")
CARD_NUMBER = re.compile(r"(\b[a-z_]+: )(-?[0-9]+)\b")
NUMBER = re.compile(r"(?<![A-Za-z0-9_#])[0-9]+(?![A-Za-z0-9_])")


def _unquoted(line: str) -> str:
    """``line`` with its quoted texts and comment blanked out (same length)."""
    line = re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: " " * len(m.group()), line)
    at = line.find("#")
    return line if at < 0 else line[:at] + " " * (len(line) - at)


def bench(pack: str, edit: str | None, repeats: int, env: dict[str, str], mode: str,
          against: Path | None, temp_kept: bool) -> None:
    source = ROOT / "games" / pack if (ROOT / "games" / pack).is_dir() else Path(pack)
    versions = {"": ROOT}
    if against is not None:
        versions[f" ({against.name})"] = against
    samples: dict[str, dict[str, list[tuple[float, float]]]] = {
        label: {"empty cache": [], "after an edit": [], "unchanged": [], "--no-cache": []}
        for label in versions}
    with tempfile.TemporaryDirectory() as scratch:
        for run in range(repeats):
            order = list(versions.items())
            for label, version in order if run % 2 == 0 else order[::-1]:  # (either first)
                folder = Path(scratch) / f"{source.name}{label.replace(' ', '')}"
                if run == 0:
                    shutil.copytree(source, folder)
                own = {**env, "PYTHONPATH": str(version)}
                command = [*RULEKIT, str(folder)]
                found = samples[label]
                own["RULEKIT_CACHE_DIR"] = str(Path(scratch) / f"cache{run}{label}")
                temp = Path(scratch) / f"tmp{run}{label}"
                temp.mkdir()
                fresh = own if temp_kept else {**own, "TMPDIR": str(temp)}
                found["empty cache"].append(timed(command, fresh))
                change(folder / (edit or edited_file(folder, mode)), run, mode)
                found["after an edit"].append(timed(command, own))
                found["unchanged"].append(timed(command, own))
                found["--no-cache"].append(timed([*command, "--no-cache"], own))
    for label, found in samples.items():
        cells = "  ".join(medians(s) for s in found.values())
        print(f"{source.name + label:<22} {cells}")
    for label in list(versions)[1:]:  # each run against the same run of the other rulekit
        cells = "  ".join(paired(samples[""][key], samples[label][key])
                          for key in samples[""])
        print(f"{'  this - ' + label.strip(' ()'):<22} {cells}")


def paired(this: list[tuple[float, float]], other: list[tuple[float, float]]) -> str:
    """The median difference of wall and of CPU time between runs made one after the other,
    in ms: what a noisy machine disturbs least, when both rulekits are alike disturbed."""
    wall = statistics.median((a[0] - b[0]) * 1000 for a, b in zip(this, other, strict=True))
    cpu = statistics.median((a[1] - b[1]) * 1000 for a, b in zip(this, other, strict=True))
    return f"{wall:>+9.0f} {cpu:>+9.0f}"


def edited_file(folder: Path, mode: str) -> str:
    """The file edited when ``--edit`` is not given: the one declaring the cards for
    ``--value``, else ``flow.yaml``."""
    if mode != "value":
        return "flow.yaml"
    return next(p.name for p in sorted(folder.glob("*.yaml"))
                if "\ncards:\n" in p.read_text(encoding="utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repeats", nargs="?", type=int, default=5)
    parser.add_argument("--pack", nargs="+", default=["carchase", "rednotice"])
    parser.add_argument("--edit", help="the pack file changed before the 'after an edit' "
                        "run (default: flow.yaml; with --value, the file of the cards)")
    edits = parser.add_mutually_exclusive_group()
    edits.add_argument("--code", nargs="?", const="comment", choices=("comment", "number"),
                       help="edit a piece of effect code (the first `do: |` block): a comment "
                       "(the default), or its first number (what it means changes)")
    edits.add_argument("--value", action="store_true", help="change a value: a number of the "
                       "first card, or with --edit pack.yaml the first parameter's default")
    parser.add_argument("--against", type=lambda p: Path(p).resolve(),
                        help="a checkout of another rulekit, timed "
                        "alike, interleaved with this one")
    parser.add_argument("--temp-kept", action="store_true", help="empty cache: keep the temp "
                        "folder of the machine (lark's cache of grammar tables)")
    args = parser.parse_args()
    env = {**os.environ, "RULEKIT_NO_CACHE": ""}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    mode = "value" if args.value else f"code {args.code}" if args.code else "comment"
    packs = [p if (ROOT / "games" / p).is_dir() else str(Path(p).resolve()) for p in args.pack]
    os.chdir(tempfile.gettempdir())  # not the checkout: `python -m` puts the working folder
    for version in (ROOT, args.against):  # first on the path; this writes the bytecode
        if version is not None:
            subprocess.run([*RULEKIT, "--no-cache", "carchase"], check=True,
                           stdout=subprocess.DEVNULL, env={**env, "PYTHONPATH": str(version)})
    print(f"load average before: {load()}")
    floor = [timed([sys.executable, "-c", "pass"], env) for _ in range(args.repeats)]
    print(f"{'ms: wall, cpu':<22} {'empty cache':^19}  {'after an edit':^19}  "
          f"{'unchanged':^19}  {'--no-cache':^19}   min/median of {args.repeats}; "
          f"edited: {args.edit or edited_file(ROOT / 'games' / 'carchase', mode)}: {mode}")
    print(f"{'python -c pass':<22} {medians(floor)}")
    for pack in packs:
        bench(pack, args.edit, args.repeats, env, mode, args.against, args.temp_kept)
    print(f"load average after: {load()}")


if __name__ == "__main__":
    main()
