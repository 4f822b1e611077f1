"""Playouts: games played on, each choice handed at once to its player's chooser.

A playout runs each procedure whole (``Program.runs``). The same answers in the same order give
the same game as ``Game.apply``; only the step count differs.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from rulekit.engine.decisions import NONE_ID, Decision, Option, choice_event, option_ids
from rulekit.engine.draws import RandomChooser, draw_one, draw_subset, pick, random_answer
from rulekit.engine.helpers import call
from rulekit.engine.state import Rule, Spec, State
from rulekit.engine.vm import Runtime
from rulekit.model.program import CONTINUE, Locals

if TYPE_CHECKING:
    from rulekit.engine.game import Game

Chooser = Callable[[Decision], Option | str]
# A subset choice as playout code asks it: (slot, items, player, least, most, rules, asked
# even when forced).
Subset = tuple[int, list[object], str, int, int, list[Rule], bool]
SpecMaker = Callable[[Runtime, Locals], Spec]
Watch = Callable[[State, list[str]], None]  # told who is asked first, before any answer
Told = Callable[[str, object, int], None]  # told of each answer's player, value and round


# A round that asks this many decisions is stalled: agents may loop for ever.
MAX_ROUND_DECISIONS = 10_000


class Capped(Exception):
    """Raised when a game reaches its limit of rounds, or stalls; ``args[0]`` says which."""


def stalled(state: State, decided: int) -> str | None:
    """Why a game stops, if its round (or setup) has asked ``decided`` decisions."""
    if decided < MAX_ROUND_DECISIONS:
        return None
    phase, round_ = state["phase"], state["round"]
    where = f"round {round_}, phase '{phase}', and the round" if phase is not None else \
        "setup, and setup" if round_ == 0 else "the end of the game, and it"
    return f"stopped: {MAX_ROUND_DECISIONS:,} decisions in {where} did not end"


class Cutoff:
    """Counts a game's decisions and cuts it off past its last round, or in a stalled one."""

    __slots__ = ("decisions", "last_round", "round_seen", "stall_at")

    def __init__(self, max_rounds: int | None = None) -> None:
        self.last_round = sys.maxsize if max_rounds is None else max_rounds
        self.decisions = 0
        self.round_seen: int | None = None  # the round played (none yet: check at once)
        self.stall_at = MAX_ROUND_DECISIONS  # the count of decisions that stalls it

    def count(self, state: State, decisions: int, runtime: Runtime | None = None) -> None:
        """Count decisions about to be taken; raise :class:`Capped` if the game is cut off.

        A playout's ``runtime`` starts a new step budget: its steps so far are spent.
        """
        if state["round"] != self.round_seen or self.decisions >= self.stall_at:
            self._check(state)
        self.decisions += decisions
        if runtime is not None:
            runtime.spent += runtime.budget - runtime.ticks
            runtime.ticks = runtime.budget

    def _check(self, state: State) -> None:
        """In a new round, or a stalled one: raise :class:`Capped` if the game is cut off."""
        round_ = state["round"]
        if round_ > self.last_round:
            raise Capped(f"stopped after {self.last_round} rounds")
        if round_ != self.round_seen:
            self.round_seen, self.stall_at = round_, self.decisions + MAX_ROUND_DECISIONS
        if self.decisions >= self.stall_at:
            raise Capped(stalled(state, self.decisions - self.stall_at + MAX_ROUND_DECISIONS))


