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

from rulekit.engine.decisions import Decision, Option, RandomChooser, option_ids
from rulekit.engine.game import Game, State, copy_state
from rulekit.engine.helpers import BudgetExceeded, EndRound, StopGame, end_round
from rulekit.engine.program import CONTINUE, SUSPEND, Program
from rulekit.engine.vm import Runtime, ask_anyway, check_players, forced_answer
from rulekit.errors import GameRuntimeError
from rulekit.lang.symbols import AnytimeDecl

Chooser = Callable[[Decision], Option | str]
SpecMaker = Callable[[Runtime, list[Any]], dict[str, Any]]
Extras = list[tuple[str, str]]  # a player's anytime actions: (option id, label)
# Told of the first decisions a playout waits for (the state, and the specs of those not
# answered at once), before they are answered.
Watch = Callable[[State, list[dict[str, Any]]], None]


class Capped(Exception):
    """Raised when a playout reaches its limit of rounds."""


class PlayoutRuntime(Runtime):
    """A runtime that answers decisions where they are asked."""

    __slots__ = ("by_role", "choosers", "decisions", "game", "max_rounds", "random", "spent",
                 "watch")

    def __init__(self, game: Game, state: State, choosers: Mapping[str, Chooser],
                 max_rounds: int | None, watch: Watch | None = None) -> None:
        super().__init__(game.program, state, game.step_budget)
        if self.program.build_playout is not None:
            self.program.build_playout()
            _resume_in_blocks(self.program)
        self.game = game
        self.choosers = choosers
        self.max_rounds = max_rounds
        self.watch = watch
        self.decisions = 0
        self.spent = 0  # loop turns counted before the last decision
        self.fast = game.program.playout
        # Random choosers answer from the specs, without Decision objects nor pending specs.
        self.random = all(type(chooser) is RandomChooser for chooser in choosers.values())
        # Each role's anytime actions: (index, declaration, condition, (option id, label)).
        self.by_role: dict[str, list[tuple[int, AnytimeDecl, Any, tuple[str, str]]]] = {}
        for index, (decl, when) in enumerate(self.program.anytime):
            self.by_role.setdefault(decl.role, []).append(
                (index, decl, when, ("!" + decl.id, decl.label)))

    def anytime_options(self, role: str) -> list[tuple[str, str]]:
        """As ``Runtime.anytime_options``, each condition evaluated again only after a write
        to what it reads (so fewer steps are counted than in a normal game); which of a role's
        actions hold is kept likewise."""
        if not self.program.cache_whens:
            return Runtime.anytime_options(self, role)
        whens = self.whens
        if whens is None:
            whens = self.whens = {}
        held = whens.get(role)  # role's actions whose condition holds: (procedure, option)
        if held is None:
            held = whens[role] = []
            for index, decl, when, option in self.by_role.get(role, ()):
                if when is not None:
                    holds = whens.get(index)
                    if holds is None:
                        holds = whens[index] = bool(self.evaluate(when, decl.location))
                    if not holds:
                        continue
                held.append((decl.procedure, option))
        return self._not_running(held) if held else []

    def _not_running(self, held: list[tuple[str, tuple[str, str]]]) -> Extras:
        """The options of ``held`` whose procedure is not running (inside its own question)."""
        running = {frame[0] for frame in self.stack}
        return [option for procedure, option in held if procedure not in running]

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
            if self.program.anytime:
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
                self._run_anytime(action)
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
        with a choice that an anytime action resumes at the tests before it (``Proc.resume``),
        which a plain function cannot go back to."""
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

    def _run_anytime(self, action: str) -> None:
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
            if isinstance(action, Option) and action.source is decision:
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
            role = decision.player
            log.append({"e": "choice", "to": role, "player": role, "option": option.id,
                        "value": list(value) if isinstance(value, list) else value,
                        "round": state["round"]})
        self._answered()
        return None

    def _answer_at_random(self) -> None:
        """Answer what is pending with RandomChoosers: the same draws as ``Decision.sample``
        in a game without anytime actions."""
        state = self.state
        pending = state["pending"]
        self._log_random(self.stack[-1][2], [(spec, None) for spec in pending])
        self._answered()

    def _answer_plainly(self, locals_: list[Any], makers: list[SpecMaker]) -> None:
        """:meth:`answer` with RandomChoosers in a game without anytime actions: as
        :meth:`_answer_randomly`, each answer drawn and recorded in turn (each player draws
        from a generator of its own, so the order of the draws does not matter)."""
        specs = [make(self, locals_) for make in makers]
        if len(specs) > 1:
            check_players(specs)
        waiting = []
        for spec in specs:
            forced, value = forced_answer(spec)
            if forced and spec.get("ask"):
                forced = False
                ask_anyway(spec)
            if forced:
                locals_[spec["slot"]] = value
            else:
                waiting.append(spec)
        if not waiting:
            return
        state = self.state
        if self.watch is not None:
            self._waiting(waiting)
        if self.max_rounds is not None and state["round"] > self.max_rounds:
            self._cap(waiting)
        plain_ids = self.program.plain_ids
        choosers = self.choosers
        log = self.log
        for spec in waiting:
            role = spec["player"]
            option_id, value = choosers[role].answer(  # type: ignore[attr-defined]
                spec, None, plain_ids)
            locals_[spec["slot"]] = value
            log.append({"e": "choice", "to": role, "player": role, "option": option_id,
                        "value": list(value) if value.__class__ is list else value,
                        "round": state["round"]})
        self.decisions += len(waiting)
        self.spent += self.budget - self.ticks  # as _answered
        self.ticks = self.budget

    def _answer_randomly(self, locals_: list[Any], makers: list[SpecMaker]) -> None:
        """:meth:`answer` with RandomChoosers only: ask as ``Runtime.ask`` does and draw as
        ``Decision.sample`` does, straight from the specs (no pending specs, no Decision, each
        player's anytime actions worked out once)."""
        if len(makers) == 1:
            self._answer_one(locals_, makers[0])
            return
        while True:
            action = self._draw([make(self, locals_) for make in makers], locals_)
            if action is None:
                return
            self._run_anytime(action)

    def _draw(self, specs: list[dict[str, Any]], locals_: list[Any]) -> str | None:
        """Ask ``specs`` and draw their answers with RandomChoosers, into ``locals_``; the
        procedure of an anytime action drawn instead."""
        waiting = self._ask_quickly(specs, locals_)
        if not waiting:
            return None
        if self.watch is not None:
            self._waiting([spec for spec, _ in waiting])
        if self.max_rounds is not None and self.state["round"] > self.max_rounds:
            self._cap([spec for spec, _ in waiting])
        action = self._log_random(locals_, waiting)
        self.spent += self.budget - self.ticks  # as _answered
        self.ticks = self.budget
        return action

    def _answer_one(self, locals_: list[Any], make: SpecMaker) -> None:
        """:meth:`_answer_randomly` for a single choice (the usual case), in short."""
        while True:
            action = self._one(locals_, make(self, locals_))
            if action is None:
                return
            self._run_anytime(action)

    def _one(self, locals_: list[Any], spec: dict[str, Any]) -> str | None:
        """:meth:`_draw` for a single spec, in short: the same steps as :meth:`_ask_quickly`
        and :meth:`_log_random` for one spec."""
        program = self.program
        role = spec["player"]
        if spec["kind"] == "one" and len(spec["items"]) > 1:  # the usual case, in short
            forced, value = False, None
        else:
            forced, value = forced_answer(spec)
        asked = forced and (spec.get("ask") or role in program.secret_anytime)
        whens = self.whens
        held = None if whens is None else whens.get(role)
        if held is None:
            extras = self._extras(role, counted=forced and not asked)
        else:  # as anytime_options, in short
            extras = self._not_running(held) if held else []
        if forced:
            if not (asked or extras):
                locals_[spec["slot"]] = value
                return None
            ask_anyway(spec)
        state = self.state
        if self.watch is not None:
            self._waiting([spec])
        if self.max_rounds is not None and state["round"] > self.max_rounds:
            self._cap([spec])
        option_id, value = self.choosers[role].answer(  # type: ignore[attr-defined]
            spec, extras, program.plain_ids)
        self.decisions += 1
        self.spent += self.budget - self.ticks  # as _answered
        self.ticks = self.budget
        if option_id.startswith("!"):
            return self._anytime(role, option_id, self.log)
        locals_[spec["slot"]] = value
        self.log.append({"e": "choice", "to": role, "player": role, "option": option_id,
                         "value": list(value) if value.__class__ is list else value,
                         "round": state["round"]})
        return None

    def _waiting(self, specs: list[dict[str, Any]]) -> None:
        """Tell the watch of the first decisions waited for."""
        watch = self.watch
        self.watch = None
        assert watch is not None
        watch(self.state, specs)

    def _cap(self, specs: list[dict[str, Any]]) -> None:
        """Stop at the round limit, leaving ``specs`` pending (with their ids)."""
        plain_ids = self.program.plain_ids
        for spec in specs:
            spec["ids"] = option_ids(spec["items"], plain_ids)
        self.state["pending"] = specs
        self.state["committed"] = {}
        raise Capped

    def _extras(self, role: str, counted: bool) -> Extras:
        """``role``'s anytime actions: counted against the step budget as in ``Runtime.ask``,
        or not, as ``Game.pending`` works them out for a choice that is asked."""
        if counted:
            return self.anytime_options(role)
        ticks = self.ticks
        extras = self.anytime_options(role)
        self.ticks = ticks
        return extras

    def _ask_quickly(self, specs: list[dict[str, Any]], locals_: list[Any]
                     ) -> list[tuple[dict[str, Any], Extras | None]]:
        """``Runtime.ask`` without suspending: forced answers go into ``locals_``; the specs
        still to answer are returned, each with its player's anytime actions."""
        if len(specs) > 1:
            check_players(specs)
        program = self.program
        secret = program.secret_anytime
        waiting: list[tuple[dict[str, Any], Extras | None]] = []
        for spec in specs:
            forced, value = forced_answer(spec)
            role = spec["player"]
            asked = spec.get("ask") or role in secret
            extras = self._extras(role, counted=forced and not asked)
            if forced and (asked or extras):
                forced = False
                ask_anyway(spec)
            if forced:
                locals_[spec["slot"]] = value
            else:
                waiting.append((spec, extras))
        return waiting

    def _log_random(self, locals_: list[Any],
                    waiting: list[tuple[dict[str, Any], Extras | None]]) -> str | None:
        """Draw each answer (as ``Decision.sample``), then write and record them; the
        procedure of an anytime action drawn instead (then nothing else is recorded)."""
        choosers = self.choosers
        plain_ids = self.program.plain_ids
        if len(waiting) == 1:  # the usual case, in short
            spec, extras = waiting[0]
            role = spec["player"]
            option_id, value = choosers[role].answer(  # type: ignore[attr-defined]
                spec, extras, plain_ids)
            self.decisions += 1
            if option_id.startswith("!"):
                return self._anytime(role, option_id, self.log)
            locals_[spec["slot"]] = value
            self.log.append({"e": "choice", "to": role, "player": role, "option": option_id,
                             "value": list(value) if value.__class__ is list else value,
                             "round": self.state["round"]})
            return None
        answers = [choosers[spec["player"]].answer(  # type: ignore[attr-defined]
            spec, extras, plain_ids) for spec, extras in waiting]
        self.decisions += len(answers)
        log = self.log
        for (spec, _), (option_id, _) in zip(waiting, answers, strict=True):
            if option_id.startswith("!"):
                return self._anytime(spec["player"], option_id, log)
        now = self.state["round"]
        for (spec, _), (option_id, value) in zip(waiting, answers, strict=True):
            locals_[spec["slot"]] = value
            role = spec["player"]
            log.append({"e": "choice", "to": role, "player": role, "option": option_id,
                        "value": list(value) if value.__class__ is list else value,
                        "round": now})
        return None

    def _answered(self) -> None:
        state = self.state
        state["pending"] = []
        state["committed"] = {}
        # The step budget counts what runs between two decisions.
        self.spent += self.budget - self.ticks
        self.ticks = self.budget

    def _anytime(self, role: str, option_id: str, log: list[dict[str, Any]]) -> str:
        decl = next(d for d, _ in self.program.anytime if "!" + d.id == option_id)
        state = self.state
        state["pending"] = []
        state["committed"] = {}
        log.append({"e": "choice", "to": role, "player": role, "option": option_id,
                    "label": decl.label, "round": state["round"]})
        return decl.procedure


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
            max_rounds: int | None = None, watch: Watch | None = None
            ) -> tuple[State, int, bool]:
    """Play ``state`` to its end, or until a round past ``max_rounds`` begins to ask.

    ``choosers()`` gives each role's chooser (a new set, should the game be played again on
    the normal path). Returns the final state (``state`` itself, changed in place, unless the
    game had to be played again), the number of decisions taken and whether the round limit
    stopped the game. Errors are those of a normal game. A game stopped by the round limit is
    left where it stopped, inside a procedure: such a state is for reading, not for resuming.
    ``watch`` is told of the first decisions the game waits for (as ``Game.pending`` would
    list them), before they are answered.
    """
    if state["committed"]:  # some players have answered already
        return state, *_play_normally(game, state, choosers(), max_rounds, watch)
    start = copy_state(state)
    try:
        return state, *run_playout(game, state, choosers(), max_rounds, watch)
    except Exception:  # any failure: play the normal way, which says where and why
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
                max_rounds: int | None = None, watch: Watch | None = None
                ) -> tuple[int, bool]:
    """Run ``state`` (in place) to its end or to ``max_rounds``; (decisions, capped).
    Unlike :func:`playout`, an error is not that of a normal game (no replay)."""
    runtime = PlayoutRuntime(game, state, choosers, max_rounds, watch)
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
