"""Turn a procedure's statements into Python: a function run whole and, if it may stop, blocks."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulekit.errors import Location
from rulekit.lang import nodes as n
from rulekit.lang.analysis import is_simple
from rulekit.lang.pyexpr import SIZED_OPS, checked_inline
from rulekit.lang.walk import calls_in, choices_in, is_choice, triggered, zone_name
from rulekit.model.program import LogField, Proc
from rulekit.source.snippet import Snippet

if TYPE_CHECKING:
    from rulekit.engine.playout import SpecMaker
    from rulekit.lang.compiler import Compiler

Line = tuple[str, Location | None]

# Values a log shows as they are; other values (cards, roles, places, lists) by their names.
RAW_KINDS = frozenset({"int", "bool", "text", "none"})
# Values that are never lists, so a log keeps them without a copy.
SCALAR_KINDS = frozenset({"role", "card", "node", "edge", "region"})

_LABEL = re.compile(r"@L(\d+)@")

# One step of the budget, counted at each turn of a loop.
TICK = ["rt.ticks -= 1", "if rt.ticks < 0: _over(rt)"]


@dataclass
class _Op:
    """A piece of a procedure before blocks are formed."""

    kind: str  # code | label | jump | terminal
    lines: list[Line] = field(default_factory=list)
    label: int = -1
    # "ask": a choice. "test": an ``if`` or ``while`` test, which only jumps; "fixed" if no
    # anytime action can change it. A choice resumes at its tests (see _resume_ops).
    role: str = ""
    moved: bool = False  # a "test" that an anytime action may change indeed


@dataclass
class _Loop:
    structured: bool  # a Python loop (break/continue are Python's) or a block loop (jumps)
    head: int = -1
    end: int = -1


class Emitter:
    """Emits one procedure: a function that runs it whole (``whole``), else its blocks."""

    def __init__(self, compiler: Compiler, proc: Proc, snippet: Snippet,
                 suspending: set[str], *, whole: bool) -> None:
        self.c = compiler
        self.proc = proc
        self.snippet = snippet
        self.suspending = suspending
        self.whole = whole
        self.nslots = proc.nslots  # locals, and the temporaries it adds
        self.ops: list[_Op] = []
        self._labels = itertools.count()
        self.checks = bool(compiler.program.end_checks)

    def checks_after(self, *names: str, ends: bool = True) -> list[str]:
        """What follows a change of these zones or variables: forgotten whens, end checks."""
        lines = []
        whens = self.c.when_watch or {}
        roles = sorted({role for name in names for role in whens.get(name, ())})
        if roles:
            lines.append("; ".join(f"rt.held.pop({role!r}, None)" for role in roles))
        watched = self.c.end_watch
        if ends and self.checks and (watched is None or any(name in watched for name in names)):
            lines.append("_END(rt)")
        return lines

    def calls(self, proc: str, args: str) -> str:
        """Python that calls ``proc`` with ``args`` and runs it to its end."""
        if not self.c.fast:
            return f"_D[{proc!r}](rt, [{args}])"
        if proc in self.c.through_blocks:
            return f"rt.run_blocks({proc!r}, [{args}])"
        return f"_P[{proc!r}](rt, [{args}])"

    def where(self, pos: n.Pos) -> Location:
        return self.snippet.location(pos)

    def trigger(self, s: n.Stmt) -> str | None:
        """What a change runs: an assignment's ``on_change``, or a move's ``on_enter``."""
        return triggered(s, self.c.triggers)

    def may_stop(self, s: n.Stmt) -> bool:
        """Whether a statement asks, or calls or triggers a procedure that may stop."""
        return choices_in([s]) or bool(calls_in([s], self.c.triggers) & self.suspending)

    # ------------------------------------------------------------ structured Python

    def structured(self, body: list[n.Stmt], loops: list[_Loop], indent: str) -> list[Line]:
        """Python lines for statements that never stop for a decision."""
        return [line for s in body for line in self._py(s, loops, indent)]

    def _py(self, s: n.Stmt, loops: list[_Loop], indent: str) -> list[Line]:
        """Python lines for one statement that never stops for a decision."""
        if is_choice(s):
            return self._answered_choice(s, self.where(s.pos), indent)
        if isinstance(s, n.If):
            return self._py_if(s, loops, indent)
        if isinstance(s, (n.For, n.While, n.Repeat)):
            return self._py_loop(s, loops, indent)
        if isinstance(s, (n.Break, n.Continue)):
            texts = self._py_jump(s, loops[-1])
        else:
            write: Callable[[Any], list[str]] = getattr(self, "_s_" + type(s).__name__.lower())
            texts = write(s)
        loc = self.where(s.pos)
        return [(indent + text, loc) for text in texts]

    def _py_if(self, s: n.If, loops: list[_Loop], indent: str) -> list[Line]:
        lines: list[Line] = []
        for i, (cond, body) in enumerate(s.branches):
            keyword = "if" if i == 0 else "elif"
            lines.append((f"{indent}{keyword} {self.c.py(cond)}:", self.where(cond.pos)))
            lines.extend(self._suite(body, loops, indent + "    "))
        if s.otherwise:
            lines.append((indent + "else:", self.where(s.pos)))
            lines.extend(self._suite(s.otherwise, loops, indent + "    "))
        return lines

    def _py_loop(self, s: n.For | n.While | n.Repeat, loops: list[_Loop], indent: str
                 ) -> list[Line]:
        c = self.c
        if isinstance(s, n.For):
            head = f"for {c.local(s.slot)} in {c.walked(s.iterable, copied=True)}:"
        elif isinstance(s, n.While):
            head = f"while {c.py(s.condition)}:"
        else:
            head = f"for _ in range({c.py(s.count)}):"
        loc = self.where(s.pos)
        inner = indent + "    "
        return ([(indent + head, loc)] + [(inner + text, loc) for text in TICK]
                + self.structured(s.body, [*loops, _Loop(True)], inner))

    def _py_jump(self, s: n.Break | n.Continue, loop: _Loop) -> list[str]:
        if loop.structured:
            return ["break" if isinstance(s, n.Break) else "continue"]
        target = loop.end if isinstance(s, n.Break) else loop.head
        return [f"frame['pc'] = @L{target}@", "return 0"]

    # One method per simple statement: its lines of Python.

    def _s_let(self, s: n.Let) -> list[str]:
        return [f"{self.c.local(s.slot)} = {self.c.py(s.value)}"]

    def _s_assign(self, s: n.Assign, value: str | None = None) -> list[str]:
        """An assignment (of ``value``, Python source, if given), then its trigger."""
        lines = self._assign_lines(s, self.c.py(s.value) if value is None else value)
        trigger = self.trigger(s)
        return lines if trigger is None else [*lines, self.calls(trigger, "_v")]

    def _s_return(self, s: n.Return) -> list[str]:
        return ["return"] if self.whole else ["frame['pc'] = 1 << 30", "return 0"]

    def _s_pass(self, s: n.Pass) -> list[str]:
        return ["pass"]

    def _s_move(self, s: n.Move | n.Draw) -> list[str]:
        lines = self._move_lines(s)
        trigger = self.trigger(s)
        return lines if trigger is None else [*lines, f"for _c in _moved: "
                                                      f"{self.calls(trigger, '_c')}"]

    _s_draw = _s_move

    def _s_shuffle(self, s: n.Shuffle) -> list[str]:
        return [f"rt.shuffle(_each(rt, Z[{self.c.zone(s.zone)}]))",  # each card counted
                *self.checks_after(zone_name(s.zone), ends=False)]

    def _s_callstmt(self, s: n.CallStmt) -> list[str]:
        return [self.calls(s.proc, ", ".join(self.c.py(a) for a in s.args))]

    def _s_win(self, s: n.Win) -> list[str]:
        reason = repr("") if s.reason is None else self.said(s.reason)
        return [f"rt.finish({self.c.py(s.winner)}, {reason})", "raise _Stop"]

    def _s_endround(self, s: n.EndRound) -> list[str]:
        return ["raise _EndRound"]

    def _s_log(self, s: n.Log) -> list[str]:
        """A log line's event, read-only from the start (``engine/frozen``)."""
        log_id, args = self._log_text(s, self.c.program.logs)
        to = self.c.py(s.to) if s.to is not None else "None"
        return [f"if rt.logging: rt.log.append(_FD({{'e': 'log', 'to': {to}, 'at': {log_id}, "
                f"'args': _FL([{args}]), 'round': S['round']}}))"]

    def _move_lines(self, s: n.Move | n.Draw) -> list[str]:
        """Python for a move or draw into ``_moved``, then its checks."""
        c = self.c
        src, dst = c.zone(s.source), c.zone(s.dest)
        if self.trigger(s) is None:  # nothing reads the cards moved
            lines = _moved_in_place(s, src, dst, c.py(s.count) if isinstance(s, n.Draw)
                                    else None if s.cards is None else c.py(s.cards))
        elif isinstance(s, n.Draw):
            lines = [f"_moved = _draw(Z[{src}], Z[{dst}], {c.py(s.count)})"]
        elif s.cards is None:
            lines = [f"_moved = _move_all(_each(rt, Z[{src}]), Z[{dst}], {s.to_bottom!r}, True)"]
        else:
            lines = [f"_k = {src}",
                     f"_moved = _move(Z[_k], Z[{dst}], {c.py(s.cards)}, {s.to_bottom!r}, _k)"]
        decl = c.symbols.zones[zone_name(s.dest)]
        if decl.capacity is not None:
            lines.append(f"if len(Z[{dst}]) > {decl.capacity}: "
                         f"_full({decl.name!r}, {decl.capacity})")
        return lines + self.checks_after(zone_name(s.source), zone_name(s.dest))

    def _suite(self, body: list[n.Stmt], loops: list[_Loop], indent: str) -> list[Line]:
        lines = self.structured(body, loops, indent)
        return lines or [(indent + "pass", None)]

    def _assign_lines(self, s: n.Assign, value: str) -> list[str]:
        """An assignment of ``value`` (Python source) to a local or a variable."""
        ref = s.ref
        if ref[0] != "local":
            return self._var_assign(s, value)
        local = self.c.local(ref[1])  # (never in place: a list may be shared with the log)
        if s.op == "=":
            return [f"{local} = {value}"]
        if self.c.fast and is_simple(s.value) and not s.walks:
            return [f"{local} = {checked_inline(s.op[0], local, value)}"]
        return [f"{local} = {_operation(s, local, value)}"]

    def _var_assign(self, s: n.Assign, value: str) -> list[str]:
        """An assignment to a variable, kept within its bounds, its key checked, then checks."""
        name = s.ref[1]
        decl = self.c.symbols.variables[name]
        if s.index is None:
            lines = [f"_key = {name!r}"]
        else:
            key = self.c.zone(n.Index(s.pos, n.Name(s.pos, name), s.index))
            lines = [f"_key = {key}", "if _key not in V: _no_item(_key)"]
        lines.append(f"_v = {value}")
        if s.op != "=":
            lines.append(f"_v = {_operation(s, 'V[_key]', '_v')}")
        if decl.minimum is not None:
            lines.append(f"if _v < {decl.minimum!r}: _v = {decl.minimum!r}")
        if decl.maximum is not None:
            lines.append(f"if _v > {decl.maximum!r}: _v = {decl.maximum!r}")
        return [*lines, "V[_key] = _v", *self.checks_after(name)]

    # ------------------------------------------------------------ blocks

    def new_label(self) -> int:
        return next(self._labels)

    def mark(self, label: int) -> None:
        self.ops.append(_Op("label", label=label))

    def jump(self, label: int, loc: Location | None = None) -> None:
        self.ops.append(_Op("jump", [(f"frame['pc'] = @L{label}@", loc), ("return 0", loc)]))

    def blocks(self, body: list[n.Stmt], loops: list[_Loop]) -> None:
        """Emit statements as ops, structured where possible."""
        run: list[n.Stmt] = []
        for s in body:
            if self.may_stop(s):
                if run:
                    self.ops.append(_Op("code", self.structured(run, loops, "")))
                    run = []
                self._stopping(s, loops)
            else:
                run.append(s)
        if run:
            self.ops.append(_Op("code", self.structured(run, loops, "")))

    def _stopping(self, s: n.Stmt, loops: list[_Loop]) -> None:
        """The ops of a statement that may stop for a decision."""
        loc = self.where(s.pos)
        if is_choice(s):
            self._stopping_choice(s, loc)
        elif isinstance(s, n.Assign):  # a plain assignment whose trigger may stop
            self._stopping_assign(s, self.c.py(s.value), loc)
        elif isinstance(s, n.CallStmt):
            args = ", ".join(self.c.py(a) for a in s.args)
            self._terminal([(f"_call(rt, {s.proc!r}, [{args}])", loc)], loc)
        elif isinstance(s, (n.Move, n.Draw)):  # a move whose on_enter trigger may stop
            self._stopping_move(s, loc)
        elif isinstance(s, n.If):
            self._stopping_if(s, loops)
        else:
            assert isinstance(s, (n.For, n.While, n.Repeat))
            self._stopping_loop(s, loops, loc)

    def _terminal(self, lines: list[Line], loc: Location) -> None:
        """Lines that end a block, then a return to the interpreter."""
        self.ops.append(_Op("terminal", [*lines, ("return 0", loc)]))

    def _stopping_assign(self, s: n.Assign, value: str, loc: Location) -> None:
        """An assignment of ``value`` (Python source), then its trigger, which may stop."""
        self.ops.append(_Op("code", [(t, loc) for t in self._assign_lines(s, value)]))
        trigger = self.trigger(s)
        if trigger in self.suspending:
            self._terminal([(f"_call(rt, {trigger!r}, [_v])", loc)], loc)
        elif trigger is not None:
            self.ops.append(_Op("code", [(self.calls(trigger, "_v"), loc)]))

    def _stopping_move(self, s: n.Move | n.Draw, loc: Location) -> None:
        trigger = self.trigger(s)
        # One frame per card, pushed last first so that the first card is handled first.
        self._terminal([*[(t, loc) for t in self._move_lines(s)],
                        (f"for _c in reversed(_moved): _call(rt, {trigger!r}, [_c])", loc)], loc)

    def _stopping_choice(self, s: n.Stmt, loc: Location) -> None:
        """Choices answered into locals or, through one, into a variable."""
        choices = self._choice_slots(s)
        self._choices(loc, choices)
        if isinstance(s, n.Assign) and not _straight(s):
            self._stopping_assign(s, f"L[{choices[0][1]}]", loc)

    def _stopping_if(self, s: n.If, loops: list[_Loop]) -> None:
        end = self.new_label()
        for cond, body in s.branches:
            skip = self.new_label()
            self.ops.append(self._test([
                (f"if not {self.c.py(cond)}: frame['pc'] = @L{skip}@", self.where(cond.pos)),
                ("return 0", None)], cond))
            self.blocks(body, loops)
            self.jump(end)
            self.mark(skip)
        if s.otherwise is not None:
            self.blocks(s.otherwise, loops)
        self.mark(end)

    def _stopping_loop(self, s: n.For | n.While | n.Repeat, loops: list[_Loop],
                       loc: Location) -> None:
        """A loop as blocks: its test jumps to its end, its last block back."""
        c = self.c
        head, end = self.new_label(), self.new_label()
        if isinstance(s, n.For):
            it = f"L[{s.iter_slot}]"
            self.ops.append(_Op("code", [(f"{it} = [list({c.py(s.iterable)}), 0]", loc)]))
            self.mark(head)
            self.ops.append(_Op("jump", [
                (f"_it = {it}", loc),
                (f"if _it[1] >= len(_it[0]): frame['pc'] = @L{end}@", loc),
                (f"else: L[{s.slot}] = _it[0][_it[1]]; _it[1] += 1", loc),
                ("return 0", loc)]))
        elif isinstance(s, n.While):
            self.mark(head)
            self.ops.append(self._test([
                (f"if not {c.py(s.condition)}: frame['pc'] = @L{end}@", loc), ("return 0", loc)],
                s.condition))
        else:
            counter = f"L[{s.iter_slot}]"
            self.ops.append(_Op("code", [(f"{counter} = {c.py(s.count)}", loc)]))
            self.mark(head)
            self.ops.append(_Op("jump", [
                (f"if {counter} <= 0: frame['pc'] = @L{end}@", loc),
                (f"else: {counter} -= 1", loc), ("return 0", loc)]))
        self.blocks(s.body, [*loops, _Loop(False, head, end)])
        self.jump(head, loc)
        self.mark(end)

    def _test(self, lines: list[Line], cond: n.Expr) -> _Op:
        """The op of a test: "fixed", "test", or "moved" if an anytime action may change it."""
        if self.c.reads_nothing_shared(cond):
            return _Op("jump", lines, role="fixed")
        return _Op("jump", lines, role="test", moved=self.c.anytime_may_change(cond))

    def _choices(self, loc: Location, pairs: list[tuple[n.Choice, int]]) -> None:
        """Choices asked in a block of their own: after an anytime action, they are asked again."""
        self.mark(self.new_label())
        makers = self._makers(pairs)
        calls = ", ".join(f"{m}(rt, L)" for m in makers)
        self.ops.append(_Op("terminal", [(f"return rt.ask([{calls}])", loc)], role="ask"))

    def _answered_choice(self, s: n.Stmt, loc: Location, indent: str) -> list[Line]:
        """A choice in a procedure run whole: the runtime writes its answers."""
        choices = self._choice_slots(s)
        lines = self._answer_call(choices, self._makers(choices))
        if isinstance(s, n.Assign) and not _straight(s):
            lines += self._s_assign(s, f"L[{choices[0][1]}]")
        return [(indent + t, loc) for t in lines]

    def _choice_slots(self, s: n.Stmt) -> list[tuple[n.Choice, int]]:
        """A statement's choices, each with the local its answer goes into."""
        choices = []
        for let in s.bindings if isinstance(s, n.Simultaneous) else [s]:
            assert isinstance(let, (n.Let, n.Assign)) and isinstance(let.value, n.Choice)
            if isinstance(let, n.Let):
                choices.append((let.value, let.slot))
            elif _straight(let):
                choices.append((let.value, let.ref[1]))
            else:
                choices.append((let.value, self.nslots))
                self.nslots += 1
        return choices

    def _makers(self, choices: list[tuple[n.Choice, int]]) -> list[str]:
        """The names bound to the spec makers of choices, each with its answer's local."""
        return [self.c.constant(self.choice_spec(choice, slot)) for choice, slot in choices]

    def _answer_call(self, choices: list[tuple[n.Choice, int]], makers: list[str]) -> list[str]:
        """The runtime's call that answers choices, without a spec where it can."""
        choice, slot = choices[0]
        if len(choices) == 1 and choice.kind == "one":  # drawn at once by a random seat
            player, optional = self.c.py(choice.player), bool(choice.optional)
            return [f"rt.choose_one(L, {slot}, {self.candidates(choice)}, {player}, "
                    f"{optional!r}, {choice.always_ask!r}, {makers[0]})"]
        if all(choice.kind == "subset" for choice, _ in choices):
            return self._subsets(choices, makers)
        return [f"rt.answer(L, [{', '.join(makers)}])"]

    def _subsets(self, pairs: list[tuple[n.Choice, int]], makers: list[str]) -> list[str]:
        """Subset choices, for ``rt.choose_subsets``: their candidates worked out first."""
        c = self.c
        lines, choices = [], []
        for index, (choice, slot) in enumerate(pairs):
            items = f"_i{index}"
            lines.append(f"{items} = {self.candidates(choice)}")
            least, most = self.bounds(choice, items)
            rules = [f"[{c.py(rule.limit)}, {self.flags(choice, rule, items)}]"
                     for rule in choice.at_most]
            choices.append(f"({slot}, {items}, {c.py(choice.player)}, {least}, {most}, "
                           f"[{', '.join(rules)}], {choice.always_ask!r})")
        return [*lines, f"rt.choose_subsets(L, ({', '.join(choices)},), [{', '.join(makers)}])"]

    def finish(self) -> None:
        """Group ops into blocks, resolve labels, and compile each block."""
        resume = _resume_ops(self.ops)
        groups, label_block, op_group = _group(self.ops, set(resume.values()))
        self.proc.resume = {op_group[ask]: op_group[test] for ask, test in resume.items()}
        # Tests an anytime action may change must run again before their choice.
        self.proc.moved_tests = any(op.moved for ask, test in resume.items()
                                    for op in self.ops[test:ask])
        for index, ops in enumerate(groups):
            lines = [line for op in ops for line in op.lines]
            if ops[-1].kind not in ("jump", "terminal"):
                lines.append(("return 0", None))
            lines = [(_LABEL.sub(lambda m: str(label_block[int(m.group(1))]), t), loc)
                     for t, loc in lines]
            fn = self.c.block_function(f"{self.proc.name} block {index}", "frame", lines)
            self.proc.blocks.append(fn)
            self.proc.locations.append(next((loc for _, loc in lines if loc), None))
        self.proc.nslots = self.nslots

    # ------------------------------------------------------------ choice specs and log texts

    def _log_text(self, s: n.Log, table: dict[int, list[str | LogField]]) -> tuple[int, str]:
        """A log text's id in ``table``, and the code of its field values."""
        c = self.c
        kinds = iter(s.kinds)
        parts: list[str | LogField] = [
            p if isinstance(p, str) else LogField(next(kinds, "any") not in RAW_KINDS)
            for p in s.parts]
        ids = c.text_ids.setdefault(id(table), {})
        log_id = ids.get(id(s))
        if log_id is None:
            log_id = ids[id(s)] = len(table)
            table[log_id] = parts
        exprs = [p for p in s.parts if not isinstance(p, str)]
        args = ", ".join(c.py(p) if kind in RAW_KINDS or kind in SCALAR_KINDS
                         else f"_fsnap({c.py(p)})"
                         for p, kind in zip(exprs, s.kinds or ["any"] * len(exprs), strict=True))
        return log_id, args

    def _reason(self, s: n.Log) -> str:
        """The code of a pack's reason, read-only: ``[text id, [field values]]``."""
        log_id, args = self._log_text(s, self.c.program.reasons)
        return f"_FL([{log_id}, _FL([{args}])])"

    def candidates(self, choice: n.Choice) -> str:
        """The code of a new list of the candidates ``choice`` keeps."""
        c = self.c
        source = c.walked(choice.source)
        if choice.where is not None:
            with c.binding(choice.slot) as var:
                return f"[{var} for {var} in {source} if {c.py(choice.where)}]"
        if source.startswith(("list(", "[")) and source.endswith((")", "]")):
            return source  # already a new list
        return f"list({source})"

    def choice_spec(self, choice: n.Choice, slot: int) -> SpecMaker:
        """The spec maker of ``choice``, whose answer goes into local ``slot``."""
        c = self.c
        made: SpecMaker | None = c.makers.get((id(choice), slot, c.fast))
        if made is not None:
            return made
        source = c.walked(choice.source)
        items = self.candidates(choice)
        body = [f"items = {items}",
                f"spec = {{'player': {c.py(choice.player)}, 'kind': {choice.kind!r}, "
                f"'prompt': {self._prompt(choice)}, 'items': items, 'slot': {slot}}}",
                *self._text_lines(choice, source), *self._rule_lines(choice), "return spec"]
        maker: SpecMaker = c.function(body, self.where(choice.pos))
        c.makers[id(choice), slot, c.fast] = maker
        return maker

    def _prompt(self, choice: n.Choice) -> str:
        """The code of a choice's prompt."""
        if choice.prompt is None:
            return repr("Choose one" if choice.kind == "one" else "Choose any number")
        return self.said(choice.prompt)

    def said(self, text: n.Log) -> str:
        """The code of a text for players (a prompt, a win's): itself, or its fields filled in."""
        if all(isinstance(part, str) for part in text.parts):
            return repr("".join(str(part) for part in text.parts))
        return f"rt.program.say(*{self._reason(text)})"

    def _text_lines(self, choice: n.Choice, source: str) -> list[str]:
        """Lines adding texts for people to a spec, in a logged game (fast: no step counted)."""
        c = self.c
        lines = []
        with c.fast_code():
            if any(reason for _, reason in choice.wheres):
                lines.append(f"if rt.logging: spec['refused'] = {self._refused(choice, source)}")
            if choice.label is not None:
                with c.binding(choice.slot) as var:
                    labels = f"_FL([{self._reason(choice.label)} for {var} in items])"
                lines.append(f"if rt.logging: spec['labels'] = {labels}")
        return lines

    def _rule_lines(self, choice: n.Choice) -> list[str]:
        """The lines that add a choice's constraints, and their reasons, to its spec."""
        lines = [f"spec['{bound}_why'] = {self._reason(choice.reasons[bound])}"
                 for bound in ("min", "max") if bound in choice.reasons]
        if choice.always_ask:  # its options may tell a secret: asked even if forced
            lines.append("spec['ask'] = True")
        if choice.kind == "one":
            return [*lines, f"spec['optional'] = {choice.optional!r}"]
        return lines + self._subset_lines(choice)

    def bounds(self, choice: n.Choice, items: str) -> tuple[str, str]:
        """The code of a subset's least and most items, ``items`` naming its candidates."""
        c = self.c
        return (c.py(choice.min) if choice.min is not None else "0",
                c.py(choice.max) if choice.max is not None else f"len({items})")

    def flags(self, choice: n.Choice, rule: n.AtMost, items: str) -> str:
        """The code of a list of 1 for each candidate an ``at most`` rule counts, else 0."""
        with self.c.binding(choice.slot) as var:
            return f"[1 if {self.c.py(rule.condition)} else 0 for {var} in {items}]"

    def _subset_lines(self, choice: n.Choice) -> list[str]:
        """A subset's constraints: its bounds and its ``at most`` rules."""
        least, most = self.bounds(choice, "items")
        body = [f"spec['min'] = {least}", f"spec['max'] = {most}", "rules = []"]
        with_reasons = any(rule.reason for rule in choice.at_most)
        for rule in choice.at_most:
            body += [f"flags = {self.flags(choice, rule, 'items')}",
                     f"if 1 in flags: rules.append([{self.c.py(rule.limit)}, flags])"]
            if with_reasons:
                why = self._reason(rule.reason) if rule.reason else "None"
                body.append(f"if 1 in flags: spec.setdefault('at_most_why', []).append({why})")
        return [*body, "spec['at_most'] = rules"]

    def _refused(self, choice: n.Choice, source: str) -> str:
        """The code of the candidates ``choice`` refuses, with reasons, read-only."""
        c = self.c
        with c.binding(choice.slot) as var:
            lines = ["refused = []", f"for {var} in {source}:"]
            for cond, reason in choice.wheres:
                lines.append(f"    if not ({c.py(cond)}):")
                if reason is not None:
                    lines.append(f"        refused.append(_FL([{var}, {self._reason(reason)}]))")
                lines.append("        continue")
        refuser = c.function([*lines, "return _FL(refused)"], self.where(choice.pos))
        return f"{c.constant(refuser)}(rt, L)"


