"""What the compiler hands the interpreter: a Program of compiled procedures."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypedDict

from rulekit.errors import Location

if TYPE_CHECKING:
    from rulekit.model.symbols import AnytimeDecl

Locals = list[object]  # a procedure's local values: parameters first


class CodeRuntime(Protocol):
    """The runtime generated code is called with (``rulekit.engine.vm.Runtime``)."""


class Frame(TypedDict):
    """Where one procedure stands: its name, next block and local values."""

    proc: str
    pc: int
    locals: Locals


ExprFn = Callable[[CodeRuntime, Locals], object]  # f(runtime, locals): an expression's value
Block = Callable[[CodeRuntime, Frame], int]  # f(runtime, frame): a block, returning a status
ProcFn = Callable[[CodeRuntime, Locals], None]  # f(runtime, locals): a procedure run whole

# What a block returns
CONTINUE = 0  # go on
SUSPEND = 1  # wait for decisions
STOP = 2  # the game is over

MAIN = "__main__"  # the procedure that runs setup, then rounds of phases
INITIATIVE = "__flow__:initiative"  # flow.initiative, compiled as a function of no parameters


@dataclass(frozen=True)
class LogField:
    """A ``{...}`` field of a log text; ``labelled`` fields show names."""

    labelled: bool


@dataclass
class Proc:
    """One compiled procedure: its ``blocks``, cut where it may stop for a decision."""

    name: str
    blocks: list[Block] = field(default_factory=list)
    locations: list[Location | None] = field(default_factory=list)  # of each block
    nslots: int = 0
    params: list[tuple[str, str]] = field(default_factory=list)
    # Where a choice is asked again after an anytime action, by the choice's block: the
    # tests that lead straight into it, when there are some.
    resume: dict[int, int] = field(default_factory=dict)
    # Whether an anytime action may change one of those tests: then a playout runs the
    # procedure through its blocks, to go back to them.
    moved_tests: bool = False


@dataclass
class Program:
    """Everything compiled from a pack, shared read-only by all its games."""

    procs: dict[str, Proc] = field(default_factory=dict)
    runs: dict[str, ProcFn] = field(default_factory=dict)  # procedures run whole, by name
    # Those of them that never stop for a decision: run whole by the interpreter too.
    direct: dict[str, ProcFn] = field(default_factory=dict)
    # The pack's functions, by name: each takes a new list of its arguments.
    functions: dict[str, ExprFn] = field(default_factory=dict)
    phase_pcs: dict[str, int] = field(default_factory=dict)  # each phase's block in MAIN
    round_start_pc: int = -1
    round_end_pc: int = -1
    end_checks: list[tuple[ExprFn, str, str]] = field(default_factory=list)
    # Whether the end conditions are checked as each phase starts too.
    end_on_turns: bool = False
    anytime: list[tuple[AnytimeDecl, ExprFn | None]] = field(default_factory=list)
    # The same, by role (only roles that have some).
    anytime_by_role: dict[str, list[tuple[AnytimeDecl, ExprFn | None]]] = field(
        default_factory=dict)
    # The card and the role of each card's anytime action, by its procedure: its first locals.
    action_cards: dict[str, tuple[str, str]] = field(default_factory=dict)
    evaluate: dict[str, ExprFn] = field(default_factory=dict)  # flow.evaluate, per role
    line_maps: dict[str, dict[int, Location]] = field(default_factory=dict)
    plain_ids: frozenset[str] = frozenset()  # component ids usable as option ids as they are
    logs: dict[int, list[str | LogField]] = field(default_factory=dict)
    # Why a choice refuses an answer (``where ... else "text"``), written as log texts are.
    reasons: dict[int, list[str | LogField]] = field(default_factory=dict)
    # Whether a playout may keep which anytime actions hold until code writes what their
    # conditions read (code then forgets them: ``rt.held.pop(role, None)``).
    cached_anytime: bool = False
    # The variables and zones whose value where the game waits may change what follows
    # (None if unknown): see :func:`rulekit.lang.analysis.live_reads`.
    live_vars: frozenset[str] | None = None
    # Roles with an anytime action whose ``when`` may read non-public data: always asked.
    secret_anytime: frozenset[str] = frozenset()
    # A text of ``reasons`` with its fields filled in, as players read it (set by the Game).
    say: Callable[[int, list[object]], str] = field(default=lambda text, values: "")


def zone_key(name: str, role: str) -> str:
    """The key of one role's pile of a per-role zone or variable."""
    return f"{name}.{role}"


class IndexedKeys(dict[object, str]):
    """The keys of an indexed zone's piles (or an indexed variable's values), by index."""

    def __init__(self, name: str, per: str | int, ids: list[str]) -> None:
        self.prefix = name + "."
        self.numbered = isinstance(per, int)
        indices: list[object] = [int(i) for i in ids] if self.numbered else list(ids)
        super().__init__({index: self.prefix + str(index) for index in indices})

    def __missing__(self, index: object) -> str:
        if self.numbered:
            return self.prefix + str(index)
        return self.prefix + index  # type: ignore[operator]  # (a TypeError, as when joined)
