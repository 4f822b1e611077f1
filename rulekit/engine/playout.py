"""Playouts: a game played to its end with every choice answered at once by a chooser.

Simulations and a search bot's rollouts do not need to stop at each decision. A playout runs
each procedure as one plain Python function (its *playout version*, ``Program.playout``) and
answers each choice where it is made, through the same steps as :meth:`Game.pending` and
:meth:`Game.apply`: the same decisions, asked in the same order, give the same game (the count
of ``steps`` aside, as there are fewer blocks to count). If anything goes wrong, the game is
played again on the normal path, so that the error is the one a normal game gives, with its
place in the pack.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from rulekit.engine.answering import (
    Capped,
    Chooser,
    SpecMaker,
    Watch,
)
from rulekit.engine.decisions import Option, choice_event
from rulekit.engine.game import Game, State, copy_state
from rulekit.engine.helpers import BudgetExceeded, EndRound, StopGame, end_round
from rulekit.engine.quickanswers import QuickAnswers
from rulekit.engine.vm import Runtime
from rulekit.errors import GameRuntimeError
from rulekit.model.program import CONTINUE, SUSPEND, Program


class PlayoutRuntime(QuickAnswers):
    """A runtime that answers decisions where they are asked, running each procedure whose
    frame starts as its playout version."""

    __slots__ = ("game",)

    def __init__(self, game: Game, state: State, choosers: Mapping[str, Chooser],
                 max_rounds: int | None, watch: Watch | None = None,
                 record: bool = True) -> None:
        super().__init__(game.program, state, game.step_budget, choosers, max_rounds, watch,
                         record)
        if self.program.build_playout is not None:
            self.program.build_playout()
            _resume_in_blocks(self.program)
        self.game = game
        self.fast = game.program.playout

    def ask(self, specs: list[dict[str, Any]]) -> int:
        """Ask as a normal game does, then answer what is pending at once; after an anytime
        action, step back onto the choice (or the tests before it) so that it is asked again
        (as ``Game.apply``)."""
        if self.random and self.program.anytime:
            if len(specs) == 1:
                action = self._one(self.stack[-1][2], specs[0])
            else:
                action = self._draw(specs, self.stack[-1][2])
        else:
            action = self._settle(specs)
        if action is not None:
            self.interrupt(action)
        return CONTINUE

    def answer(self, locals_: list[Any], makers: list[SpecMaker]) -> None:
        """Answer the choices of a playout version, writing the answers into ``locals_``;
        after an anytime action, make the choices again and ask them again."""
        if self.random:
            if self.anytime:
                if len(makers) == 1:  # the usual case, in short
                    make = makers[0]
                    while (action := self._one(locals_, make(self, locals_))) is not None:
                        self.run_anytime(action)
                    return
                self._answer_randomly(locals_, makers)
            else:
                self._answer_plainly(locals_, makers)
            return
        stack = self.stack
        stack.append(["", 0, locals_])  # where ask writes answers: the top frame's locals
        try:
            while True:
                action = self._settle([make(self, locals_) for make in makers])
                if action is None:
                    return
                self.run_anytime(action)
        finally:
            if stack:
                stack.pop()

    def run(self) -> None:
        """As ``Runtime.run``, for a playout: decisions are answered where they are asked, so
        the game runs to its end (or a :class:`Capped` round); a failure is left to
        :func:`playout`, which plays the game again the normal way. Each procedure whose
        frame starts runs as its playout version."""
        stack = self.stack
        procs = self.program.procs
        fast = self.fast
        assert fast is not None
        budget = self.budget
        steps = 0  # blocks run here; loops inside blocks count down self.ticks
        try:
            while stack:
                frame = stack[-1]
                if frame[1] == 0 and frame[0] in fast:
                    try:
                        fast[frame[0]](self, frame[2])
                    except EndRound:
                        end_round(self)
                        continue
                    stack.pop()
                    continue
                code = procs[frame[0]].code
                pc = frame[1]
                if pc >= len(code):
                    stack.pop()
                    continue
                frame[1] = pc + 1
                try:
                    status = code[pc](self, frame)
                except EndRound:
                    end_round(self)
                    continue
                steps += 1
                if steps > budget:
                    raise BudgetExceeded
                if status:  # STOP (a playout never suspends)
                    break
        except StopGame:
            pass
        state = self.state
        state["steps"] += steps + budget - self.ticks
        if not stack and state["result"] is None:
            self.finish(None, "the game ended without a winner")

    def run_blocks(self, locals_: list[Any], name: str) -> None:
        """Run procedure ``name``'s blocks to its end, as ``Runtime.run`` does (the
        procedures it calls in their playout versions): the playout version of a procedure
        with a choice asked again after an anytime action from tests before it that the action
        may change (``Proc.moved_tests``), which a plain function cannot go back to."""
        program, stack, fast = self.program, self.stack, self.fast
        assert fast is not None
        procs = program.procs
        locals_.extend([None] * (procs[name].nslots - len(locals_)))
        depth = len(stack)
        stack.append([name, 0, locals_])
        try:
            while len(stack) > depth:
                frame = stack[-1]
                if frame[1] == 0 and len(stack) > depth + 1 and frame[0] in fast:
                    fast[frame[0]](self, frame[2])
                    stack.pop()
                    continue
                code = procs[frame[0]].code
                pc = frame[1]
                if pc >= len(code):
                    stack.pop()
                    continue
                frame[1] = pc + 1
                self.ticks -= 1
                if self.ticks < 0:
                    raise BudgetExceeded
                code[pc](self, frame)
        finally:
            del stack[depth:]  # after an error, or nothing (a game that ended cleared it)

    def run_anytime(self, action: str) -> None:
        """Run the playout version of an anytime action's procedure, on a frame of its own
        (so that it is not offered inside its own questions)."""
        program, stack = self.program, self.stack
        stack.append([action, 0, []])
        try:
            program.playout[action](self, [None] * program.procs[action].nslots)
        finally:
            if stack:  # a game that ended cleared it
                stack.pop()

    def _settle(self, specs: list[dict[str, Any]]) -> str | None:
        """Ask, and answer what is pending; the procedure of an anytime action chosen."""
        if Runtime.ask(self, specs) != SUSPEND:
            return None
        return self.answer_pending()

    def answer_pending(self) -> str | None:
        """Answer the pending decisions; the procedure of an anytime action chosen."""
        state = self.state
        if self.watch is not None:
            self._waiting(state["pending"])
        if self.max_rounds is not None and state["round"] > self.max_rounds:
            raise Capped
        if self.random and not self.program.anytime:
            self._answer_at_random()
            return None
        game = self.game
        choosers = self.choosers
        decisions = game.pending(state)
        actions = [(d, choosers[d.player](d)) for d in decisions]
        self.decisions += len(actions)
        chosen = []
        log = self.log  # choices are recorded even in a quiet game, as Game.apply does
        for decision, action in actions:  # as Game.apply does
            if isinstance(action, Option) and action.made_by is decision.mark:
                option = action
            else:
                option = decision.option(action.id if isinstance(action, Option) else action)
            if option.id.startswith("!"):
                return self._anytime(decision.player, option.id, log)
            chosen.append((decision, option))
        locals_ = self.stack[-1][2]
        for decision, option in chosen:
            value = option.value
            locals_[decision.spec["slot"]] = value
            log.append(choice_event(decision.player, option.id, value, state["round"]))
        self._answered()
        return None

    def _answer_randomly(self, locals_: list[Any], makers: list[SpecMaker]) -> None:
        """:meth:`answer` with RandomChoosers only, for several choices asked together: ask
        as ``Runtime.ask`` does and draw as ``Decision.sample`` does, straight from the specs
        (no pending specs, no Decision, each player's anytime actions worked out once)."""
        while True:
            action = self._draw([make(self, locals_) for make in makers], locals_)
            if action is None:
                return
            self.run_anytime(action)


def _resume_in_blocks(program: Program) -> None:
    """In a pack with anytime actions, a procedure with a choice resumed at tests before it
    that an anytime action may change (``Proc.moved_tests``) plays out through its blocks
    (:meth:`PlayoutRuntime.run_blocks`), so that a playout takes the way a normal game does."""
    if not program.anytime:
        return
    for name, proc in program.procs.items():
        if proc.moved_tests and name in program.playout:
            program.playout[name] = partial(PlayoutRuntime.run_blocks, name=name)


def playout(game: Game, state: State, choosers: Callable[[], Mapping[str, Chooser]],
            max_rounds: int | None = None, watch: Watch | None = None, *,
            record: bool = True, restart: Callable[[], State] | None = None
            ) -> tuple[State, int, bool]:
    """Play ``state`` to its end, or until a round past ``max_rounds`` begins to ask.

    ``choosers()`` gives each role's chooser (a new set, should the game be played again on
    the normal path). Returns the final state (``state`` itself, changed in place, unless the
    game had to be played again), the number of decisions taken and whether the round limit
    stopped the game. Errors are those of a normal game. A game stopped by the round limit is
    left where it stopped, inside a procedure: such a state is for reading, not for resuming.
    ``watch`` is told of the first decisions the game waits for (as ``Game.pending`` would
    list them), before they are answered. Unless ``record``, the choices of RandomChoosers
    are not recorded in the log (for a caller that reads only the outcome). ``restart()``
    makes ``state`` again should the game be played again (a new game from its seed, say); by
    default a copy of it is taken first.
    """
    if state["committed"]:  # some players have answered already
        return state, *_play_normally(game, state, choosers(), max_rounds, watch)
    if restart is None:
        kept = copy_state(state)
        restart = lambda: kept  # noqa: E731
    try:
        return state, *run_playout(game, state, choosers(), max_rounds, watch, record)
    except Exception:  # any failure: play the normal way, which says where and why
        start = restart()
        return start, *_play_normally(game, start, choosers(), max_rounds, watch)


def _play_normally(game: Game, state: State, choosers: Mapping[str, Chooser],
                   max_rounds: int | None, watch: Watch | None) -> tuple[int, bool]:
    decisions = 0
    game.run(state)
    if watch is not None and state["pending"]:
        watch(state, state["pending"])
    while state["result"] is None:
        if max_rounds is not None and state["round"] > max_rounds:
            return decisions, True
        actions = {d.player: choosers[d.player](d) for d in game.pending(state)}
        if not actions:
            raise GameRuntimeError("the game is neither over nor waiting for a decision")
        game.apply(state, actions, in_place=True)
        decisions += len(actions)
    return decisions, False


def run_playout(game: Game, state: State, choosers: Mapping[str, Chooser],
                max_rounds: int | None = None, watch: Watch | None = None,
                record: bool = True) -> tuple[int, bool]:
    """Run ``state`` (in place) to its end or to ``max_rounds``; (decisions, capped).
    Unlike :func:`playout`, an error is not that of a normal game (no replay)."""
    runtime = PlayoutRuntime(game, state, choosers, max_rounds, watch, record)
    capped = False
    try:
        if state["pending"]:
            action = runtime.answer_pending()
            if action is not None:
                runtime.interrupt(action)
        if state["result"] is None:
            runtime.run()
    except Capped:
        capped = True
    state["steps"] += runtime.spent
    return runtime.decisions, capped


__all__ = ["Capped", "Chooser", "PlayoutRuntime", "Watch", "playout", "run_playout"]
