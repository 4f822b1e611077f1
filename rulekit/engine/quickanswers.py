"""Random answers to a choice asked alone, straight from its candidates (no spec).

Playout code of random seats (``rt.random``) calls :meth:`QuickAnswers.choose_one` for a
choice of one item asked alone, and :meth:`QuickAnswers.choose_subset` for a choice of a
subset with no ``at most`` rule asked alone in a game without anytime actions (``rt.plain``),
with the candidates it works out in place: the same steps and the same draws as
:class:`~rulekit.engine.answering.AnsweringRuntime` takes from the spec (and ``Decision.sample``
from a pending decision), without making the spec, which is made only when it is needed (the
watch, the round limit, an answer that is not drawn in short).
"""

from __future__ import annotations

from typing import Any

from rulekit.engine.answering import AnsweringRuntime, SpecMaker
from rulekit.engine.decisions import NONE_ID, Decision, choice_event, option_id
from rulekit.engine.draws import bit_indexes


class QuickAnswers(AnsweringRuntime):
    """The answers of random seats to a choice asked alone, from its candidates."""

    __slots__ = ()

    def choose_one(self, locals_: list[Any], slot: int, items: list[Any], role: str,
                   optional: bool, ask: bool, make: SpecMaker) -> str | None:
        """A choice of one item of ``items`` asked alone, answered by RandomChoosers
        (``random``) without its spec: the steps and draws of :meth:`_one` (and of
        :meth:`_answer_plainly` in a game without anytime actions), the answer written into
        ``locals_[slot]``; the procedure of an anytime action drawn instead. Playout code
        calls it with the candidates it works out in place (``make`` makes the spec only
        for the watch and the round limit, its steps not counted, as they were once)."""
        n = len(items)
        if n > 1 or (n and optional):  # the usual case: not forced
            forced = False
        elif n or optional:  # as forced_answer
            forced = True
        else:
            raise LookupError(f"{role} must choose, but there is nothing to choose")
        if self.anytime:
            whens = self.whens
            held = None if whens is None else whens.get(role)
            if held is not None and not forced:  # as anytime_options, in short
                extras = self._not_running(held) if held else held
            else:
                asked = forced and (ask or role in self.program.secret_anytime)
                extras = self._extras(role, counted=forced and not asked)
                if forced and not (asked or extras):
                    locals_[slot] = items[0] if n else None
                    return None
        elif forced and not ask:
            locals_[slot] = items[0] if n else None
            return None
        else:
            extras = []
        state = self.state
        if self.watch is not None or state["round"] > self.last_round:
            spec = self.remade(make, locals_)
            if self.watch is not None:
                self._waiting([spec])
            if state["round"] > self.last_round:
                self._cap([spec])
        self.decisions += 1
        budget = self.budget
        self.spent += budget - self.ticks  # as _answered
        self.ticks = budget
        rng = self.rngs[role]
        # The draws of RandomChooser.answer: an anytime action now and then, else an item.
        if extras and rng.random() < len(extras) / (len(extras) + 1 + n):
            return self._anytime(role, rng.choice(extras)[0], self.log)
        if optional:  # to decline is one more answer, drawn as -1
            drawn = rng._randbelow(n + 1) - 1
            value = items[drawn] if drawn >= 0 else None
        else:
            drawn = rng._randbelow(n)
            value = items[drawn]
        locals_[slot] = value
        if self.record:
            option = option_id(items, drawn, self.program.plain_ids) if drawn >= 0 else NONE_ID
            self.log.append(choice_event(role, option, value, state["round"]))
        return None

    def choose_subset(self, locals_: list[Any], slot: int, items: list[Any], role: str,
                      least: int, most: int, make: SpecMaker) -> None:
        """A choice of a subset of ``items`` (from ``least`` to ``most`` of them, no ``at
        most`` rule) asked alone in a game without anytime actions (``plain``), answered by a
        RandomChooser: the steps and draws of ``_answer_plainly``, the answer written into
        ``locals_[slot]``. What is not the usual case (a forced answer, the watch, the round
        limit, a recorded answer) goes the way of the spec, made here."""
        n = len(items)
        if not (n and least <= 0 < most) or self.record or self.watch is not None \
                or self.state["round"] > self.last_round:
            self._answer_specs(locals_, [self.remade(make, locals_)])
            return
        rng = self.rngs[role]
        getrandbits = rng.getrandbits
        for _ in range(64):  # as subset_bits draws
            bits = getrandbits(n)
            if least <= bits.bit_count() <= most:
                locals_[slot] = [items[i] for i in bit_indexes(bits)]
                break
        else:  # the constraints rejected too many draws: as RandomChooser.answer
            spec = self.remade(make, locals_)
            locals_[slot] = rng.choice(Decision(spec, str).options()).value
        self.decisions += 1
        budget = self.budget
        self.spent += budget - self.ticks  # as _answered
        self.ticks = budget
