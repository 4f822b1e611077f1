"""The interpreter: runs compiled blocks over a state until a decision or the end.

It keeps nothing between calls but the state's frames, so a saved state goes on where it stopped.
"""

from __future__ import annotations

from rulekit.engine import rng
from rulekit.engine.decisions import option_ids
from rulekit.engine.helpers import BudgetExceeded, EndRound, StopGame, end_round, missing
from rulekit.engine.state import ChoiceEvent, EndEvent, Event, Spec, State, read_only
from rulekit.errors import GameRuntimeError, Location
from rulekit.model.program import (
    CONTINUE,
    STOP,
    SUSPEND,
    ExprFn,
    Frame,
    Locals,
    Proc,
    ProcFn,
    Program,
)
from rulekit.model.symbols import AnytimeDecl

DEFAULT_STEP_BUDGET = 1_000_000

# The Python errors that a pack's code may cause, reported as located run-time errors.
CODE_ERRORS = (LookupError, TypeError, ValueError, ArithmeticError, AttributeError,
               RecursionError)


class Runtime:
    """A short-lived view of one state, used while its code runs."""

    __slots__ = ("anytime_by_role", "budget", "held", "log", "logging", "program", "runs",
                 "spent", "stack", "state", "ticks", "vars", "zones")

    def __init__(self, program: Program, state: State,
                 budget: int = DEFAULT_STEP_BUDGET) -> None:
        self.program = program
        self.state = state
        self.zones = state["zones"]
        self.vars = state["vars"]
        self.stack = state["stack"]
        self.log: list[Event] = state["log"]
        self.logging = "quiet" not in state  # a quiet game builds no log lines
        self.budget = budget
        self.ticks = budget  # steps left before the budget runs out
        self.spent = 0  # steps counted before the last decision
        # The procedures run whole when their frame starts: those that never stop.
        self.runs: dict[str, ProcFn] = program.direct
        self.anytime_by_role = program.anytime_by_role
        # Per role, the anytime actions whose conditions held when last asked, and their
        # options (kept by playouts only; code forgets them when it writes what they read).
        self.held: dict[str, list[tuple[AnytimeDecl, tuple[str, str]]]] = {}

    # ------------------------------------------------------------ services for the code

    def shuffle(self, items: list[str]) -> None:
        self.state["rng"] = rng.shuffle(self.state["rng"], items)

    def finish(self, winner: str | None, reason: str) -> None:
        """End the game."""
        state = self.state
        state["result"] = {"winner": winner, "reason": reason, "round": state["round"]}
        state["pending"] = []
        self.stack.clear()
        if self.logging:
            event: EndEvent = {"e": "end", "to": None, "winner": winner, "reason": reason,
                               "round": state["round"]}
            self.log.append(read_only(event))

    def ask(self, specs: list[Spec]) -> int:
        """Wait for the decisions ``specs``; forced ones are taken at once."""
        waiting = self.open(specs, self.stack[-1]["locals"])
        if not waiting:
            return CONTINUE
        self.wait_for(waiting)
        return SUSPEND

    def wait_for(self, specs: list[Spec]) -> None:
        """Leave ``specs`` pending, each with its option ids."""
        for spec in specs:
            spec["ids"] = option_ids(spec["items"], self.program.plain_ids)
        self.state["pending"] = specs
        self.state["committed"] = {}

    def open(self, specs: list[Spec], locals_: Locals) -> list[Spec]:
        """Write the forced answers of ``specs`` into ``locals_``; return the others.

        A forced choice that may read a secret, or whose player may take an anytime action, is
        asked all the same, so whether a player is asked never tells a secret.
        """
        if len(specs) > 1 and len({spec["player"] for spec in specs}) < len(specs):
            raise LookupError("one player has two choices in the same simultaneous block")
        waiting = []
        may_interrupt = self.may_interrupt
        for spec in specs:
            forced, value = forced_answer(spec)
            if not forced:
                waiting.append(spec)
            elif spec.get("ask") or may_interrupt(spec["player"]):
                if spec["kind"] == "subset":  # its single answer stays the only one
                    spec["max"] = max(spec["max"], 0)
                    spec["min"] = max(min(spec["min"], spec["max"]), 0)
                waiting.append(spec)
            else:
                locals_[spec["slot"]] = value
        return waiting

    # ------------------------------------------------------------ anytime actions

    def interrupt(self, procedure: str) -> None:
        """Run an anytime action's procedure next, then ask the choice again.

        The frame steps back to its choice, or to the tests that lead into it (``Proc.resume``).
        """
        frame = self.stack[-1]
        choice = frame["pc"] - 1
        frame["pc"] = self.program.procs[frame["proc"]].resume.get(choice, choice)
        self.stack.append(self.action_frame(procedure))

    def took_anytime(self, role: str, option_id: str) -> str:
        """Log an anytime action taken; return its procedure."""
        decl = next(d for d, _ in self.anytime_by_role[role] if "!" + d.id == option_id)
        event: ChoiceEvent = {"e": "choice", "to": role, "player": role, "option": option_id,
                              "label": decl.label, "round": self.state["round"]}
        self.log.append(read_only(event) if self.logging else event)
        return decl.procedure

    def action_frame(self, procedure: str) -> Frame:
        """A new frame for an anytime action's procedure; a card's gets its card and role."""
        program = self.program
        locals_: Locals = [None] * program.procs[procedure].nslots
        bound = program.action_cards.get(procedure)
        if bound is not None:
            locals_[:2] = bound
        return {"proc": procedure, "pc": 0, "locals": locals_}

    def may_interrupt(self, role: str) -> bool:
        """Whether ``role`` may take an anytime action, or its actions tell a secret."""
        program = self.program
        return bool(program.anytime) and (role in program.secret_anytime
                                          or bool(self.anytime_options(role)))

    def anytime_options(self, role: str) -> list[tuple[str, str]]:
        """The anytime actions ``role`` may take now (``when`` holds, not running): (id, label)."""
        actions = self.anytime_by_role.get(role)
        if not actions:
            return []
        running = {frame["proc"] for frame in self.stack}
        return [("!" + decl.id, decl.label) for decl, when in actions
                if decl.procedure not in running
                and (when is None or self.evaluate(when, decl.location))]

    def evaluate(self, fn: ExprFn, location: Location | None) -> object:
        """The value of a compiled expression; failures are located GameRuntimeErrors."""
        try:
            return fn(self, [])
        except CODE_ERRORS as exc:
            raise GameRuntimeError(_describe(exc),
                                   self.error_location(exc, [location], 0)) from None

    # ------------------------------------------------------------ the loop

    def run(self, floor: int = 0) -> None:
        """Run until the game waits for a decision or ends.

        With a ``floor`` (a playout running one procedure's blocks), stop once the stack is back
        to that many frames, and let the end of the game or of the round pass to the caller.
        """
        stack = self.stack
        procs = self.program.procs
        while len(stack) > floor:
            frame = stack[-1]
            proc = procs[frame["proc"]]
            pc = frame["pc"]
            try:
                status = self._step(frame, proc)
            except StopGame:
                if floor:
                    raise
                status = STOP
            except EndRound as signal:
                if floor:
                    raise
                self._end_round(signal, proc.locations, pc)
                continue
            except (BudgetExceeded, *CODE_ERRORS) as exc:
                raise self._located(exc, proc.locations, pc) from None
            if status:
                break
        if not floor:
            self._count_steps()

    def _step(self, frame: Frame, proc: Proc) -> int:
        """Run ``frame``'s next block, or its whole procedure if it may; a status."""
        pc = frame["pc"]
        run = self.runs.get(proc.name) if pc == 0 else None
        if run is not None:
            run(self, frame["locals"])
        elif pc < len(proc.blocks):
            frame["pc"] = pc + 1
            self.ticks -= 1
            if self.ticks < 0:
                raise BudgetExceeded
            return proc.blocks[pc](self, frame)
        self.stack.pop()
        return CONTINUE

    def _end_round(self, signal: EndRound, locations: list[Location | None], pc: int) -> None:
        try:
            end_round(self)
        except LookupError as exc:
            raise GameRuntimeError(str(exc), self.error_location(signal, locations, pc)) from None

    def _located(self, exc: Exception, locations: list[Location | None], pc: int
                 ) -> GameRuntimeError:
        """The located error to report for ``exc``, raised in a procedure."""
        where = self.error_location(exc, locations, pc)
        if isinstance(exc, BudgetExceeded):
            return GameRuntimeError(
                f"the game ran {self.budget:,} steps without waiting for a decision", where,
                "is there a loop that never ends?")
        return GameRuntimeError(_describe(exc), where)

    def _count_steps(self) -> None:
        """Add the steps run to the state's count; end a game whose flow is over."""
        state = self.state
        state["steps"] += self.spent + self.budget - self.ticks
        self.spent, self.ticks = 0, self.budget
        if not self.stack and state["result"] is None:
            self.finish(None, "the game ended without a winner")

    def error_location(self, exc: BaseException, locations: list[Location | None],
                       pc: int) -> Location | None:
        """Where the failing statement is in the pack: the innermost generated line."""
        found = None
        tb = exc.__traceback__
        line_maps = self.program.line_maps
        while tb is not None:
            line_map = line_maps.get(tb.tb_frame.f_code.co_filename)
            if line_map is not None and tb.tb_lineno in line_map:
                found = line_map[tb.tb_lineno]
            tb = tb.tb_next
        if found is None:
            found = next((loc for loc in reversed(locations[:pc + 1]) if loc is not None), None)
        return found


