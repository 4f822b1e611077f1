"""The interpreter: runs compiled instructions over a game state until a decision or the end.

The state is plain data. ``state["stack"]`` is the list of frames ``[procedure, pc, locals]``;
the interpreter keeps nothing else between calls, so a state saved as JSON and loaded again goes
on exactly where it stopped.
"""

from __future__ import annotations

from typing import Any

from rulekit.engine import rng
from rulekit.engine.decisions import option_ids
from rulekit.engine.frozen import FrozenDict
from rulekit.engine.helpers import BudgetExceeded, EndRound, StopGame, end_round
from rulekit.errors import GameRuntimeError, Location
from rulekit.model.program import CONTINUE, STOP, SUSPEND, Frame, Program

DEFAULT_STEP_BUDGET = 1_000_000


class Runtime:
    """A short-lived view of one state, used while instructions run."""

    __slots__ = ("budget", "fast", "log", "logging", "program", "stack", "state", "ticks",
                 "vars", "whens", "zones")

    def __init__(self, program: Program, state: dict[str, Any],
                 budget: int = DEFAULT_STEP_BUDGET) -> None:
        self.program = program
        self.state = state
        self.zones: dict[str, list[str]] = state["zones"]
        self.vars: dict[str, Any] = state["vars"]
        self.stack: list[Frame] = state["stack"]
        self.log: list[dict[str, Any]] = state["log"]
        self.logging = "quiet" not in state  # a quiet game builds no log events
        self.budget = budget
        self.ticks = budget  # counts down: one per block run and per loop turn
        # Procedures run as one plain function each when their frame starts (playouts).
        self.fast: dict[str, Any] | None = None
        # The values of anytime conditions a playout keeps, by the action's index, and each
        # role's actions that hold, by role (see Program.cache_whens); after writing what one
        # of them reads, generated code forgets its value and its role's actions.
        self.whens: dict[Any, Any] | None = None

    # ------------------------------------------------------------ services for instructions

    def shuffle(self, items: list[Any]) -> None:
        self.state["rng"] = rng.shuffle(self.state["rng"], items)

    def finish(self, winner: str | None, reason: str) -> None:
        state = self.state
        state["result"] = {"winner": winner, "reason": reason, "round": state["round"]}
        state["pending"] = []
        self.stack.clear()
        if self.logging:  # read-only, as every event of a game with a log (engine/frozen)
            self.log.append(FrozenDict({"e": "end", "to": None, "winner": winner,
                                        "reason": reason, "round": state["round"]}))

    def ask(self, specs: list[dict[str, Any]]) -> int:
        """Suspend for decisions. A choice with a single legal answer is taken at once, unless
        its options may depend on non-public data (``ask`` in its spec) or its player may take
        an anytime action: then it is asked with that single answer (so that whether a player
        is asked never tells a secret)."""
        locals_ = self.stack[-1][2]
        if len(specs) > 1:
            check_players(specs)
        plain_ids = self.program.plain_ids
        waiting = []
        for spec in specs:
            forced, value = forced_answer(spec)
            if forced and (spec.get("ask") or self._may_interrupt(spec["player"])):
                forced = False
                ask_anyway(spec)
            if forced:
                locals_[spec["slot"]] = value
            else:
                spec["ids"] = option_ids(spec["items"], plain_ids)
                waiting.append(spec)
        if not waiting:
            return CONTINUE
        self.state["pending"] = waiting
        self.state["committed"] = {}
        return SUSPEND

    # ------------------------------------------------------------ anytime actions

    def interrupt(self, procedure: str) -> None:
        """Run an anytime action's ``procedure`` next; then the interrupted choice is asked
        again from its resume point (:func:`step_back`)."""
        stack = self.stack
        step_back(self.program, stack[-1])
        stack.append([procedure, 0, [None] * self.program.procs[procedure].nslots])

    def _may_interrupt(self, role: str) -> bool:
        """True if ``role`` has an anytime action now, or one whose availability may tell a
        secret (then ``role`` is always asked)."""
        program = self.program
        return bool(program.anytime) and (role in program.secret_anytime
                                          or bool(self.anytime_options(role)))

    def anytime_options(self, role: str) -> list[tuple[str, str]]:
        """The anytime actions ``role`` may take now, as (option id, label): those whose
        ``when`` holds, except an action whose procedure is running (inside its own
        question)."""
        found: list[tuple[str, str]] = []
        running = {frame[0] for frame in self.stack}
        for decl, when in self.program.anytime:
            if decl.role != role or decl.procedure in running:
                continue
            if when is not None and not self.evaluate(when, decl.location):
                continue
            found.append(("!" + decl.id, decl.label))
        return found

    def evaluate(self, fn: Any, location: Location | None) -> Any:
        """The value of a compiled expression; a failure is a located GameRuntimeError."""
        try:
            return fn(self, [])
        except GameRuntimeError:
            raise
        except (LookupError, TypeError, ValueError, ArithmeticError, AttributeError,
                RecursionError) as exc:
            raise GameRuntimeError(_describe(exc),
                                   self._error_location(exc, [location], 0)) from None

    # ------------------------------------------------------------ the loop

    def run(self) -> None:
        """Run until the game waits for a decision or ends."""
        stack = self.stack
        procs = self.program.procs
        state = self.state
        budget = self.budget
        steps = 0  # blocks run here; loops inside blocks count down self.ticks
        fast = self.fast
        while stack:
            frame = stack[-1]
            if fast is not None and frame[1] == 0 and frame[0] in fast:
                try:
                    fast[frame[0]](self, frame[2])
                except StopGame:
                    break
                except EndRound:
                    end_round(self)
                    continue
                stack.pop()
                continue
            proc = procs[frame[0]]
            code = proc.code
            size = len(code)
            depth = len(stack)
            status = CONTINUE
            while True:
                pc = frame[1]
                if pc >= size:
                    stack.pop()
                    break
                frame[1] = pc + 1
                try:
                    status = code[pc](self, frame)
                    steps += 1
                    if steps > budget:
                        raise BudgetExceeded
                except StopGame:
                    status = STOP
                except EndRound as signal:
                    try:
                        end_round(self)
                    except LookupError as exc:
                        raise GameRuntimeError(
                            str(exc), self._error_location(signal, proc.locations, pc)
                        ) from None
                    break
                except BudgetExceeded as exc:
                    raise GameRuntimeError(
                        f"the game ran {self.budget:,} steps without waiting for a decision",
                        self._error_location(exc, proc.locations, pc),
                        "is there a loop that never ends?",
                    ) from None
                except GameRuntimeError:
                    raise
                except (LookupError, TypeError, ValueError, ArithmeticError, AttributeError,
                        RecursionError) as exc:
                    raise GameRuntimeError(
                        _describe(exc), self._error_location(exc, proc.locations, pc)
                    ) from None
                if status or len(stack) != depth:
                    break
            if status or state["result"] is not None:
                break
        state["steps"] += steps + self.budget - self.ticks
        if not stack and state["result"] is None:
            self.finish(None, "the game ended without a winner")

    def _error_location(self, exc: BaseException, locations: list[Location | None],
                        pc: int) -> Location | None:
        """Where in the pack the failing statement is: the innermost generated line."""
        found = None
        tb = exc.__traceback__
        line_maps = self.program.line_maps
        while tb is not None:
            code = tb.tb_frame.f_code
            line_map = line_maps.get(code.co_filename)
            if line_map is not None and tb.tb_lineno in line_map:
                found = line_map[tb.tb_lineno]
            tb = tb.tb_next
        return found or _location(locations, pc)


