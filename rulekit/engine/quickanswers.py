"""Random answers to a choice, straight from its candidates (no spec).

Playout code of random seats (``rt.random``) calls :meth:`QuickAnswers.choose_one` for a
choice of one item asked alone; in a game without anytime actions (``rt.plain``),
:meth:`QuickAnswers.choose_subset` for a choice of a subset with no ``at most`` rule asked
alone, and :meth:`QuickAnswers.choose_subsets` for subsets asked together (a ``simultaneous``
group) or one with ``at most`` rules. It passes the candidates it works out in place: the same
steps and the same draws as :class:`~rulekit.engine.answering.AnsweringRuntime` takes from the
spec (and ``Decision.sample`` from a pending decision), without making the spec, which is made
only when it is needed (the watch, the round limit, an answer that is not drawn in short).
"""

from __future__ import annotations

from typing import Any

from rulekit.engine.answering import AnsweringRuntime, SpecMaker
from rulekit.engine.decisions import NONE_ID, Decision, choice_event, option_id
from rulekit.engine.draws import bit_indexes, pick
from rulekit.engine.vm import check_players


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
            return self._anytime(role, pick(rng, extras)[0], self.log)
        # draws.below(rng, n), or one more for to decline (drawn as -1), written in place
        count = n + 1 if optional else n
        getrandbits = rng.getrandbits
        bits = count.bit_length()
        drawn = getrandbits(bits)
        while drawn >= count:
            drawn = getrandbits(bits)
        if optional:
            drawn -= 1
            value = items[drawn] if drawn >= 0 else None
        else:
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
            locals_[slot] = pick(rng, Decision(spec, str).options()).value
        self.decisions += 1
        budget = self.budget
        self.spent += budget - self.ticks  # as _answered
        self.ticks = budget

    def choose_subsets(self, locals_: list[Any], choices: tuple[QuickSubset, ...],
                       makers: tuple[SpecMaker, ...], sure: bool = False) -> None:
        """Choices of subsets asked together (or one alone with 'at most' rules) in a game
        without anytime actions (``plain``), answered by RandomChoosers: the steps and draws
        of ``_answer_plainly``, each answer written into its slot of ``locals_``. A choice is
        ``(slot, candidates, player, least, most, rules, ask)``, a rule ``(limit, mask)``
        (bit ``i`` of the mask set when candidate ``i`` counts for the rule), ``ask`` whether
        it is asked even when forced. A choice with no candidate is answered with none (a
        decision if it is asked). What is not the usual case (another forced choice, one with
        no answer, one player choosing twice, the watch, the round limit, a recorded answer)
        goes the way of the specs, made here from ``makers``. ``sure``: the compiler found
        that ``choices`` are always the usual case."""
        if self.record or self.watch is not None or self.state["round"] > self.last_round \
                or not (sure or _usual(choices)):
            self._answer_specs(locals_, self._remade_all(makers, locals_))
            return
        rngs = self.rngs
        decisions = index = 0
        for slot, items, role, least, most, rules, ask in choices:
            n = len(items)
            if not n:  # as forced_answer (a forced choice asked draws no bit)
                locals_[slot] = []
                decisions += ask
                index += 1
                continue
            decisions += 1
            getrandbits = rngs[role].getrandbits
            if len(rules) == 1:  # (one 'at most' rule, the usual case, in short)
                limit, mask = rules[0]
                for _ in range(64):  # as subset_bits draws
                    bits = getrandbits(n)
                    if least <= bits.bit_count() <= most and (bits & mask).bit_count() <= limit:
                        locals_[slot] = [items[i] for i in bit_indexes(bits)]
                        break
                else:
                    self.refused_answer(locals_, slot, role, makers[index])
            else:
                for _ in range(64):
                    bits = getrandbits(n)
                    if least <= bits.bit_count() <= most:
                        for limit, mask in rules:
                            if (bits & mask).bit_count() > limit:
                                break
                        else:
                            locals_[slot] = [items[i] for i in bit_indexes(bits)]
                            break
                else:
                    self.refused_answer(locals_, slot, role, makers[index])
            index += 1
        if not decisions:  # all forced, none asked: no decision was waited for
            return
        self.decisions += decisions
        budget = self.budget
        self.spent += budget - self.ticks  # as _answered
        self.ticks = budget

    def refused_answer(self, locals_: list[Any], slot: int, role: str, make: SpecMaker
                       ) -> None:
        """The answer when the constraints rejected too many draws: one of all the legal
        answers, drawn as RandomChooser.answer draws it (also for the draws playout code
        makes in place, rulekit/lang/drawcode)."""
        spec = self.remade(make, locals_)
        locals_[slot] = pick(self.rngs[role], Decision(spec, str).options()).value

    def _remade_all(self, makers: tuple[SpecMaker, ...], locals_: list[Any]
                    ) -> list[dict[str, Any]]:
        """The specs of choices asked together, made again (as ``_answer_plainly`` makes
        them: one player with two of them is an error)."""
        specs = [self.remade(make, locals_) for make in makers]
        if len(specs) > 1:
            check_players(specs)
        return specs


# A subset choice as playout code passes it to QuickAnswers.choose_subsets: (slot,
# candidates, player, least, most, rules, ask), a rule as (limit, mask).
QuickSubset = tuple[int, list[Any], str, int, int, tuple[tuple[int, int], ...], bool]


def _usual(choices: tuple[QuickSubset, ...]) -> bool:
    """Whether ``choose_subsets`` answers ``choices`` in short: each surely has several
    legal answers (as ``_asked`` says of its spec: no least above 0, a most above 0, no rule
    of at most 0 that counts a candidate) or no candidate and none to choose (as
    ``forced_answer`` says), and each player chooses once."""
    for _, items, _, least, most, rules, _ in choices:
        if not items:
            if least > min(most, 0):
                return False  # (an error, which the spec's way raises)
            continue
        if least > 0 or most <= 0:
            return False
        for limit, mask in rules:
            if limit < 0 or (mask and limit == 0):  # (a rule that counts no candidate is
                return False  # left out of the spec: below 0, the spec's way takes it)
    if len(choices) == 2:
        return choices[0][2] != choices[1][2]
    return len({choice[2] for choice in choices}) == len(choices)
