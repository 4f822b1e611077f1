"""Mutants of the shipped packs, and what loading and playing each one may end in.

A mutant is a shipped pack with one of its files changed one to three times: a key deleted,
renamed or given a value of another type, two values swapped, an entry duplicated, a line
deleted, duplicated or moved, or a token of effect code inserted, deleted or replaced. The
mutant is loaded as ``rulekit validate`` loads a pack; a valid one is played a few decisions
with random choices. A mutated scenario file is checked as ``rulekit validate`` checks it and
run against its pack as shipped. Every outcome must be a success, or an error of rulekit (or a
failed scenario) with a place whose quoted line is the real line of that file. Anything else is
a *finding*:

- ``traceback``: an exception that is not a RulekitError;
- ``hang``: the mutant took more processor time than the limit;
- ``unlocated``: a RulekitError without a place, or whose quoted line is not the file's line.

``tests/test_fuzz.py`` runs a few hundred seeded mutants; ``benchmarks/fuzz_packs.py`` runs
thousands and prints the counts.
"""

from __future__ import annotations

import random
import re
import shutil
import signal
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import yaml

from rulekit.errors import GameRuntimeError, Location, PackError, PackErrors, RulekitError
from rulekit.pack.loader import LoadedPack, load_pack, shipped_packs_dir
from rulekit.scenarios.check import check_scenarios
from rulekit.scenarios.runner import ScenarioRunner, load_scenarios

PACKS = ("carchase", "rednotice")
CODE_KEYS = frozenset({"do", "when", "returns", "rounds", "setup", "after_rounds", "expect"})
FINDINGS = ("traceback", "hang", "unlocated")

# Values a retyped node may take: every YAML type, and texts shaped like code or ids.
ODD_VALUES: list[Any] = [
    0, -1, 1, 7, 10**6, 2**70, 3.5, True, False, None, "", "x", "if", "@x", "{", "[1, 2]",
    "zone[x]", "1 +", "-", [], [1], ["x"], {}, {"id": "x"}, {"x": 1},
]

CODE_TOKENS = [
    "if", "else", "elif", "while", "for", "in", "repeat", "let", "move", "from", "to", "draw",
    "shuffle", "choose", "one", "subset", "of", "where", "simultaneous", "win", "log", "break",
    "continue", "return", "pass", "and", "or", "not", "true", "false", "none", "all", "top",
    "it", "{", "}", "(", ")", "[", "]", ",", ".", ";", "=", "==", "!=", "+=", "-=", "+", "-",
    "*", "//", "%", "<", ">=", "0", "1", "-1", "99999999999999999999", '"x"', '"{x}"', "@x",
    "count", "range", "x", "\n", "#",
]
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|@?[A-Za-z_][A-Za-z0-9_]*|\d+|==|!=|<=|>=|\+=|-=|//|\S')


@dataclass
class Outcome:
    """What one mutant ended in: ``ok``, ``error`` (located as it should) or a finding."""

    kind: str
    detail: str = ""


@dataclass
class Mutant:
    """One changed file of one pack."""

    index: int
    pack: str
    file: str
    operator: str
    text: str


@dataclass
class Tally:
    """Counts of outcomes over many mutants, with the first few findings of each kind."""

    counts: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, mutant: Mutant, outcome: Outcome, keep: int = 5) -> None:
        self.counts[outcome.kind] = self.counts.get(outcome.kind, 0) + 1
        if outcome.kind in FINDINGS:
            shown = self.examples.setdefault(outcome.kind, [])
            if len(shown) < keep:
                shown.append(f"mutant {mutant.index} ({mutant.pack}/{mutant.file}, "
                             f"{mutant.operator}): {outcome.detail}")

    @property
    def findings(self) -> int:
        return sum(self.counts.get(kind, 0) for kind in FINDINGS)


