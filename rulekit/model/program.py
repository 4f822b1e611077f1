"""What a compiled pack is made of, as the interpreter runs it.

The compiler (:mod:`rulekit.lang.compiler`) builds a :class:`Program`; the interpreter
(:mod:`rulekit.engine.vm`) and the code the compiler generates run on it, with the frame
layout and block statuses below. This module, like the rest of ``rulekit.engine``, never
imports the compiler: the language's phases run one way, parse → check → compile → run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulekit.errors import Location

if TYPE_CHECKING:
    from rulekit.engine.vm import Runtime
    from rulekit.model.symbols import AnytimeDecl

Locals = list[Any]
Frame = list[Any]  # [procedure name, pc, locals]
ExprFn = Callable[["Runtime", Locals], Any]
Instr = Callable[["Runtime", Frame], int]

# Block results
CONTINUE = 0
SUSPEND = 1  # waiting for decisions
STOP = 2  # the game is over

MAIN = "__main__"  # the procedure that runs setup, then rounds of phases
INITIATIVE = "__flow__:initiative"  # flow.initiative, compiled as a function of no parameters


@dataclass(frozen=True)
class LogField:
    """A ``{...}`` field of a log text: ``labelled`` fields show names, the others raw text."""

    labelled: bool


@dataclass
class Proc:
    """One compiled procedure: its blocks and where each came from."""

    name: str
    code: list[Instr] = field(default_factory=list)
    locations: list[Location | None] = field(default_factory=list)
    nslots: int = 0
    params: list[tuple[str, str]] = field(default_factory=list)
    # The block at which a choice is asked again after an anytime action, by the choice's
    # block, when that is not the choice itself: the tests that lead straight into it.
    resume: dict[int, int] = field(default_factory=dict)
    # Whether an anytime action may change one of those tests (it reads what the action's
    # procedure writes): otherwise asking the choice again goes the same way as running them
    # again, and a playout may ask it again at once.
    moved_tests: bool = False


@dataclass
class Program:
    """Everything compiled from a pack; shared, read-only, by every game of it."""

    procs: dict[str, Proc] = field(default_factory=dict)
    functions: dict[str, Callable[[Runtime, list[Any]], Any]] = field(default_factory=dict)
    # The same, as generated code calls them: with a new list of arguments, which they extend.
    direct_functions: dict[str, Callable[[Runtime, list[Any]], Any]] = field(
        default_factory=dict)
    # The playout version of each procedure: a plain function f(rt, locals) that answers its
    # choices at once through ``rt.answer`` and logs as the procedure's blocks do (see
    # engine/playout).
    playout: dict[str, Callable[[Runtime, list[Any]], Any]] = field(default_factory=dict)
    build_playout: Callable[[], None] | None = None  # compiles ``playout`` when first needed
    phase_pcs: dict[str, int] = field(default_factory=dict)
    round_start_pc: int = -1
    round_end_pc: int = -1
    end_checks: list[tuple[ExprFn, str, str]] = field(default_factory=list)
    anytime: list[tuple[AnytimeDecl, ExprFn | None]] = field(default_factory=list)
    evaluate: dict[str, ExprFn] = field(default_factory=dict)  # flow.evaluate, per role
    line_maps: dict[str, dict[int, Location]] = field(default_factory=dict)
    plain_ids: frozenset[str] = frozenset()  # component ids usable as option ids as they are
    logs: dict[int, list[str | LogField]] = field(default_factory=dict)
    # Why a choice refuses an answer (``where ... else "text"``), written as log texts are.
    reasons: dict[int, list[str | LogField]] = field(default_factory=dict)
    # Per choice with a reason on 'where': a function f(rt, L) listing the candidates refused
    # and why, and the choice's place in the pack (a spec's ``refusing``: engine/refusals).
    refusers: list[tuple[Callable[[Runtime, list[Any]], list[Any]], Location | None]] = field(
        default_factory=list)
    # Per choice with a ``label``: a function f(rt, L, items) giving the label of each item
    # (a spec's ``labelling``).
    labellers: list[tuple[Callable[[Runtime, list[Any], list[Any]], list[Any]],
                          Location | None]] = field(default_factory=list)
    # Roles with an anytime action whose ``when`` may read non-public data: always asked.
    secret_anytime: frozenset[str] = frozenset()
    # Whether a run may keep the values of the anytime conditions until generated code writes
    # something they read (it then forgets, in ``rt.whens``, the values of those conditions and
    # the actions that hold for their roles).
    cache_whens: bool = False
    # The ``when`` of each anytime action (as in ``anytime``) written as playout code.
    playout_whens: list[ExprFn | None] = field(default_factory=list)
    # The flow, for the playout version of the main procedure (engine/rounds): the setup's
    # procedure, the number of rounds, the phases (id, procedure), what follows the rounds.
    flow: tuple[str | None, ExprFn | None, list[tuple[str, str]], str | None] | None = None


def zone_key(name: str, role: str) -> str:
    """The key of one role's pile of a per-role zone (or of a per-role variable)."""
    return f"{name}.{role}"
