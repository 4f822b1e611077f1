"""Answering decisions where they are asked, for playouts (:mod:`rulekit.engine.playout`).

:class:`AnsweringRuntime` holds what a playout needs to answer a choice at once instead of
suspending: the players' choosers, the count of decisions, the round limit and the watch, each
role's anytime actions (their conditions evaluated again only after a write to what they read),
and the quick path of RandomChoosers, which draw their answers straight from the specs (the same
draws as ``Decision.sample``, with no pending specs and no Decision objects). Running the
procedures as plain functions, and answering other choosers through ``Game.pending``, is
:class:`~rulekit.engine.playout.PlayoutRuntime`'s job.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from operator import itemgetter
from typing import Any

from rulekit.engine.decisions import (
    Decision,
    Option,
    choice_event,
    option_ids,
)
from rulekit.engine.draws import below, bit_indexes, pick, subset_bits
from rulekit.engine.game import State
from rulekit.engine.randomchooser import RandomChooser
from rulekit.engine.vm import Runtime, ask_anyway, check_players, forced_answer
from rulekit.model.program import Program
from rulekit.model.symbols import AnytimeDecl

Chooser = Callable[[Decision], Option | str]
_NAME = itemgetter(0)  # the procedure of a frame
SpecMaker = Callable[[Runtime, list[Any]], dict[str, Any]]
Extras = list[tuple[str, str]]  # a player's anytime actions: (option id, label)
# Told of the first decisions a playout waits for (the state, and the specs of those not
# answered at once), before they are answered.
Watch = Callable[[State, list[dict[str, Any]]], None]


class Capped(Exception):
    """Raised when a playout reaches its limit of rounds."""


class AnsweringRuntime(Runtime):
    """A runtime that answers decisions where they are asked (see the module's text)."""

    __slots__ = ("actions", "anytime", "by_role", "choosers", "decisions", "drawing",
                 "last_round", "max_rounds", "plain", "quick", "random", "record", "rngs", "spent",
                 "watch")

    def __init__(self, program: Program, state: State, budget: int,
                 choosers: Mapping[str, Chooser], max_rounds: int | None,
                 watch: Watch | None = None, record: bool = True) -> None:
        super().__init__(program, state, budget)
        self.choosers = choosers
        self.max_rounds = max_rounds
        # The last round whose decisions are answered (a game past it is Capped).
        self.last_round = sys.maxsize if max_rounds is None else max_rounds
        self.watch = watch
        self.decisions = 0
        self.anytime = bool(program.anytime)  # whether the pack has anytime actions
        self.spent = 0  # loop turns counted before the last decision
        # Random choosers answer from the specs, without Decision objects nor pending specs.
        self.random = all(type(chooser) is RandomChooser for chooser in choosers.values())
        self.plain = self.random and not self.anytime  # (and no anytime action to offer)
        # Their generators, by role: a choice of one item is drawn here, in short.
        self.rngs: dict[str, Any] = {
            role: chooser.rng for role, chooser in choosers.items()  # type: ignore[attr-defined]
        } if self.random else {}
        # Whether the choices of RandomChoosers are recorded in the log (as in a game played
        # step by step), or only the anytime actions taken (a simulation reads no log).
        self.record = record
        self._draw_in_place()
        # Each role's anytime actions: (index, declaration, condition, (option id, label)).
        self.by_role: dict[str, list[tuple[int, AnytimeDecl, Any, tuple[str, str]]]] = {}
        self.actions = {"!" + decl.id: decl for decl, _ in program.anytime}  # by option id
        for index, (decl, when) in enumerate(program.anytime):
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
                    if holds is None:  # (a failure is located by the game played again)
                        fast = self.program.playout_whens
                        written = fast[index] if fast else None  # the playout version
                        holds = whens[index] = bool((written or when)(self, []))
                    if not holds:
                        continue
                held.append((decl.procedure, option))
        return self._not_running(held) if held else []

    def _not_running(self, held: list[tuple[str, tuple[str, str]]]) -> Extras:
        """The options of ``held`` whose procedure is not running (inside its own question)."""
        if len(held) == 1:  # (no set nor comprehension for one action: they cost more)
            procedure = held[0][0]
            for frame in self.stack:
                if frame[0] == procedure:
                    return []
            return [held[0][1]]
        running = set(map(_NAME, self.stack))
        return [option for procedure, option in held if procedure not in running]

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
        # (no comprehension for one or two choices: its frame costs more than the calls)
        if len(makers) == 1:
            specs = [makers[0](self, locals_)]
        elif len(makers) == 2:
            specs = [makers[0](self, locals_), makers[1](self, locals_)]
            if specs[0]["player"] == specs[1]["player"]:
                check_players(specs)
        else:
            specs = [make(self, locals_) for make in makers]
            check_players(specs)
        self._answer_specs(locals_, specs)

    def _answer_specs(self, locals_: list[Any], specs: list[dict[str, Any]]) -> None:
        """:meth:`_answer_plainly` once the specs are made."""
        waiting = specs
        for spec in specs:
            if not _asked(spec):  # (the usual case: every choice is asked)
                waiting = self._force_plainly(specs, locals_)
                if not waiting:
                    return
                break
        state = self.state
        if self.watch is not None:
            self._waiting(waiting)
        if state["round"] > self.last_round:
            self._cap(waiting)
        record = self.record
        rngs = self.rngs
        for spec in waiting:
            role = spec["player"]
            if record:
                option_id, value = self.choosers[role].answer(  # type: ignore[attr-defined]
                    spec, None, self.program.plain_ids, True)
                self.log.append(choice_event(role, option_id, value, state["round"]))
            else:  # the value RandomChooser.answer draws, in short
                items = spec["items"]
                rng = rngs[role]
                if spec["kind"] == "subset":
                    bits = subset_bits(spec, len(items), rng)
                    value = [items[i] for i in bit_indexes(bits)] if bits is not None \
                        else pick(rng, Decision(spec, str).options()).value
                elif items and not spec.get("optional"):
                    value = items[below(rng, len(items))]
                else:
                    value = self.choosers[role].answer(  # type: ignore[attr-defined]
                        spec, None, self.program.plain_ids, False)[1]
            locals_[spec["slot"]] = value
        self.decisions += len(waiting)
        self.spent += self.budget - self.ticks  # as _answered
        self.ticks = self.budget

    def _force_plainly(self, specs: list[dict[str, Any]], locals_: list[Any]
                       ) -> list[dict[str, Any]]:
        """The forced answers of ``specs`` (in a game without anytime actions) written into
        ``locals_``, as ``Runtime.ask`` takes them; the specs still to answer."""
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
        return waiting

    def _draw(self, specs: list[dict[str, Any]], locals_: list[Any]) -> str | None:
        """Ask ``specs`` and draw their answers with RandomChoosers, into ``locals_``; the
        procedure of an anytime action drawn instead."""
        waiting = self._ask_quickly(specs, locals_)
        if not waiting:
            return None
        if self.watch is not None:
            self._waiting([spec for spec, _ in waiting])
        if self.state["round"] > self.last_round:
            self._cap([spec for spec, _ in waiting])
        action = self._log_random(locals_, waiting)
        self.spent += self.budget - self.ticks  # as _answered
        self.ticks = self.budget
        return action

    def _one(self, locals_: list[Any], spec: dict[str, Any]) -> str | None:
        """:meth:`_draw` for a single spec, in short: the same steps as :meth:`_ask_quickly`
        and :meth:`_log_random` for one spec (and the draw of ``RandomChooser.answer``)."""
        role = spec["player"]
        items = spec["items"]
        if len(items) > 1 if spec["kind"] == "one" else _asked(spec):  # the usual case
            forced = asked = False
            value = None
        else:
            forced, value = forced_answer(spec)
            asked = forced and (spec.get("ask") or role in self.program.secret_anytime)
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
        if state["round"] > self.last_round:
            self._cap([spec])
        self.decisions += 1
        self.spent += self.budget - self.ticks  # as _answered
        self.ticks = self.budget
        rng = self.rngs[role]
        # The draws of RandomChooser.answer: an anytime action now and then, else an item.
        if extras and rng.random() < len(extras) / (len(extras) + 1 + len(items)):
            return self._anytime(role, pick(rng, extras)[0], self.log)
        record = self.record
        if not record and spec["kind"] == "one":
            if spec.get("optional"):  # to decline is one more answer, drawn as -1
                drawn = below(rng, len(items) + 1) - 1
                locals_[spec["slot"]] = None if drawn < 0 else items[drawn]
                return None
            if items:
                locals_[spec["slot"]] = items[below(rng, len(items))]
                return None
        option_id, value = self.choosers[role].drawn(  # type: ignore[attr-defined]
            spec, extras, self.program.plain_ids, record)
        if option_id.startswith("!"):  # (the draws of a subset all refused: any option)
            return self._anytime(role, option_id, self.log)
        locals_[spec["slot"]] = value
        if record:
            self.log.append(choice_event(role, option_id, value, state["round"]))
        return None

    def remade(self, make: SpecMaker, locals_: list[Any]) -> dict[str, Any]:
        """The spec of a choice made again, its steps not counted (they were once)."""
        ticks = self.ticks
        spec = make(self, locals_)
        self.ticks = ticks
        return spec

    def _draw_in_place(self) -> None:
        """Whether playout code draws the answers of random seats in place, with no call (a
        simulation: nothing recorded, nobody watching; the code tests the round limit
        itself): those of one item (``drawing``), and those of subsets (``quick``: with no
        anytime action in the game). See rulekit/lang/drawcode."""
        self.drawing = self.random and not self.record and self.watch is None
        self.quick = self.plain and self.drawing

    def _waiting(self, specs: list[dict[str, Any]]) -> None:
        """Tell the watch of the first decisions waited for."""
        watch = self.watch
        self.watch = None
        self._draw_in_place()
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
                spec, extras, plain_ids, self.record)
            self.decisions += 1
            if option_id.startswith("!"):
                return self._anytime(role, option_id, self.log)
            locals_[spec["slot"]] = value
            if self.record:
                self.log.append(choice_event(role, option_id, value, self.state["round"]))
            return None
        answers = [choosers[spec["player"]].answer(  # type: ignore[attr-defined]
            spec, extras, plain_ids, self.record) for spec, extras in waiting]
        self.decisions += len(answers)
        log = self.log
        for (spec, _), (option_id, _) in zip(waiting, answers, strict=True):
            if option_id.startswith("!"):
                return self._anytime(spec["player"], option_id, log)
        now = self.state["round"]
        for (spec, _), (option_id, value) in zip(waiting, answers, strict=True):
            locals_[spec["slot"]] = value
            if not self.record:
                continue
            log.append(choice_event(spec["player"], option_id, value, now))
        return None

    def _answered(self) -> None:
        state = self.state
        state["pending"] = []
        state["committed"] = {}
        # The step budget counts what runs between two decisions.
        self.spent += self.budget - self.ticks
        self.ticks = self.budget

    def _anytime(self, role: str, option_id: str, log: list[dict[str, Any]]) -> str:
        decl = self.actions[option_id]
        state = self.state
        state["pending"] = []
        state["committed"] = {}
        log.append({"e": "choice", "to": role, "player": role, "option": option_id,
                    "label": decl.label, "round": state["round"]})
        return decl.procedure


def _asked(spec: dict[str, Any]) -> bool:
    """True if ``spec`` surely has several legal answers (then ``forced_answer`` would say it
    is not forced); False if it may have one or none."""
    n = len(spec["items"])
    if spec["kind"] == "one":
        return n > 1
    if n == 0 or spec["min"] > 0 or spec["max"] <= 0:
        return False
    for limit, _ in spec["at_most"]:  # noqa: SIM110 (a loop is quicker than all(...) here)
        if limit <= 0:  # an 'at most 0' rule: fewer items are free
            return False
    return True