def _describe(exc: BaseException) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, KeyError):
        if exc.args and exc.args[0] is None:
            return "none has no properties (reading a property of an empty zone's top?)"
        return missing(exc.args[0])
    if isinstance(exc, IndexError):
        return "index out of range"
    if isinstance(exc, RecursionError):
        return "functions call each other without end"
    if isinstance(exc, TypeError):
        if "NoneType" in str(exc):
            return "a value is none where something else is needed"
        return f"a value has the wrong type here ({exc})"
    return str(exc)


def forced_answer(spec: Spec) -> tuple[bool, object]:
    """(True, value) for a decision with one legal answer; an error for none."""
    items = spec["items"]
    if spec["kind"] == "subset":
        return _forced_subset(spec)
    answers = len(items) + spec.get("optional", False)  # (to decline is one more)
    if answers > 1:
        return False, None
    if not answers:
        raise LookupError(f"{spec['player']} must choose, but there is nothing to choose")
    return True, items[0] if items else None


def _forced_subset(spec: Spec) -> tuple[bool, object]:
    items = spec["items"]
    rules = spec["at_most"]
    if len(items) > 1 and spec["min"] <= 0 < spec["max"] and all(limit > 0 for limit, _ in rules):
        return False, None  # several legal answers, surely (the usual case)
    free = [i for i in range(len(items))
            if not any(limit <= 0 and flags[i] for limit, flags in rules)]
    most = min(spec["max"], len(free))
    least = spec["min"]
    if least > most:
        raise LookupError(f"{spec['player']} must choose at least {least}, but only "
                          f"{max(most, 0)} can be chosen")
    if most <= 0:
        return True, []
    if least == len(free) and all(sum(flags[i] for i in free) <= limit
                                  for limit, flags in rules):
        return True, [items[i] for i in free]
    return False, None