class PlayoutRuntime(Runtime):
    """A runtime that answers each decision where it is asked."""

    __slots__ = ("choosers", "cutoff", "game", "record", "rngs", "told", "watch")

    def __init__(self, game: Game, state: State, choosers: Mapping[str, Chooser],
                 max_rounds: int | None = None, watch: Watch | None = None,
                 record: bool = True, told: Told | None = None) -> None:
        super().__init__(game.program, state, game.step_budget)
        self.game = game
        self.runs = game.program.runs
        self.choosers = choosers
        # The generators of the random seats, by role: they draw their answers at once.
        self.rngs = {role: chooser.rng for role, chooser in choosers.items()
                     if type(chooser) is RandomChooser}
        self.cutoff = Cutoff(max_rounds)
        self.watch = watch
        self.record = record  # whether random seats' answers go into the log
        self.told = told

    def anytime_options(self, role: str) -> list[tuple[str, str]]:
        """As :meth:`Runtime.anytime_options`, the conditions kept until what they read changes."""
        if not self.program.cached_anytime:
            return super().anytime_options(role)
        held = self.held.get(role)
        if held is None:
            held = self.held[role] = [
                (decl, ("!" + decl.id, decl.label))
                for decl, when in self.anytime_by_role.get(role, ())
                if when is None or self.evaluate(when, decl.location)]
        if not held:
            return []
        stack = self.stack
        if len(stack) == 1:  # (the main procedure alone: no action's procedure runs)
            return [option for _, option in held]
        running = {frame["proc"] for frame in stack}
        return [option for decl, option in held if decl.procedure not in running]

    # ------------------------------------------------------------ where code asks

    def ask(self, specs: list[Spec]) -> int:
        """Answer a block's choices at once; after an anytime action, ask again."""
        action = self.settle(specs, self.stack[-1]["locals"])
        if action is not None:
            self.interrupt(action)
        return CONTINUE

    def answer(self, locals_: Locals, makers: list[SpecMaker]) -> None:
        """Answer the choices of a procedure run whole, again after each anytime action."""
        while True:
            action = self.settle([make(self, locals_) for make in makers], locals_)
            if action is None:
                return
            self.run_anytime(action)

    def choose_one(self, locals_: Locals, slot: int, items: list[object], role: str,
                   optional: bool, ask: bool, make: SpecMaker) -> None:
        """A choice among ``items`` asked alone, drawn by a random seat without a spec.

        Anything a random draw cannot answer (another chooser, a round past the limit...) goes
        to :meth:`answer`.
        """
        n = len(items)
        if n + optional == 1 and not ask and not self.may_interrupt(role):  # one legal answer
            locals_[slot] = items[0] if n else None
            return
        rng = self.rngs.get(role)
        if rng is None or not (n or optional) or self.state["round"] > self.cutoff.last_round:
            self.answer(locals_, [make])
            return
        extras = () if role not in self.anytime_by_role or self.held.get(role) == [] \
            else [option for option, _ in self.anytime_options(role)]
        if self.watch is not None:
            self._tell_watch([role])
        self.cutoff.count(self.state, 1, self)
        drawn = draw_one(rng, n, optional, extras)
        if isinstance(drawn, str):  # an anytime action: then the choice is asked again
            self.run_anytime(self.took_anytime(role, drawn))
            self.answer(locals_, [make])
            return
        value = locals_[slot] = items[drawn] if drawn >= 0 else None
        if self.told is not None or self.record:  # (else there is nothing to tell)
            self._answered(role, "" if not self.record else NONE_ID if drawn < 0 else
                           option_ids(items, self.program.plain_ids)[drawn], value)

    def choose_subsets(self, locals_: Locals, choices: tuple[Subset, ...],
                       makers: list[SpecMaker]) -> None:
        """Subset choices asked together, drawn by random seats without a spec.

        Anything a random draw cannot answer (another chooser, a forced choice...) goes to
        :meth:`answer`.
        """
        rngs = self.rngs
        if self.state["round"] > self.cutoff.last_round or self.program.anytime \
                or not _surely_open(choices, rngs):
            self.answer(locals_, makers)
            return
        if self.watch is not None:
            self._tell_watch([choice[2] for choice in choices])
        self.cutoff.count(self.state, len(choices), self)
        for index, (slot, items, role, least, most, rules, _) in enumerate(choices):
            rng = rngs[role]
            positions = draw_subset(rng, len(items), least, most, rules)
            if positions is None:  # too many random subsets refused: one of all the options
                option = pick(rng, self.game.decision(makers[index](self, locals_)).options())
                option_id, value = option.id, option.value
            else:
                value = [items[i] for i in positions]
                option_id = NONE_ID
                if self.record and positions:
                    ids = option_ids(items, self.program.plain_ids)
                    option_id = "+".join([ids[i] for i in positions])
            locals_[slot] = value
            if self.told is not None or self.record:  # (else there is nothing to tell)
                self._answered(role, option_id if self.record else "", value)

    def run_blocks(self, name: str, args: Locals) -> None:
        """Run procedure ``name`` block by block (an anytime action may send it back)."""
        call(self, name, args)
        self.run(floor=len(self.stack) - 1)

    def run_anytime(self, procedure: str) -> None:
        """Run an anytime action's procedure, on a frame that keeps it out of its own questions."""
        self.stack.append(self.action_frame(procedure))
        self.run(floor=len(self.stack) - 1)

    # ------------------------------------------------------------ answering

    def settle(self, specs: list[Spec], locals_: Locals) -> str | None:
        """Answer ``specs`` into ``locals_``, or return a chosen anytime action's procedure."""
        waiting = self.open(specs, locals_)
        return self.answer_waiting(waiting, locals_) if waiting else None

    def answer_waiting(self, waiting: list[Spec], locals_: Locals) -> str | None:
        """Write each chooser's answer into ``locals_``, or return an anytime action's procedure."""
        if self.watch is not None:
            self._tell_watch([spec["player"] for spec in waiting])
        try:
            self.cutoff.count(self.state, len(waiting), self)
        except Capped:
            self.wait_for(waiting)  # a stopped state shows what it waited for
            raise
        choosers = self.choosers
        answers = []
        for spec in waiting:  # every player answers; the first anytime action taken wins
            chooser = choosers[spec["player"]]
            if type(chooser) is RandomChooser:
                answers.append(self._drawn(spec, chooser.rng))
            else:
                answers.append(self._asked(spec, chooser))
        for spec, (option_id, _) in zip(waiting, answers, strict=True):
            if option_id[:1] == "!":
                return self.took_anytime(spec["player"], option_id)
        for spec, (option_id, value) in zip(waiting, answers, strict=True):
            locals_[spec["slot"]] = value
            self._answered(spec["player"], option_id, value)
        return None

    def _tell_watch(self, players: list[str]) -> None:
        """Tell the watch who is asked first; it is told once."""
        watch, self.watch = self.watch, None
        assert watch is not None
        watch(self.state, players)

    def _answered(self, role: str, option_id: str, value: object) -> None:
        """Tell ``told`` of an answer; log it unless its option id is left empty."""
        if self.told is not None:
            self.told(role, value, self.state["round"])
        if option_id:
            self.log.append(choice_event(role, option_id, value, self.state["round"],
                                         self.logging))

    def _drawn(self, spec: Spec, rng: random.Random) -> tuple[str, object]:
        """A random seat's answer: (option id, left empty unless recorded; value)."""
        extras = [option for option, _ in self.anytime_options(spec["player"])] \
            if self.program.anytime else ()
        drawn = random_answer(spec, rng, extras)
        if isinstance(drawn, str):
            return drawn, None
        if drawn is None:  # too many random subsets refused: one of all the options
            extra_options = self.anytime_options(spec["player"]) if extras else None
            option = pick(rng, self.game.decision(spec, extra_options).options())
            recorded = self.record or option.id.startswith("!")
            return (option.id if recorded else ""), option.value
        items = spec["items"]
        positions = drawn if isinstance(drawn, tuple) else (drawn,) if drawn >= 0 else ()
        value = [items[i] for i in positions] if isinstance(drawn, tuple) \
            else items[drawn] if drawn >= 0 else None
        if not self.record:
            return "", value
        if not positions:
            return NONE_ID, value
        ids = spec.get("ids") or option_ids(items, self.program.plain_ids)
        return "+".join([ids[i] for i in positions]), value

    def _asked(self, spec: Spec, chooser: Chooser) -> tuple[str, object]:
        """Another chooser's answer, given a Decision, checked as ``Game.apply`` checks it."""
        spec["ids"] = option_ids(spec["items"], self.program.plain_ids)
        extras = self.anytime_options(spec["player"]) if self.program.anytime else []
        decision = self.game.decision(spec, extras)
        answer = chooser(decision)
        if isinstance(answer, Option) and answer.made_by is decision.spec:
            option = answer
        else:
            option = decision.option(answer.id if isinstance(answer, Option) else answer)
        return option.id, option.value


