"""Static checks of effect-language code: names, arities, types, where statements may stand."""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Iterable

from rulekit.errors import EffectCheckError, did_you_mean
from rulekit.lang import nodes as n
from rulekit.lang.builtins import BUILTINS, PACK_BUILTINS, Builtin, element_type
from rulekit.lang.parser import KEYWORDS
from rulekit.lang.reasons import seen_whole
from rulekit.model.symbols import Symbols, VarDecl, describe_per, index_type, value_type
from rulekit.source.snippet import Snippet

RUNTIME_NAMES = {"round": "int", "phase": "text"}
EXPECT_NAMES = {"winner": "role", "finished": "bool"}
COMPONENTS = ("card", "node", "edge", "region")
_TERMINAL = (n.Win, n.EndRound, n.Return, n.Break, n.Continue)  # nothing runs after these


class Checker:
    """Checks one body at a time: a procedure, a phase, a function, an expression."""

    def __init__(self, symbols: Symbols, snippet: Snippet, *, context: str = "proc",
                 base_of: Callable[[n.Pos], str | None] | None = None) -> None:
        self.symbols = symbols
        self.snippet = snippet
        self.context = context  # proc | function | expr | expect
        # The values the game provides, by name, with their types.
        self.provided = {**RUNTIME_NAMES, **EXPECT_NAMES} if context == "expect" else RUNTIME_NAMES
        self.base_of = base_of  # the procedure ``base(...)`` runs at a place; None: nothing
        self.errors: list[EffectCheckError] = []
        self.nslots = 0
        # The slot and type of each local name, one map per block (the innermost first).
        self.scope: ChainMap[str, tuple[int, str]] = ChainMap()
        self.loop_depth = 0
        self.props = {kind: symbols.properties(kind) for kind in COMPONENTS}

    # ------------------------------------------------------------ entry points

    def declare_params(self, params: Iterable[tuple[str, str]]) -> None:
        """Give a slot to each parameter of the body, in order."""
        for name, kind in params:
            self._declare(name, kind, None)

    def check_body(self, body: list[n.Stmt]) -> int:
        """Check statements; return the number of local slots they need."""
        self._block(body, new_scope=False)
        return self.nslots

    def check_expr(self, expr: n.Expr, expected: str | None = None) -> str:
        """Check an expression, of type ``expected`` if given; return its type."""
        kind = self._expr(expr)
        if expected is not None:
            self._expect(expr, kind, expected)
        return kind

    # ------------------------------------------------------------ helpers

    def error(self, pos: n.Pos, message: str, hint: str | None = None) -> None:
        """Record a mistake at ``pos``."""
        self.errors.append(EffectCheckError(message, self.snippet.location(pos), hint))

    def _declare(self, name: str, kind: str, pos: n.Pos | None) -> int:
        """Give a slot to a new local name, written at ``pos``."""
        if pos is not None:
            self._check_new_name(name, pos)
        slot = self._new_slot()
        self.scope[name] = (slot, kind)
        return slot

    def _new_slot(self) -> int:
        self.nslots += 1
        return self.nslots - 1

    def _check_new_name(self, name: str, pos: n.Pos) -> None:
        """Refuse a local name that is a keyword or is already taken."""
        if name in KEYWORDS:
            self.error(pos, f"'{name}' is a word of the language and cannot name a variable",
                       "choose another name")
        elif name in RUNTIME_NAMES:
            self.error(pos, f"'{name}' is the name of a value the game provides",
                       "choose another name")
        taken = self._global_kind(name)
        if taken is not None:
            self.error(pos, f"'{name}' is already the name of a {taken}",
                       "choose another name for the local variable")
        if name in self.scope.maps[0]:
            self.error(pos, f"'{name}' is already defined in this block",
                       "assign it with '=' instead of 'let'")

    def _global_kind(self, name: str) -> str | None:
        """What a name of the pack names (``variable``, ``zone``...), if it names one."""
        s = self.symbols
        for kind, names in (("variable", s.variables), ("zone", s.zones), ("role", s.roles),
                            ("parameter", s.parameters)):
            if name in names:
                return kind
        return None

    def _expect(self, node: n.Expr, got: str, want: str) -> None:
        if not _compatible(got, want):
            self.error(node.pos, f"expected {_describe(want)}, got {_describe(got)}")

    def _needs_index(self, pos: n.Pos, what: str, name: str, per: str | int) -> None:
        """Report a zone or variable with ``per`` named without its index."""
        index = "N" if isinstance(per, int) else per.upper()
        self.error(pos, f"{what} per {describe_per(per)}", f"write {name}[{index}]")

    def _known_names(self) -> list[str]:
        s = self.symbols
        return [*self.scope, *s.variables, *s.zones, *s.roles, *s.parameters, *self.provided]

    # ------------------------------------------------------------ statements

    def _block(self, body: list[n.Stmt], new_scope: bool = True) -> None:
        """Check a statement list; nothing may follow a statement that leaves it."""
        if new_scope:
            self.scope = self.scope.new_child()
        terminated = False
        for stmt in body:
            if terminated:
                self.error(stmt.pos, "unreachable statement",
                           "nothing after win, end_round, return, break or continue runs")
            self._stmt(stmt)
            terminated = isinstance(stmt, _TERMINAL)
        if new_scope:
            self.scope = self.scope.parents

    def _loop_body(self, body: list[n.Stmt], new_scope: bool = True) -> None:
        self.loop_depth += 1
        self._block(body, new_scope)
        self.loop_depth -= 1

    def _stmt(self, stmt: n.Stmt) -> None:
        method = getattr(self, "_stmt_" + type(stmt).__name__.lower())
        method(stmt)

    def _stmt_let(self, stmt: n.Let) -> None:
        kind = self._value(stmt.value)
        stmt.slot = self._declare(stmt.name, kind, stmt.pos)

    def _value(self, value: n.Expr) -> str:
        """The type of the value of a ``let`` or an assignment, maybe a choice."""
        if isinstance(value, n.Choice):
            if self.context != "proc":
                self.error(value.pos, "a choice can only stand in a procedure, setup or phase")
            return self._choice(value)
        return self._expr(value)

    def _stmt_assign(self, stmt: n.Assign) -> None:
        kind = self._value(stmt.value)
        local = self.scope.get(stmt.name)
        var = self.symbols.variables.get(stmt.name)
        if local is not None:
            self._assign_local(stmt, kind, *local)
        elif var is not None:
            self._assign_variable(stmt, kind, var)
        else:
            self._assign_unknown(stmt)

    def _assign_local(self, stmt: n.Assign, kind: str, slot: int, local_kind: str) -> None:
        if stmt.index is not None:
            self.error(stmt.pos, f"local variable '{stmt.name}' cannot be indexed")
        stmt.ref = ("local", slot)
        stmt.walks = stmt.op == "+=" and local_kind.startswith("list")
        if stmt.op == "-=" or (stmt.op == "+=" and not local_kind.startswith("list")):
            self._expect(stmt.value, kind, "int")

    def _assign_variable(self, stmt: n.Assign, kind: str, var: VarDecl) -> None:
        self._assigned_index(stmt, var)
        stmt.ref = ("var", stmt.name, bool(var.per))
        if stmt.op == "+=" and var.type == "list":
            stmt.walks = True
            self._expect(stmt.value, kind, "list")
        elif stmt.op != "=":
            self._expect(stmt.value, kind, "int")
            if var.type != "int":
                self.error(stmt.pos, f"'{stmt.op}' needs an integer variable")
        elif var.type not in ("any", "list") and kind != "none":
            self._expect(stmt.value, kind, var.type)

    def _assigned_index(self, stmt: n.Assign, var: VarDecl) -> None:
        """Check that an assigned variable has an index if, and only if, it has ``per``."""
        if var.per and stmt.index is None:
            self._needs_index(stmt.pos, f"variable '{stmt.name}' has one value", stmt.name,
                              var.per)
        elif not var.per and stmt.index is not None:
            self.error(stmt.pos, f"variable '{stmt.name}' has a single value, not one per item")
        if stmt.index is not None and var.per:
            self.check_expr(stmt.index, index_type(var.per))
            self._index_in_range(stmt.name, stmt.index, var.per)

    def _assign_unknown(self, stmt: n.Assign) -> None:
        """Report an assignment of a name that is no variable."""
        if stmt.name in self.symbols.zones:
            self.error(stmt.pos, f"'{stmt.name}' is a zone; use move or draw to change it")
        elif stmt.name in self.symbols.parameters:
            self.error(stmt.pos, f"parameter '{stmt.name}' is read-only")
        else:
            hint = did_you_mean(stmt.name, [*list(self.scope), *self.symbols.variables])
            self.error(stmt.pos, f"unknown variable '{stmt.name}'",
                       hint or "declare it with 'let' or in the pack's variables")

    def _stmt_if(self, stmt: n.If) -> None:
        for cond, body in stmt.branches:
            self.check_expr(cond, "bool")
            self._block(body)
        if stmt.otherwise is not None:
            self._block(stmt.otherwise)

    def _stmt_for(self, stmt: n.For) -> None:
        kind = self.check_expr(stmt.iterable, "list")
        self.scope = self.scope.new_child()
        stmt.iter_slot = self._new_slot()
        stmt.slot = self._declare(stmt.var, element_type(kind), stmt.pos)
        self._loop_body(stmt.body, new_scope=False)
        self.scope = self.scope.parents

    def _stmt_while(self, stmt: n.While) -> None:
        self.check_expr(stmt.condition, "bool")
        self._loop_body(stmt.body)

    def _stmt_repeat(self, stmt: n.Repeat) -> None:
        self.check_expr(stmt.count, "int")
        stmt.iter_slot = self._new_slot()
        self._loop_body(stmt.body)

    def _zone(self, expr: n.Expr) -> None:
        """Check that ``expr`` names a zone (``deck`` or ``hand[p]``)."""
        base = expr.obj if isinstance(expr, n.Index) else expr
        ident = base.ident if isinstance(base, n.Name) else None
        if ident in self.symbols.zones:
            self._expr(expr)
        elif ident is None or self.scope.get(ident) is not None or self._global_kind(ident):
            self.error(expr.pos, "expected a zone",
                       did_you_mean(ident, self.symbols.zones) if ident else None)
        else:
            zones = ", ".join(sorted(self.symbols.zones))
            hint = did_you_mean(ident, self.symbols.zones) or (
                f"zones: {zones}" if zones else "the pack declares no zones")
            self.error(expr.pos, f"unknown zone '{ident}'", hint)

    def _stmt_move(self, stmt: n.Move) -> None:
        if stmt.cards is not None:
            kind = self._expr(stmt.cards)
            if not (_compatible(kind, "card") or _compatible(kind, "list:card")):
                self.error(stmt.cards.pos, f"expected a card or a list of cards, got "
                           f"{_describe(kind)}")
        self._zone(stmt.source)
        self._zone(stmt.dest)

    def _stmt_draw(self, stmt: n.Draw) -> None:
        self.check_expr(stmt.count, "int")
        self._zone(stmt.source)
        self._zone(stmt.dest)

    def _stmt_shuffle(self, stmt: n.Shuffle) -> None:
        self._zone(stmt.zone)

    def _stmt_callstmt(self, stmt: n.CallStmt) -> None:
        base = stmt.proc == "base" and "base" not in self.symbols.procedures
        if base and not self._base_call(stmt):
            for arg in stmt.args:
                self._expr(arg)
            return
        proc = self.symbols.procedures.get(stmt.proc)
        if proc is not None:
            self._args(stmt.pos, "base" if base else stmt.proc, proc.params, stmt.args)
            stmt.ref = stmt.proc
            return
        if stmt.proc in BUILTINS or stmt.proc in self.symbols.functions:
            self.error(stmt.pos, f"'{stmt.proc}' is a function; its value would be lost",
                       "use it in an expression, e.g. let x = ...")
        else:
            self.error(stmt.pos, f"unknown procedure '{stmt.proc}'",
                       did_you_mean(stmt.proc, [p for p in self.symbols.procedures
                                                if "@" not in p]))
        for arg in stmt.args:
            self._expr(arg)

    def _base_call(self, stmt: n.CallStmt) -> bool:
        """Point ``base(...)`` at what the code it stands in replaces; false if nothing."""
        target = self.base_of(stmt.pos) if self.base_of is not None else None
        if target is not None:
            stmt.proc = target
            return True
        self.error(stmt.pos, "base(...) has nothing to run here: this code replaces nothing",
                   "call base(...) in a card's effect, or in a variant's procedure that "
                   "replaces one of its base pack")
        return False

    def _args(self, pos: n.Pos, name: str, params: list[tuple[str, str]],
              args: list[n.Expr]) -> None:
        """Check the arguments of a call of a pack's procedure or function."""
        if len(args) != len(params):
            self.error(pos, f"'{name}' takes {len(params)} argument(s), got {len(args)}",
                       f"{name}({', '.join(p for p, _ in params)})")
        for arg, (_, kind) in zip(args, params, strict=False):
            self.check_expr(arg, kind)

    def _stmt_simultaneous(self, stmt: n.Simultaneous) -> None:
        if self.context != "proc":
            self.error(stmt.pos, "a choice can only stand in a procedure, setup or phase")
        players: set[str] = set()
        for binding in stmt.bindings:
            self._stmt_let(binding)
            choice = binding.value
            player = choice.player if isinstance(choice, n.Choice) else None
            if not isinstance(player, n.Name) or player.ident not in self.symbols.roles:
                continue
            if player.ident in players:
                self.error(choice.pos, f"{player.ident} already chooses in this "
                           "simultaneous block", "give each player one choice")
            players.add(player.ident)

    def _stmt_win(self, stmt: n.Win) -> None:
        self.check_expr(stmt.winner, "role")
        if stmt.reason is not None:
            self._stmt_log(stmt.reason)

    def _stmt_log(self, stmt: n.Log) -> None:
        stmt.kinds = [self._expr(part) for part in stmt.parts if isinstance(part, n.Expr)]
        if stmt.to is not None:
            self.check_expr(stmt.to, "role")

    def _stmt_break(self, stmt: n.Break | n.Continue) -> None:
        if self.loop_depth == 0:
            self.error(stmt.pos, f"'{type(stmt).__name__.lower()}' outside a loop")

    _stmt_continue = _stmt_break

    def _stmt_pass(self, stmt: n.Stmt) -> None:
        """``pass``, ``return`` and ``end_round`` need no check."""

    _stmt_return = _stmt_endround = _stmt_pass

    # ------------------------------------------------------------ choices

    def _choice(self, choice: n.Choice) -> str:
        """Check a choice; return the type of its answer."""
        self.check_expr(choice.player, "role")
        source = self.check_expr(choice.source, "list")
        item = element_type(source)
        self.scope = self.scope.new_child()
        choice.slot = self._declare(choice.var, item, None)
        self._candidate_rules(choice)
        self.scope = self.scope.parents
        self._answer_rules(choice)
        return source if choice.kind == "subset" else item

    def _candidate_rules(self, choice: n.Choice) -> None:
        """Check what is said of each candidate: ``where``, its reasons, ``label``, ``at most``."""
        if choice.where is not None:
            self.check_expr(choice.where, "bool")
        for _, reason in choice.wheres:
            if reason is not None:
                self._where_reason(reason, choice)
        if choice.label is not None:  # said of each candidate, to the chooser only
            self._told(choice.label, choice, "a label")
        for rule in choice.at_most:
            if choice.kind != "subset":
                self.error(rule.pos, "'at most' applies to subset choices only")
            self.check_expr(rule.limit, "int")
            self.check_expr(rule.condition, "bool")

    def _where_reason(self, reason: n.Log, choice: n.Choice) -> None:
        """A reason on ``where`` names the candidate, so the chooser must see it."""
        if seen_whole([choice.source], choice.player, self.symbols):
            self._told(reason, choice)
            return
        self._stmt_log(reason)
        self.error(reason.pos, "a reason on 'where' names the candidate it refuses, and the "
                   "chooser may not see every candidate of this list",
                   "choose from a public list or the chooser's own pile, or give no reason")

    def _answer_rules(self, choice: n.Choice) -> None:
        """Check the rules on the whole answer: ``min``, ``max``, their reasons, ``optional``."""
        for reason in [*(r.reason for r in choice.at_most),
                       choice.reasons.get("min"), choice.reasons.get("max")]:
            if reason is not None:  # it sees no candidate
                self._told(reason, choice)
        if choice.prompt is not None:  # asked of the chooser only
            self._told(choice.prompt, choice, "a prompt")
        for bound in (b for b in (choice.min, choice.max) if b is not None):
            if choice.kind != "subset":
                self.error(bound.pos, "'min' and 'max' apply to subset choices only")
            self.check_expr(bound, "int")
        if choice.optional and choice.kind == "subset":
            self.error(choice.pos, "a subset choice is optional when its min is 0 (the default)",
                       "remove 'optional'")

    def _told(self, text: n.Log, choice: n.Choice, what: str = "a reason") -> None:
        """Check a text told to the chooser: it may show only what they see."""
        self._stmt_log(text)
        label = what == "a label"
        local = (lambda name: bool(name.ref[1] == choice.slot)) if label else (lambda name: True)
        for part in text.parts:
            if isinstance(part, n.Expr) and not seen_whole([part], choice.player, self.symbols,
                                                           local):
                self.error(part.pos, f"{what} is told to the chooser, who may not see this",
                           "say it with public data, the chooser's own piles and the "
                           "candidate ('it')")

    # ------------------------------------------------------------ expressions

    def _expr(self, expr: n.Expr) -> str:
        method = getattr(self, "_expr_" + type(expr).__name__.lower())
        kind: str = method(expr)
        return kind

    def _expr_literal(self, expr: n.Literal) -> str:
        return "none" if expr.value is None else value_type(expr.value)

    def _expr_cardlit(self, expr: n.CardLit) -> str:
        kind = self.symbols.kind_of(expr.card_id)
        if kind is None:
            self.error(expr.pos, f"unknown card, node, edge or region '@{expr.card_id}'",
                       did_you_mean(expr.card_id, self.symbols.components()))
            return "any"
        return kind

    def _expr_name(self, expr: n.Name) -> str:
        for resolve in (self._local_name, self._pile_name, self._constant_name,
                        self._provided_name):
            kind = resolve(expr)
            if kind is not None:
                return kind
        self._unknown_name(expr)
        return "any"

    def _local_name(self, expr: n.Name) -> str | None:
        local = self.scope.get(expr.ident)
        if local is None:
            return None
        expr.ref = ("local", local[0])
        return local[1]

    def _pile_name(self, expr: n.Name) -> str | None:
        """A variable or a zone of the pack, named without an index."""
        name = expr.ident
        var, zone = self.symbols.variables.get(name), self.symbols.zones.get(name)
        decl = var or zone
        if decl is None:
            return None
        expr.ref = ("var" if var else "zone", name, bool(decl.per))
        if decl.per:
            what = f"variable '{name}' has one value" if var else f"zone '{name}' has one pile"
            self._needs_index(expr.pos, what, name, decl.per)
        return var.type if var else "list:card"

    def _constant_name(self, expr: n.Name) -> str | None:
        """A role or a parameter of the pack."""
        if expr.ident in self.symbols.roles:
            expr.ref = ("const", expr.ident)
            return "role"
        if expr.ident in self.symbols.parameters:
            expr.ref = ("const", self.symbols.parameters[expr.ident])
            return "int"
        return None

    def _provided_name(self, expr: n.Name) -> str | None:
        """A value the game provides (``round``; ``winner`` in a scenario's ``expect``)."""
        if expr.ident not in self.provided:
            return None
        expr.ref = ("builtin", expr.ident)
        return self.provided[expr.ident]

    def _unknown_name(self, expr: n.Name) -> None:
        name = expr.ident
        if name in self.symbols.procedures:
            self.error(expr.pos, f"'{name}' is a procedure, not a value")
        elif name in KEYWORDS:
            # Where the grammar expects no keyword, one is read as a name: most often the
            # expression before it was left unfinished (a trailing operator, a line cut short).
            self.error(expr.pos, f"'{name}' is a word of the language, read here as a value",
                       "is the expression before it unfinished?")
        else:
            self.error(expr.pos, f"unknown name '{name}'",
                       did_you_mean(name, self._known_names()))

    def _expr_listlit(self, expr: n.ListLit) -> str:
        kinds = {self._expr(item) for item in expr.items}
        if len(kinds) == 1:
            return "list:" + kinds.pop()
        return "list"

    def _expr_comprehension(self, expr: n.Comprehension) -> str:
        source = self.check_expr(expr.iterable, "list")
        self.scope = self.scope.new_child()
        expr.slot = self._declare(expr.var, element_type(source), expr.pos)
        if expr.condition is not None:
            self.check_expr(expr.condition, "bool")
        kind = self._expr(expr.element)
        self.scope = self.scope.parents
        return "list:" + kind

    def _expr_attr(self, expr: n.Attr) -> str:
        kind = self._expr(expr.obj)
        expr.obj_kind = kind
        kinds = list(COMPONENTS) if kind == "any" else [k for k in COMPONENTS if k == kind]
        if not kinds:
            self.error(expr.pos, f"'.{expr.attr}' needs a card, node, edge or region, got "
                       f"{_describe(kind)}")
            return "any"
        found = [self.props[k][expr.attr] for k in kinds if expr.attr in self.props[k]]
        if not found:
            self._no_property(expr, kinds)
            return "any"
        return found[0] if len(set(found)) == 1 else "any"

    def _no_property(self, expr: n.Attr, kinds: list[str]) -> None:
        names = [p for k in kinds for p in self.props[k]]
        what = kinds[0] if len(kinds) == 1 else "card, node, edge or region"
        self.error(expr.pos, f"no {what} has the property '{expr.attr}'",
                   did_you_mean(expr.attr, names))

    def _expr_index(self, expr: n.Index) -> str:
        obj = expr.obj
        if isinstance(obj, n.Name) and self.scope.get(obj.ident) is None:
            kind = self._indexed_pile(expr, obj)
            if kind is not None:
                return kind
        kind = self.check_expr(obj, "list")
        self.check_expr(expr.index, "int")
        return element_type(kind)

    def _indexed_pile(self, expr: n.Index, obj: n.Name) -> str | None:
        """The type of ``zone[i]`` or ``variable[i]``; None if ``obj`` names neither."""
        name = obj.ident
        zone, var = self.symbols.zones.get(name), self.symbols.variables.get(name)
        decl = zone or var
        if decl is None:
            return None
        obj.ref = ("zone" if zone else "var", name, bool(decl.per))
        if not decl.per:
            single = f"zone '{name}' is a single pile" if zone else \
                f"variable '{name}' has a single value"
            self.error(expr.pos, f"{single}; it takes no index")
        self.check_expr(expr.index, index_type(decl.per) if decl.per else "any")
        self._index_in_range(name, expr.index, decl.per)
        return var.type if var and not zone else "list:card"

    def _index_in_range(self, name: str, index: n.Expr, per: str | int | None) -> None:
        """An error if a written number indexes a ``per: N`` zone or variable out of 1..N."""
        sign, written = 1, index
        if isinstance(written, n.Unary) and written.op == "-":
            sign, written = -1, written.operand
        value = written.value if isinstance(written, n.Literal) else None
        if isinstance(per, int) and value.__class__ is int and not 1 <= sign * value <= per:
            value = sign * value
            self.error(index.pos, f"{name}[{value}] does not exist: '{name}' has per: {per}, "
                       f"so its indexes are 1 to {per}", f"write {name}[1] to {name}[{per}]")

    def _expr_call(self, expr: n.Call) -> str:
        func = self.symbols.functions.get(expr.func)
        if func is not None:
            self._args(expr.pos, expr.func, func.params, expr.args)
            expr.ref = ("func", expr.func)
            return func.result
        if expr.func in PACK_BUILTINS:
            params, result = PACK_BUILTINS[expr.func]
            self._args(expr.pos, expr.func, [(t, t) for t in params], expr.args)
            expr.ref = ("pack_builtin", expr.func)
            return result
        builtin = BUILTINS.get(expr.func)
        if builtin is None:
            self._unknown_call(expr)
            return "any"
        expr.ref = ("builtin", expr.func)
        kinds = [self._expr(a) for a in expr.args]
        self._builtin_args(expr, builtin, kinds)
        return builtin.result_type(kinds)

    def _unknown_call(self, expr: n.Call) -> None:
        if expr.func in self.symbols.procedures:
            self.error(expr.pos, f"'{expr.func}' is a procedure; it has no value",
                       "call it as a statement on its own line")
        else:
            names = [*BUILTINS, *PACK_BUILTINS, *self.symbols.functions]
            self.error(expr.pos, f"unknown function '{expr.func}'",
                       did_you_mean(expr.func, names))
        for arg in expr.args:
            self._expr(arg)

    def _builtin_args(self, expr: n.Call, builtin: Builtin, kinds: list[str]) -> None:
        """Check the arguments of a built-in function, whose types are ``kinds``."""
        args = expr.args
        if builtin.variadic:
            self._variadic_args(expr, kinds)
        elif len(args) != len(builtin.params):
            self.error(expr.pos, f"'{expr.func}' takes {len(builtin.params)} argument(s), "
                       f"got {len(args)}", f"{expr.func}({', '.join(builtin.params)})")
        else:
            for arg, kind, want in zip(args, kinds, builtin.params, strict=True):
                self._expect(arg, kind, want)

    def _variadic_args(self, expr: n.Call, kinds: list[str]) -> None:
        """``max(LIST)`` or ``max(A, B, ...)``."""
        args = expr.args
        if not args:
            self.error(expr.pos, f"'{expr.func}' needs at least one argument")
        elif len(args) > 1:
            for arg, kind in zip(args, kinds, strict=True):
                self._expect(arg, kind, "int")
        else:
            self._expect(args[0], kinds[0], "list")

    def _expr_unary(self, expr: n.Unary) -> str:
        kind = "bool" if expr.op == "not" else "int"
        self.check_expr(expr.operand, kind)
        return kind

    def _expr_binary(self, expr: n.Binary) -> str:
        left = self._expr(expr.left)
        right = self._expr(expr.right)
        operand = _OPERANDS.get(expr.op)
        if operand is None:
            return _OPERATORS.get(expr.op, Checker._arithmetic)(self, expr, left, right)
        self._expect(expr.left, left, operand)
        self._expect(expr.right, right, operand)
        return "bool"

    def _equality(self, expr: n.Binary, left: str, right: str) -> str:
        expr.walks = _walked(left) or _walked(right)
        if not (_compatible(left, right) or _compatible(right, left) or "none" in (left, right)):
            self.error(expr.pos, f"comparing {_describe(left)} with {_describe(right)} "
                       "is always " + ("false" if expr.op == "==" else "true"))
        return "bool"

    def _membership(self, expr: n.Binary, left: str, right: str) -> str:
        expr.walks = True
        self._expect(expr.right, right, "list")
        return "bool"

    def _arithmetic(self, expr: n.Binary, left: str, right: str) -> str:
        """``+`` of numbers, lists or texts; the other operators of numbers."""
        joined = _joined(left, right) if expr.op == "+" else None
        if joined is not None:
            expr.walks = True
            return joined
        self._expect(expr.left, left, "int")
        self._expect(expr.right, right, "int")
        return "int"

    def _expr_conditional(self, expr: n.Conditional) -> str:
        self.check_expr(expr.test, "bool")
        then, otherwise = self._expr(expr.then), self._expr(expr.otherwise)
        if "none" in (then, otherwise) or _compatible(then, otherwise) \
                or _compatible(otherwise, then):
            return otherwise if then in ("none", "any") else then
        self.error(expr.pos, f"the two values of this 'if ... else' differ: "
                   f"{_describe(then)} and {_describe(otherwise)}",
                   "give both the same type")
        return "any"

    def _expr_choice(self, expr: n.Choice) -> str:
        self.error(expr.pos, "a choice can only be the value of a let or an assignment")
        return "any"