class Hang(BaseException):
    """Raised by the alarm when a mutant runs past its time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    def alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang()

    # Processor time, not the clock: a machine busy with other work does not make a hang.
    previous = signal.signal(signal.SIGVTALRM, alarm)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


# ------------------------------------------------------------------ making mutants


class _BlockDumper(yaml.SafeDumper):
    """Writes texts of several lines as literal blocks, as pack authors do."""


def _represent_text(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value and value.strip() and not value[0].isspace() else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_BlockDumper.add_representer(str, _represent_text)


def _nodes(data: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every (path, value) of a document, the root first."""
    yield path, data
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _nodes(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _nodes(value, (*path, i))


def _get(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data


def _set(data: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(data, path[:-1])[path[-1]] = value


_SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _data(text: str) -> Any:
    return yaml.load(text, Loader=_SafeLoader)


def _dump(data: Any) -> str:
    return yaml.dump(data, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=100)


def _structural(rng: random.Random, text: str) -> tuple[str, str] | None:
    """A change of the document's data: delete, duplicate, retype, swap or rename."""
    data = _data(text)
    nodes = list(_nodes(data))[1:]
    if not nodes:
        return None
    operator = rng.choice(["delete", "duplicate", "retype", "swap", "rename", "borrow"])
    path, value = rng.choice(nodes)
    parent = _get(data, path[:-1])
    if operator == "delete":
        del parent[path[-1]]
    elif operator == "duplicate":
        lists = [(p, v) for p, v in nodes if isinstance(v, list) and v]
        if not lists:
            return None
        _, items = rng.choice(lists)
        items.insert(rng.randrange(len(items) + 1), rng.choice(items))
    elif operator == "retype":
        _set(data, path, rng.choice(ODD_VALUES))
    elif operator == "swap":
        other, other_value = rng.choice(nodes)
        if other[: len(path)] == path or path[: len(other)] == other:
            return None  # one holds the other
        _set(data, path, other_value)
        _set(data, other, value)
    elif operator == "rename":
        if not isinstance(parent, dict):
            return None
        keys = [p[-1] for p, _ in nodes if isinstance(p[-1], str)]
        new = rng.choice([*keys, path[-1] + "s", path[-1][:-1], "x"])
        items = [(new if k == path[-1] else k, v) for k, v in parent.items()]
        parent.clear()
        parent.update(items)  # a clash of keys keeps the last value
    else:  # borrow: a scalar takes the value of another scalar of the file (an id, a number...)
        scalars = [v for _, v in nodes if not isinstance(v, (dict, list))]
        _set(data, path, rng.choice(scalars))
    return operator, _dump(data)


def _lines(rng: random.Random, text: str) -> tuple[str, str] | None:
    """A change of the text's lines: delete, duplicate, move, indent or dedent one."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    operator = rng.choice(["delete line", "duplicate line", "move line", "indent", "dedent"])
    if operator == "delete line":
        del lines[i]
    elif operator == "duplicate line":
        lines.insert(i, lines[i])
    elif operator == "move line":
        lines.insert(rng.randrange(len(lines)), lines.pop(i))
    elif operator == "indent":
        lines[i] = "  " + lines[i]
    else:
        lines[i] = lines[i].removeprefix("  ")
    return operator, "\n".join(lines)


def _code_lines(text: str) -> list[int]:
    """Indexes of the lines of ``text`` that are effect code (in a code key's value)."""
    data = _data(text)
    code: set[str] = set()
    for path, value in _nodes(data):
        if isinstance(value, str) and any(k in CODE_KEYS for k in path if isinstance(k, str)):
            code.update(line.strip() for line in value.split("\n") if line.strip())
    lines = text.split("\n")
    return [i for i, line in enumerate(lines) if line.strip() in code]


def _tokens(rng: random.Random, text: str) -> tuple[str, str] | None:
    """A change of one token of effect code: insert, delete, replace, swap or duplicate."""
    candidates = _code_lines(text)
    if not candidates:
        return None
    lines = text.split("\n")
    i = rng.choice(candidates)
    line = lines[i]
    spans = [m.span() for m in _TOKEN.finditer(line)]
    if not spans:
        return None
    operator = rng.choice(["insert token", "delete token", "replace token", "swap tokens",
                           "duplicate token"])
    k = rng.randrange(len(spans))
    start, end = spans[k]
    word = line[start:end]
    new = rng.choice(CODE_TOKENS + [line[a:b] for a, b in spans])
    if "\n" in new:  # a line break inside code keeps the block's indentation
        new = "\n" + line[: len(line) - len(line.lstrip())]
    if operator == "insert token":
        line = f"{line[:start]}{new} {line[start:]}"
    elif operator == "delete token":
        line = line[:start] + line[end:]
    elif operator == "replace token":
        line = line[:start] + new + line[end:]
    elif operator == "duplicate token":
        line = f"{line[:end]} {word}{line[end:]}"
    else:
        if k + 1 >= len(spans):
            return None
        s2, e2 = spans[k + 1]
        line = line[:start] + line[s2:e2] + line[end:s2] + word + line[e2:]
    lines[i] = line
    return operator, "\n".join(lines)


def pack_files(pack: str) -> list[str]:
    """The YAML files of a shipped pack, relative to its folder."""
    folder = shipped_packs_dir() / pack
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.yaml"))


def make_mutant(index: int, seed: int = 0, packs: tuple[str, ...] = PACKS,
                scenarios_share: float = 0.15) -> Mutant:
    """Mutant number ``index`` of the series ``seed`` (the same every time); about
    ``scenarios_share`` of the mutants change a scenario file."""
    rng = random.Random(f"{seed}:{index}")
    pack = rng.choice(packs)
    files = pack_files(pack)
    scenarios = [f for f in files if f.startswith("scenarios/")]
    others = [f for f in files if f not in scenarios]
    file = rng.choice(scenarios if scenarios and rng.random() < scenarios_share else others)
    original = text = (shipped_packs_dir() / pack / file).read_text("utf-8")
    operators: list[str] = []
    changes = rng.choice([1, 1, 1, 2, 3])
    while len(operators) < changes or text == original:
        # Effect code most often: it is where most of a pack's text is.
        make: Callable[[random.Random, str], tuple[str, str] | None] = rng.choices(
            [_structural, _lines, _tokens], weights=[4, 2, 4])[0]
        try:
            made = make(rng, text)
        except yaml.YAMLError:  # an earlier change broke the YAML: change its lines only
            made = _lines(rng, text)
        if made is not None:
            operators.append(made[0])
            text = made[1]
    return Mutant(index, pack, file, ", ".join(operators), text)


# ------------------------------------------------------------------ judging outcomes


def _misplaced(error: RulekitError) -> str | None:
    """Why the place of an error is wrong, or None if it names a real line and quotes it."""
    return _misplaced_at(getattr(error, "location", None), str(error))


def _misplaced_at(loc: Location | None, error: str) -> str | None:
    if loc is None:
        return f"no place: {error}"
    if loc.source_line is None:
        return f"no quoted line: {error}"
    try:
        lines = Path(loc.file).read_text("utf-8").replace("\r\n", "\n").split("\n")
    except OSError:
        return f"names no file: {error}"
    if not 1 <= loc.line <= len(lines):
        return f"line {loc.line} is not in {loc.file}: {error}"
    if lines[loc.line - 1] != loc.source_line.rstrip("\n"):
        return f"quotes {loc.source_line!r}, not line {loc.line} {lines[loc.line - 1]!r}"
    if not 1 <= loc.column <= len(lines[loc.line - 1]) + 1:
        return f"column {loc.column} is outside line {loc.line}: {error}"
    return None


def _judge(error: RulekitError) -> Outcome:
    errors = error.errors if isinstance(error, PackErrors) else [error]
    for e in errors:
        problem = _misplaced(e)
        if problem is not None:
            return Outcome("unlocated", problem)
    return Outcome("error")


def _play(loaded: LoadedPack, seed: int, decisions: int) -> None:
    """A few decisions with random choices, observing every seat after each."""
    game = loaded.game
    rng = random.Random(seed)
    state = game.new_game(seed)
    for _ in range(decisions):
        if state["result"] is not None:
            return
        pending = game.pending(state)
        if not pending:
            return
        state = game.apply(state, {d.player: d.sample(rng) for d in pending})
        for role in game.symbols.roles:
            game.observe(state, role)


def _run_scenarios(loaded: LoadedPack, file: Path) -> Outcome:
    """Check a scenario file as ``rulekit validate`` does, then run each of its scenarios."""
    scenarios = load_scenarios([file])
    errors = check_scenarios(loaded, scenarios)
    if errors:
        raise PackErrors(errors)
    runner = ScenarioRunner(loaded)
    for scenario in scenarios:
        result = runner.run(scenario)
        problem = None if result.passed else _misplaced_at(result.location, result.message)
        if problem is not None:
            return Outcome("unlocated", f"scenario '{scenario.name[:60]}': {problem}")
    return Outcome("ok")


def try_mutant(mutant: Mutant, folder: Path, decisions: int = 30, seconds: float = 10.0,
               shipped: LoadedPack | None = None) -> Outcome:
    """Load (and play a little) the mutant, written into ``folder`` (a copy of its pack).

    A mutant of a scenario file is run against ``shipped``, the pack loaded as shipped, if
    given (the pack itself is unchanged)."""
    target = folder / mutant.file
    original = target.read_text("utf-8")
    target.write_text(mutant.text, encoding="utf-8")
    try:
        with time_limit(seconds):
            if mutant.file.startswith("scenarios/"):
                return _run_scenarios(shipped or load_pack(folder), target)
            loaded = load_pack(folder)
            if mutant.file == "pack.yaml":
                load_scenarios(loaded.scenario_files)
            _play(loaded, mutant.index, decisions)
        return Outcome("ok")
    except Hang:
        return Outcome("hang", f"more than {seconds} s of processor time")
    except (PackError, PackErrors, GameRuntimeError) as exc:
        return _judge(exc)
    except RulekitError as exc:
        return Outcome("unlocated", f"{type(exc).__name__} without a place: {exc}")
    except RecursionError as exc:  # a deep traceback is long; its last lines say enough
        return Outcome("traceback", f"RecursionError: {exc}")
    except Exception as exc:
        last = traceback.extract_tb(exc.__traceback__)[-1]
        return Outcome("traceback", f"{type(exc).__name__}: {str(exc)[:200]} "
                                    f"({Path(last.filename).name}:{last.lineno})")
    finally:
        target.write_text(original, encoding="utf-8")


@contextmanager
def pack_copies(root: Path) -> Iterator[dict[str, Path]]:
    """A copy of each shipped pack under ``root``, for mutants to be written into."""
    copies = {}
    for pack in PACKS:
        copies[pack] = root / pack
        shutil.copytree(shipped_packs_dir() / pack, copies[pack])
    try:
        yield copies
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run_mutants(indexes: range, root: Path, seed: int = 0, seconds: float = 10.0,
                packs: tuple[str, ...] = PACKS, decisions: int = 30,
                scenarios_share: float = 0.15) -> tuple[Tally, list[tuple[Mutant, Outcome]]]:
    """Make and try the mutants ``indexes`` of series ``seed``; the tally and the findings."""
    tally = Tally()
    findings = []
    with pack_copies(root) as copies:
        shipped = {pack: load_pack(copies[pack]) for pack in packs}
        for index in indexes:
            mutant = make_mutant(index, seed, packs, scenarios_share)
            outcome = try_mutant(mutant, copies[mutant.pack], decisions, seconds,
                                 shipped[mutant.pack])
            tally.add(mutant, outcome)
            if outcome.kind in FINDINGS:
                findings.append((mutant, outcome))
    return tally, findings