def _group(ops: list[_Op], starts: set[int]
           ) -> tuple[list[list[_Op]], dict[int, int], dict[int, int]]:
    """Group ops into blocks: the blocks, and the block of each label and op."""
    groups: list[list[_Op]] = []
    current: list[_Op] = []
    label_block: dict[int, int] = {}
    op_group: dict[int, int] = {}
    for index, op in enumerate(ops):
        # A block ends before a start or a label, and after a jump or a return.
        if current and (index in starts or op.kind == "label"
                        or current[-1].kind in ("jump", "terminal")):
            groups.append(current)
            current = []
        op_group[index] = len(groups)
        if op.kind == "label":
            label_block[op.label] = len(groups)
        else:
            current.append(op)
    if current:
        groups.append(current)
    return groups, label_block, op_group


def _moved_in_place(s: n.Move | n.Draw, src: str, dst: str, what: str | None) -> list[str]:
    """A move or a draw done in place, as ``engine/helpers`` would do it."""
    if isinstance(s, n.Draw):
        return [f"_s = Z[{src}]; _n = min({what}, len(_s))",
                f"if _n > 0: _t = _s[:-_n - 1:-1]; del _s[-_n:]; Z[{dst}].extend(_t)"]
    if what is None:  # each card moved is counted
        onto = "_d[:0] = _s" if s.to_bottom else "_d += _s"
        return [f"_s = Z[{src}]; rt.ticks -= len(_s)", TICK[1],
                f"_d = Z[{dst}]", f"if _s is not _d: {onto}; _s.clear()"]
    helper = f"_move(_s, Z[{dst}], _c, {s.to_bottom!r}, _k)"
    if s.to_bottom:
        return [f"_k = {src}; _s = Z[_k]; _c = {what}", helper]
    return [f"_k = {src}; _s = Z[_k]; _c = {what}",
            f"if _c.__class__ is str and _c in _s: _s.remove(_c); Z[{dst}].append(_c)",
            f"else: {helper}"]


def _resume_ops(ops: list[_Op]) -> dict[int, int]:
    """Where each choice, by its op's index, is asked again after an anytime action."""
    resume: dict[int, int] = {}
    for index, op in enumerate(ops):
        if op.role != "ask":
            continue
        at = index - 2  # before the choice's own label
        while at >= 0 and ops[at].role in ("test", "fixed"):  # a label (a join) stops it
            if ops[at].role == "test":
                resume[index] = at
            at -= 1
    return resume


def _straight(s: n.Assign) -> bool:
    """Whether an assignment only sets a local: ``x = ...``, not ``x += ...`` or a variable."""
    return s.ref[0] == "local" and s.op == "="


def _operation(s: n.Assign, left: str, right: str) -> str:
    """``left += right`` or ``-=``, within the size limits; a list's size counted."""
    done = f"{SIZED_OPS[s.op[0]]}({left}, {right})"
    return f"_each(rt, {done})" if s.walks else done