# The type of both operands of a logical operator or a comparison of numbers.
_OPERANDS = {"and": "bool", "or": "bool", "<": "int", "<=": "int", ">": "int", ">=": "int"}

# How each other operator is checked (any other one is arithmetic).
_OPERATORS: dict[str, Callable[[Checker, n.Binary, str, str], str]] = {
    "==": Checker._equality, "!=": Checker._equality,
    "in": Checker._membership, "not in": Checker._membership,
}


def _walked(kind: str) -> bool:
    """Whether comparing a value of this type may walk a list."""
    return kind == "any" or kind.startswith("list")


def _joined(left: str, right: str) -> str | None:
    """The type of ``+`` of two lists or two texts (None for numbers)."""
    if left == right == "text":
        return "text"
    lists = left.startswith("list") or right.startswith("list")
    if lists and {left.split(":")[0], right.split(":")[0]} <= {"list", "any"}:
        return left if left == right else "list"
    return None


def _compatible(got: str, want: str) -> bool:
    """Whether a value of type ``got`` may stand where ``want`` is expected."""
    if "any" in (got, want) or got == want:
        return True
    if got.startswith("list") and want.startswith("list"):
        return "list" in (got, want) or _compatible(element_type(got), element_type(want))
    return got == "none" and want in ("card", "role", "text", "node", "edge", "region")


_DESCRIPTIONS = {
    "int": "an integer", "bool": "true or false", "text": "a text", "role": "a role",
    "card": "a card", "list": "a list", "none": "none", "any": "a value",
    "node": "a node", "edge": "an edge", "region": "a region",
}


def _describe(kind: str) -> str:
    """A type in words: ``an integer``, ``a list of cards``."""
    if kind.startswith("list:"):
        return f"a list of {element_type(kind)}s"
    return _DESCRIPTIONS.get(kind, kind)