def _surely_open(choices: tuple[Subset, ...], rngs: Mapping[str, random.Random]) -> bool:
    """Whether random seats answer ``choices``, one each, each surely with several answers or
    asked with no candidate (its answer is then none, drawn as the spec's would be)."""
    players = []
    for _, items, role, least, most, rules, ask in choices:
        if role not in rngs or least > 0 or role in players or \
                not (most > 0 if items else ask and most >= 0):
            return False
        for limit, _ in rules:
            if limit <= 0:
                return False
        players.append(role)
    return True


def playout(game: Game, state: State, choosers: Mapping[str, Chooser],
            max_rounds: int | None = None, watch: Watch | None = None, *,
            record: bool = True, told: Told | None = None) -> tuple[int, str | None]:
    """Play ``state`` on in place, to its end, to a round past ``max_rounds`` or to a stall.

    Returns the count of decisions taken and why the game stopped early, if it did (such a state
    is for reading, not resuming). Unless ``record``, random seats' answers stay out of the log.
    """
    decisions = 0
    if state["committed"]:  # some players have answered: the others answer first
        answers = {d.player: choosers[d.player](d) for d in game.pending(state)}
        game.apply(state, answers, in_place=True)
        decisions = len(answers)
    runtime = PlayoutRuntime(game, state, choosers, max_rounds, watch, record, told)
    try:
        if state["pending"]:
            waiting, state["pending"] = state["pending"], []
            action = runtime.answer_waiting(waiting, runtime.stack[-1]["locals"])
            if action is not None:
                runtime.interrupt(action)
        if state["result"] is None:
            runtime.run()
    except Capped as stop:
        state["steps"] += runtime.spent + runtime.budget - runtime.ticks
        return decisions + runtime.cutoff.decisions, str(stop.args[0]) if stop.args else ""
    return decisions + runtime.cutoff.decisions, None


__all__ = ["MAX_ROUND_DECISIONS", "Capped", "Chooser", "Cutoff", "PlayoutRuntime", "Told", "Watch",
           "playout", "stalled"]