def _location(locations: list[Location | None], pc: int) -> Location | None:
    for i in range(pc, -1, -1):
        if locations[i] is not None:
            return locations[i]
    return None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, KeyError):
        if exc.args and exc.args[0] is None:
            return "none has no properties (reading a property of an empty zone's top?)"
        return f"no such item: {exc.args[0]!r}"
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, RecursionError):
        return "functions call each other without end"
    if isinstance(exc, TypeError):
        if "NoneType" in str(exc):
            return "a value is none where something else is needed"
        return f"a value has the wrong type here ({exc})"
    return str(exc)


def step_back(program: Program, frame: Frame) -> None:
    """Move ``frame`` back to where its interrupted choice (the block before its pc) is asked
    again: the choice itself, or the ``if``/``elif``/``while`` tests that lead straight into
    it (``Proc.resume``), evaluated again so that a test an anytime action made false skips
    the choice as it would have before."""
    choice = frame[1] - 1
    frame[1] = program.procs[frame[0]].resume.get(choice, choice)


def check_players(specs: list[dict[str, Any]]) -> None:
    """An error if one player has two of the choices asked together."""
    players = [spec["player"] for spec in specs]
    if len(set(players)) != len(players):
        raise LookupError("one player has two choices in the same simultaneous block")


def ask_anyway(spec: dict[str, Any]) -> None:
    """A forced choice asked all the same: a subset's single answer stays the only legal one."""
    if spec["kind"] == "subset":
        spec["max"] = max(spec["max"], 0)
        spec["min"] = max(min(spec["min"], spec["max"]), 0)


def forced_answer(spec: dict[str, Any]) -> tuple[bool, Any]:
    """(True, value) when a decision has exactly one legal answer; an error when it has none."""
    items = spec["items"]
    player = spec["player"]
    if spec["kind"] == "one":
        if not items and spec["optional"]:
            return True, None
        if not items:
            raise LookupError(f"{player} must choose, but there is nothing to choose")
        if len(items) == 1 and not spec["optional"]:
            return True, items[0]
        return False, None
    rules = spec["at_most"]
    free: Any = range(len(items))
    for limit, flags in rules:
        if limit <= 0:  # items an 'at most 0' rule forbids
            free = [i for i in free if not flags[i]]
    most = min(spec["max"], len(free))
    least = spec["min"]
    if least > most:
        raise LookupError(f"{player} must choose at least {least}, but only {max(most, 0)} "
                          "can be chosen")
    if most <= 0:
        return True, []
    if least == len(free) and all(sum(flags[i] for i in free) <= limit
                                  for limit, flags in rules):
        return True, [items[i] for i in free]
    return False, None
