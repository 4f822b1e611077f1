"""The code of a choice's spec and of a log line's event: the part of the emitter that writes
what a player is asked and what the log keeps.

A choice becomes a *spec maker* ``f(rt, L) -> spec``: the candidates and the constraints; in a
game with a log, the numbers of the functions that find the candidates refused and why, and
the labels of the candidates (run only when someone reads them: engine/refusals). A log line
becomes an event that keeps the id of its text and the values of its ``{...}`` fields, so the
text is only written when someone reads it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.drawcode import QUICK_TEST, one_alone, subset_alone, subsets_together
from rulekit.lang.exprfacts import is_range
from rulekit.model.program import LogField

Line = tuple[str, Location | None]

if TYPE_CHECKING:
    from rulekit.engine.vm import Runtime
    from rulekit.lang.compiler import Compiler

# Values a log shows as they are; other values (cards, roles, places, lists) by their names.
RAW_KINDS = frozenset({"int", "bool", "text", "none"})
# Values that are never lists, so a log keeps them without a copy.
SCALAR_KINDS = frozenset({"role", "card", "node", "edge", "region"})
# Playout code answers a random choice asked alone in place (off: through ``rt.answer``, to
# compare the two in one process, benchmarks/bench_answers.py).
QUICK = True


class ChoiceWriter:
    """Writes specs and log events for an :class:`~rulekit.lang.emitter.Emitter`."""

    c: Compiler
    direct: bool  # writing a plain Python function
    inline: bool  # writing a playout version
    called: bool  # writing the playout version of a procedure, as code calls it

    nslots: int  # locals of a playout version (it may add temporaries)

    def where(self, pos: n.Pos) -> Location:
        raise NotImplementedError

    def calls(self, proc: str) -> str:
        raise NotImplementedError

    def trigger(self, s: n.Assign) -> str | None:
        raise NotImplementedError

    def _assign_lines(self, s: n.Assign, value: str) -> list[str]:
        raise NotImplementedError

    def _var_written(self, s: n.Assign) -> list[str]:
        raise NotImplementedError

    def _inline_choice(self, s: n.Stmt, loc: Location, indent: str) -> list[Line]:
        """A choice answered at once (playout versions): ``rt.answer`` writes the answers
        into their slots, as a resumed game would; for random seats, a choice of one item
        asked alone goes straight to ``rt.choose_one`` (:meth:`_quick_one`), and one of a
        subset to ``rt.choose_subset`` (:meth:`_quick_subset`)."""
        if isinstance(s, n.Simultaneous):
            pairs = [(b.value, b.slot) for b in s.bindings]
        elif isinstance(s, n.Let):
            pairs = [(s.value, s.slot)]
        else:
            assert isinstance(s, n.Assign)
            if s.ref[0] == "local" and s.op == "=":
                pairs = [(s.value, s.ref[1])]
            else:
                pairs = [(s.value, self.nslots)]
                self.nslots += 1
        choices: list[tuple[n.Choice, int]] = []
        for choice, slot in pairs:
            assert isinstance(choice, n.Choice)
            choices.append((choice, slot))
        makers = [self.c.constant(self._choice_spec(choice, slot)) for choice, slot in choices]
        lines = [f"rt.answer(L, [{', '.join(makers)}])"]
        first, slot = choices[0]
        if QUICK and len(choices) == 1 and first.kind == "one":
            lines = [*self._quick_one(first, slot, makers[0]), "else:", "    " + lines[0]]
        elif QUICK and len(choices) == 1 and not first.at_most:
            lines = [*self._quick_subset(first, slot, makers[0]), "else:", "    " + lines[0]]
        elif QUICK and all(choice.kind == "subset" for choice, _ in choices):
            lines = [*self._quick_subsets(choices, makers), "else:", "    " + lines[0]]
        if isinstance(s, n.Assign) and not (s.ref[0] == "local" and s.op == "="):
            lines += self._assign_lines(s, f"L[{pairs[0][1]}]") + self._var_written(s)
            trigger = self.trigger(s)
            if trigger is not None:
                lines.append(f"{self.calls(trigger)}[{trigger!r}](rt, [_v])")
        return [(indent + t, loc) for t in lines]

    def _quick_one(self, choice: n.Choice, slot: int, maker: str) -> list[str]:
        """A choice of one item asked alone, answered by random seats
        (``QuickAnswers.choose_one``) from its candidates worked out in place, without a
        spec; asked again, the candidates worked out again, after an anytime action."""
        player = self.c.py(choice.player)
        call = (f"rt.choose_one(L, {slot}, _it, {player}, {bool(choice.optional)!r}, "
                f"{bool(choice.always_ask)!r}, {maker})")
        lines = one_alone(slot, self._quick_items(choice), player, bool(choice.optional),
                          bool(choice.always_ask), bool(self.c.program.anytime), call)
        return ["if rt.random:", *["    " + line for line in lines]]

    def _quick_subset(self, choice: n.Choice, slot: int, maker: str) -> list[str]:
        """A choice of a subset with no 'at most' rule asked alone, answered by random seats
        in a game without anytime actions (``QuickAnswers.choose_subset``), without a spec;
        in a simulation, drawn in place (:mod:`~rulekit.lang.drawcode`)."""
        c = self.c
        least = c.py(choice.min) if choice.min is not None else "0"
        most = c.py(choice.max) if choice.max is not None else "len(_it)"
        items, player = self._quick_items(choice), c.py(choice.player)
        return [f"if {QUICK_TEST}:",
                *["    " + line for line in subset_alone(slot, items, player, least, most,
                                                          maker)],
                "elif rt.plain:",
                f"    rt.choose_subset(L, {slot}, (_it := {items}), {player}, {least}, {most}, "
                f"{maker})"]

    def _quick_subsets(self, choices: list[tuple[n.Choice, int]], makers: list[str]
                       ) -> list[str]:
        """Choices of subsets asked together (or one with 'at most' rules), answered by random
        seats in a game without anytime actions (``QuickAnswers.choose_subsets``), without
        specs: each choice as ``(slot, candidates, player, least, most, rules, ask)``, a rule
        as ``(limit, mask)``, the mask's bit ``i`` set when candidate ``i`` counts for it."""
        c = self.c
        lines, quick = ["if rt.plain:"], []
        players = [c.py(choice.player) for choice, _ in choices]
        # Whether every choice surely takes the short way (QuickAnswers._usual), as known here.
        sure = len(set(players)) == len(players) and all(
            player.startswith("'") for player in players) and all(
            _at_most(choice.min, 0) and (choice.max is None or _at_least(choice.max, 1))
            and all(_at_least(rule.limit, 1) for rule in choice.at_most)
            for choice, _ in choices)
        drawn = []  # each choice as subsets_together takes it (if drawn in place)
        for index, (choice, slot) in enumerate(choices):
            items = f"_q{index}"
            lines.append(f"    {items} = {self._quick_items(choice)}")
            least = c.py(choice.min) if choice.min is not None else "0"
            most = c.py(choice.max) if choice.max is not None else f"len({items})"
            rules = []
            for rule in choice.at_most:
                with c.binding(choice.slot) as var:
                    condition = c.py(rule.condition)
                rules.append((c.py(rule.limit),
                              f"_mask(_TUPLE([{condition} for {var} in {items}]))"))
            quick.append(f"({slot}, {items}, {players[index]}, {least}, {most}, "
                         f"({''.join(f'({limit}, {mask}), ' for limit, mask in rules)}), "
                         f"{bool(choice.always_ask)!r}), ")
            drawn.append((slot, items, players[index], least, most,
                          rules[0] if rules else None, bool(choice.always_ask)))
        call = (f"rt.choose_subsets(L, ({''.join(quick)}), ({', '.join(makers)},), "
                f"{sure!r})")
        if sure and all(len(choice.at_most) <= 1 for choice, _ in choices):
            # In a simulation, drawn in place (rulekit/lang/drawcode).
            lines += [f"    if {QUICK_TEST}:",
                      *["        " + line for line in subsets_together(drawn, makers)],
                      "    else:", f"        {call}"]
        else:
            lines.append(f"    {call}")
        return lines

    def _quick_items(self, choice: n.Choice) -> str:
        """The candidates of a choice, as its spec lists them (without those refused)."""
        c = self.c
        source = c.walked(choice.source)
        if choice.where is not None:
            with c.binding(choice.slot, counting=is_range(choice.source)) as var:
                return f"[{var} for {var} in {source} if {c.py(choice.where)}]"
        if source.startswith(("list(", "[")) and source.endswith((")", "]")):
            return source
        return f"list({source})"

    def _log_line(self, s: n.Log) -> str:
        """A log line's event, read-only from the start (``engine/frozen``)."""
        log_id, args = self._log_text(s, snap="_fsnap")
        to = self.c.py(s.to) if s.to is not None else "None"
        return (f"if rt.logging: rt.log.append(_FD({{'e': 'log', 'to': {to}, 'at': {log_id}, "
                f"'args': _FL([{args}]), 'round': S['round']}}))")

    def _log_text(self, s: n.Log, table: dict[int, list[str | LogField]] | None = None,
                  snap: str = "_snap") -> tuple[int, str]:
        """The id of a log text in ``table`` (``program.logs``) and the code of its
        arguments, each list among them copied by ``snap``."""
        c = self.c
        table = c.program.logs if table is None else table
        kinds = iter(s.kinds)
        parts: list[str | LogField] = [
            p if isinstance(p, str) else LogField(next(kinds, "any") not in RAW_KINDS)
            for p in s.parts]
        # A playout version logs as the blocks of its procedure do, or as its direct version
        # for a procedure called from code (``called``).
        key = (id(s), self.called or (self.direct and not self.inline))
        log_id = c.log_ids.get(key) if self.inline else None
        if log_id is None:
            log_id = len(table)
            table[log_id] = parts
            if not self.inline:
                c.log_ids[key] = log_id
        exprs = [p for p in s.parts if not isinstance(p, str)]
        args = ", ".join(c.py(p) if kind in RAW_KINDS or kind in SCALAR_KINDS
                         else f"{snap}({c.py(p)})"
                         for p, kind in zip(exprs, s.kinds or ["any"] * len(exprs), strict=True))
        return log_id, args

    def _reason(self, s: n.Log, read_only: bool = False) -> str:
        """The code of why an answer is refused: [log text id, [arguments]] (plain data; with
        ``read_only``, read-only at every depth, as an observation shows it)."""
        if read_only:
            log_id, args = self._log_text(s, self.c.program.reasons, snap="_fsnap")
            return f"_FL([{log_id}, _FL([{args}])])"
        log_id, args = self._log_text(s, self.c.program.reasons)
        return f"[{log_id}, [{args}]]"

    def _choice_spec(self, choice: n.Choice, slot: int) -> Callable[[Runtime, list[Any]],
                                                                    dict[str, Any]]:
        c = self.c
        loc = self.where(choice.pos)
        source = c.walked(choice.source)
        if choice.where is not None:
            with c.binding(choice.slot, counting=is_range(choice.source)) as var:
                items = f"[{var} for {var} in {source} if {c.py(choice.where)}]"
        elif source.startswith(("list(", "[")) and source.endswith((")", "]")):
            items = source  # already a new list
        else:
            items = f"list({source})"
        prompt = choice.prompt or ("Choose one" if choice.kind == "one" else "Choose any number")
        body = [f"items = {items}",
                f"spec = {{'player': {c.py(choice.player)}, 'kind': {choice.kind!r}, "
                f"'prompt': {prompt!r}, 'items': items, 'slot': {slot}}}"]
        if any(reason for _, reason in choice.wheres):
            # In a game with a log, the number of the function that finds the candidates
            # refused and why, when someone reads them (engine/refusals).
            body.append(f"if rt.logging: spec['refusing'] = {self._refuser(choice, source)}")
        if choice.label is not None:  # each candidate's label, for people, when read
            body.append(f"if rt.logging: spec['labelling'] = {self._labeller(choice)}")
        body += self._reasons(choice)
        if choice.always_ask:  # its options may tell a secret: asked even if forced
            body.append("spec['ask'] = True")
        if choice.kind == "one":
            body.append(f"spec['optional'] = {choice.optional!r}")
        else:
            lo = c.py(choice.min) if choice.min is not None else "0"
            hi = c.py(choice.max) if choice.max is not None else "len(items)"
            body += [f"spec['min'] = {lo}", f"spec['max'] = {hi}", "rules = []"]
            whys = [self._reason(r.reason) if r.reason else "None" for r in choice.at_most]
            for rule, why in zip(choice.at_most, whys, strict=True):
                with c.binding(choice.slot) as var:
                    condition = c.py(rule.condition)
                body += [f"flags = [1 if {condition} else 0 for {var} in items]",
                         f"if 1 in flags: rules.append([{c.py(rule.limit)}, flags])"]
                if any(r.reason for r in choice.at_most):
                    body.append(f"if 1 in flags: spec.setdefault('at_most_why', []).append({why})")
            body.append("spec['at_most'] = rules")
        body.append("return spec")
        maker: Callable[[Runtime, list[Any]], dict[str, Any]] = c.function(body, loc)
        return maker

    def _refuser(self, choice: n.Choice, source: str) -> int:
        """The number in ``program.refusers`` of a function ``f(rt, L)`` that lists the
        candidates of ``choice`` its 'where' clauses refuse, each with the reason of the first
        clause it fails (if that clause has one): ``[[candidate, [text id, [arguments]]]...]``,
        read-only at every depth (as ``observe`` shows it, without copying it again). It is run
        only when someone reads the reasons (a player, ``observe``, a log): a game
        that never shows them (a bot's search, a belief's replays) never builds them."""
        c = self.c
        number = c.refuser_ids.get(id(choice))
        if number is not None:
            return number
        with c.binding(choice.slot, counting=is_range(choice.source)) as var:
            lines = ["refused = []", f"for {var} in {source}:"]
            for cond, reason in choice.wheres:
                lines.append(f"    if not ({c.py(cond)}):")
                if reason is not None:
                    lines.append(f"        refused.append(_FL([{var}, "
                                 f"{self._reason(reason, read_only=True)}]))")
                lines.append("        continue")
        loc = self.where(choice.pos)
        number = c.refuser_ids[id(choice)] = len(c.program.refusers)
        c.program.refusers.append((c.function([*lines, "return _FL(refused)"], loc), loc))
        return number

    def _labeller(self, choice: n.Choice) -> int:
        """The number in ``program.labellers`` of a function ``f(rt, L, items)`` that gives
        the ``label`` of each of the candidates ``items`` of ``choice``: ``[[text id,
        [arguments]]...]`` (read-only, as the refused candidates), run only when someone reads
        them."""
        c = self.c
        number = c.labeller_ids.get(id(choice))
        if number is not None:
            return number
        assert choice.label is not None
        loc = self.where(choice.pos)
        with c.binding(choice.slot) as var:
            line = f"return _FL([{self._reason(choice.label, read_only=True)} for {var} in items])"
        number = c.labeller_ids[id(choice)] = len(c.program.labellers)
        c.program.labellers.append((c.block_function("code", "L, items", [(line, loc)]), loc))
        return number

    def _reasons(self, choice: n.Choice) -> list[str]:
        """Code that puts in a spec the reasons of 'min' and 'max' (those of 'where' come
        with the candidates, those of 'at most' rules with the rules)."""
        body = []
        for bound in ("min", "max"):
            if bound in choice.reasons:
                body.append(f"spec['{bound}_why'] = {self._reason(choice.reasons[bound])}")
        return body


def _at_most(e: n.Expr | None, bound: int) -> bool:
    """Whether ``e`` is a number of at most ``bound`` (none counts as 0)."""
    if e is None:
        return bound >= 0
    return isinstance(e, n.Literal) and e.value.__class__ is int and e.value <= bound


def _at_least(e: n.Expr, bound: int) -> bool:
    """Whether ``e`` is a number of at least ``bound``."""
    return isinstance(e, n.Literal) and e.value.__class__ is int and e.value >= bound
