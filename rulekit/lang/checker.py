"""Static checks of effect-language code: names, arities, types, places where statements may stand.

The checker walks a syntax tree against the pack's :class:`~rulekit.model.symbols.Symbols`,
allocates a local slot for every ``let``, loop and parameter, fills the ``ref`` of names, and
collects every mistake as a located :class:`~rulekit.errors.EffectCheckError` with a hint.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from rulekit.errors import EffectCheckError, did_you_mean
from rulekit.lang import nodes as n
from rulekit.lang.builtins import BUILTINS, PACK_BUILTINS
from rulekit.lang.parser import KEYWORDS
from rulekit.lang.reasons import seen_whole
from rulekit.model.symbols import Symbols, describe_per, index_type
from rulekit.source.snippet import Snippet

# What a resolved name refers to (stored in ``Name.ref`` / ``Assign.ref``):
#   ("local", slot)            a let, parameter or loop variable
#   ("var", name, per_role)    a pack variable
#   ("zone", name, per_role)   a pack zone
#   ("const", value)           a role, a parameter or a constant
#   ("builtin", name)          a value the runtime provides (round, phase, winner, finished)

RUNTIME_NAMES = {"round": "int", "phase": "text"}
EXPECT_NAMES = {"winner": "role", "finished": "bool"}


@dataclass
class _Scope:
    names: dict[str, tuple[int, str]] = field(default_factory=dict)
    parent: _Scope | None = None

    def lookup(self, name: str) -> tuple[int, str] | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def all_names(self) -> list[str]:
        found: list[str] = []
        scope: _Scope | None = self
        while scope is not None:
            found.extend(scope.names)
            scope = scope.parent
        return found


class Checker:
    """Checks one body (a procedure, a phase, a function, an expression) at a time."""

    def __init__(self, symbols: Symbols, snippet: Snippet, *, context: str = "proc") -> None:
        self.symbols = symbols
        self.snippet = snippet
        self.context = context  # proc | function | expr | expect
        self.errors: list[EffectCheckError] = []
        self.nslots = 0
        self.scope = _Scope()
        self.loop_depth = 0
        self.props = {kind: symbols.properties(kind)
                      for kind in ("card", "node", "edge", "region")}

    # ------------------------------------------------------------ entry points

    def declare_params(self, params: Iterable[tuple[str, str]]) -> None:
        for name, kind in params:
            self._declare(name, kind, None)

    def check_body(self, body: list[n.Stmt]) -> int:
        """Check statements; return the number of local slots they need."""
        self._block(body, new_scope=False)
        return self.nslots

    def check_expr(self, expr: n.Expr, expected: str | None = None) -> str:
        kind = self._expr(expr)
        if expected is not None:
            self._expect(expr, kind, expected)
        return kind

    # ------------------------------------------------------------ helpers

    def error(self, pos: n.Pos, message: str, hint: str | None = None) -> None:
        self.errors.append(EffectCheckError(message, self.snippet.location(pos), hint))

    def _declare(self, name: str, kind: str, pos: n.Pos | None) -> int:
        if pos is not None and name in KEYWORDS:
            self.error(pos, f"'{name}' is a word of the language and cannot name a variable",
                       "choose another name")
        elif pos is not None and name in RUNTIME_NAMES:
            self.error(pos, f"'{name}' is the name of a value the game provides",
                       "choose another name")
        if pos is not None and self._is_global(name):
            self.error(pos, f"'{name}' is already the name of a {self._global_kind(name)}",
                       "choose another name for the local variable")
        if pos is not None and name in self.scope.names:
            self.error(pos, f"'{name}' is already defined in this block",
                       "assign it with '=' instead of 'let'")
        slot = self.nslots
        self.nslots += 1
        self.scope.names[name] = (slot, kind)
        return slot

    def _is_global(self, name: str) -> bool:
        s = self.symbols
        return (name in s.variables or name in s.zones or name in s.roles
                or name in s.parameters)

    def _global_kind(self, name: str) -> str:
        s = self.symbols
        if name in s.variables:
            return "variable"
        if name in s.zones:
            return "zone"
        if name in s.roles:
            return "role"
        return "parameter"

    def _push(self) -> None:
        self.scope = _Scope(parent=self.scope)

    def _pop(self) -> None:
        assert self.scope.parent is not None
        self.scope = self.scope.parent

    def _expect(self, node: n.Expr, got: str, want: str) -> None:
        if not _compatible(got, want):
            self.error(node.pos, f"expected {_describe(want)}, got {_describe(got)}")

    def _known_names(self) -> list[str]:
        s = self.symbols
        names = [*self.scope.all_names(), *s.variables, *s.zones, *s.roles, *s.parameters,
                 *RUNTIME_NAMES]
        if self.context == "expect":
            names += list(EXPECT_NAMES)
        return names

    # ------------------------------------------------------------ statements

    def _block(self, body: list[n.Stmt], new_scope: bool = True) -> None:
        if new_scope:
            self._push()
        terminated = False
        for stmt in body:
            if terminated:
                self.error(stmt.pos, "unreachable statement",
                           "nothing after win, end_round, return, break or continue runs")
                terminated = False
            self._stmt(stmt)
            if isinstance(stmt, (n.Win, n.EndRound, n.Return, n.Break, n.Continue)):
                terminated = True
        if new_scope:
            self._pop()

    def _stmt(self, stmt: n.Stmt) -> None:
        method = getattr(self, "_stmt_" + type(stmt).__name__.lower())
        method(stmt)

    def _stmt_let(self, stmt: n.Let) -> None:
        kind = self._value(stmt.value)
        stmt.slot = self._declare(stmt.name, kind, stmt.pos)

    def _value(self, value: n.Expr) -> str:
        if isinstance(value, n.Choice):
            if self.context != "proc":
                self.error(value.pos, "a choice can only stand in a procedure, setup or phase")
            return self._choice(value)
        return self._expr(value)

    def _stmt_assign(self, stmt: n.Assign) -> None:
        kind = self._value(stmt.value)
        local = self.scope.lookup(stmt.name)
        if local is not None:
            if stmt.index is not None:
                self.error(stmt.pos, f"local variable '{stmt.name}' cannot be indexed")
            stmt.ref = ("local", local[0])
            if stmt.op == "-=" or (stmt.op == "+=" and not local[1].startswith("list")):
                self._expect(stmt.value, kind, "int")
            return
        var = self.symbols.variables.get(stmt.name)
        if var is None:
            if stmt.name in self.symbols.zones:
                self.error(stmt.pos, f"'{stmt.name}' is a zone; use move or draw to change it")
            elif stmt.name in self.symbols.parameters:
                self.error(stmt.pos, f"parameter '{stmt.name}' is read-only")
            else:
                hint = did_you_mean(stmt.name, [*self.scope.all_names(), *self.symbols.variables])
                self.error(stmt.pos, f"unknown variable '{stmt.name}'",
                           hint or "declare it with 'let' or in the pack's variables")
            return
        if var.per and stmt.index is None:
            self.error(stmt.pos, f"variable '{stmt.name}' has one value per "
                       f"{describe_per(var.per)}", f"write {stmt.name}[{_index_word(var.per)}]")
        elif not var.per and stmt.index is not None:
            self.error(stmt.pos, f"variable '{stmt.name}' has a single value, not one per item")
        if stmt.index is not None and var.per:
            self.check_expr(stmt.index, index_type(var.per))
        stmt.ref = ("var", stmt.name, bool(var.per))
        if stmt.op == "+=" and var.type == "list":
            self._expect(stmt.value, kind, "list")
        elif stmt.op != "=":
            self._expect(stmt.value, kind, "int")
            if var.type != "int":
                self.error(stmt.pos, f"'{stmt.op}' needs an integer variable")
        elif var.type not in ("any", "list") and kind != "none":
            self._expect(stmt.value, kind, var.type)

    def _stmt_if(self, stmt: n.If) -> None:
        for cond, body in stmt.branches:
            self.check_expr(cond, "bool")
            self._block(body)
        if stmt.otherwise is not None:
            self._block(stmt.otherwise)

    def _stmt_for(self, stmt: n.For) -> None:
        kind = self.check_expr(stmt.iterable, "list")
        self._push()
        stmt.iter_slot = self.nslots
        self.nslots += 1
        stmt.slot = self._declare(stmt.var, _element_type(kind), stmt.pos)
        self.loop_depth += 1
        self._block(stmt.body, new_scope=False)
        self.loop_depth -= 1
        self._pop()

    def _stmt_while(self, stmt: n.While) -> None:
        self.check_expr(stmt.condition, "bool")
        self.loop_depth += 1
        self._block(stmt.body)
        self.loop_depth -= 1

    def _stmt_repeat(self, stmt: n.Repeat) -> None:
        self.check_expr(stmt.count, "int")
        stmt.iter_slot = self.nslots
        self.nslots += 1
        self.loop_depth += 1
        self._block(stmt.body)
        self.loop_depth -= 1

    def _zone(self, expr: n.Expr) -> None:
        """Check that ``expr`` names a zone (``deck`` or ``hand[p]``)."""
        base = expr.obj if isinstance(expr, n.Index) else expr
        if not isinstance(base, n.Name) or base.ident not in self.symbols.zones:
            ident = base.ident if isinstance(base, n.Name) else None
            hint = did_you_mean(ident, self.symbols.zones) if ident else None
            if ident is not None and self.scope.lookup(ident) is None and not self._is_global(
                ident
            ):
                zones = ", ".join(sorted(self.symbols.zones))
                self.error(expr.pos, f"unknown zone '{ident}'",
                           hint or (f"zones: {zones}" if zones else "the pack declares no zones"))
            else:
                self.error(expr.pos, "expected a zone", hint)
            return
        self._expr(expr)

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
        proc = self.symbols.procedures.get(stmt.proc)
        if proc is None:
            if stmt.proc in BUILTINS or stmt.proc in self.symbols.functions:
                self.error(stmt.pos, f"'{stmt.proc}' is a function; its value would be lost",
                           "use it in an expression, e.g. let x = ...")
            else:
                self.error(stmt.pos, f"unknown procedure '{stmt.proc}'",
                           did_you_mean(stmt.proc, self.symbols.procedures))
            for arg in stmt.args:
                self._expr(arg)
            return
        self._args(stmt.pos, stmt.proc, proc.params, stmt.args)
        stmt.ref = stmt.proc

    def _args(self, pos: n.Pos, name: str, params: list[tuple[str, str]],
              args: list[n.Expr]) -> None:
        if len(args) != len(params):
            self.error(pos, f"'{name}' takes {len(params)} argument(s), got {len(args)}",
                       f"{name}({', '.join(p for p, _ in params)})")
        for arg, (_, kind) in zip(args, params, strict=False):
            self.check_expr(arg, kind)

    def _stmt_simultaneous(self, stmt: n.Simultaneous) -> None:
        if self.context != "proc":
            self.error(stmt.pos, "a choice can only stand in a procedure, setup or phase")
        players: dict[str, n.Pos] = {}
        for binding in stmt.bindings:
            self._stmt_let(binding)
            choice = binding.value
            if isinstance(choice, n.Choice) and isinstance(choice.player, n.Name) and \
                    choice.player.ident in self.symbols.roles:
                if choice.player.ident in players:
                    self.error(choice.pos, f"{choice.player.ident} already chooses in this "
                               "simultaneous block", "give each player one choice")
                players[choice.player.ident] = choice.pos

    def _stmt_win(self, stmt: n.Win) -> None:
        self.check_expr(stmt.winner, "role")

    def _stmt_log(self, stmt: n.Log) -> None:
        stmt.kinds = [self._expr(part) for part in stmt.parts if isinstance(part, n.Expr)]
        if stmt.to is not None:
            self.check_expr(stmt.to, "role")

    def _stmt_break(self, stmt: n.Break) -> None:
        if self.loop_depth == 0:
            self.error(stmt.pos, "'break' outside a loop")

    def _stmt_continue(self, stmt: n.Continue) -> None:
        if self.loop_depth == 0:
            self.error(stmt.pos, "'continue' outside a loop")

    def _stmt_return(self, stmt: n.Return) -> None:
        pass

    def _stmt_endround(self, stmt: n.EndRound) -> None:
        pass

    def _stmt_pass(self, stmt: n.Pass) -> None:
        pass

    # ------------------------------------------------------------ choices

    def _choice(self, choice: n.Choice) -> str:
        self.check_expr(choice.player, "role")
        source = self.check_expr(choice.source, "list")
        item = _element_type(source)
        self._push()
        choice.slot = self._declare(choice.var, item, None)
        if choice.where is not None:
            self.check_expr(choice.where, "bool")
        for _, reason in choice.wheres:  # said of one refused candidate, named as in 'where'
            if reason is not None:
                self._stmt_log(reason)
                if not seen_whole([choice.source], choice.player, self.symbols):
                    self.error(reason.pos, "a reason on 'where' names the candidate it refuses, "
                               "and the chooser may not see every candidate of this list",
                               "choose from a public list or the chooser's own pile, or give "
                               "no reason")
                else:
                    self._reason_seen(reason, choice)
        if choice.label is not None:  # said of each candidate, to the chooser only
            self._stmt_log(choice.label)
            self._reason_seen(choice.label, choice, label=True)
        for rule in choice.at_most:
            if choice.kind != "subset":
                self.error(rule.pos, "'at most' applies to subset choices only")
            self.check_expr(rule.limit, "int")
            self.check_expr(rule.condition, "bool")
        self._pop()
        # The reasons of the rules on the whole answer see no candidate.
        for reason in [*(r.reason for r in choice.at_most),
                       choice.reasons.get("min"), choice.reasons.get("max")]:
            if reason is not None:
                self._stmt_log(reason)
                self._reason_seen(reason, choice)
        for bound in (choice.min, choice.max):
            if bound is not None:
                if choice.kind != "subset":
                    self.error(bound.pos, "'min' and 'max' apply to subset choices only")
                self.check_expr(bound, "int")
        if choice.optional and choice.kind == "subset":
            self.error(choice.pos, "a subset choice is optional when its min is 0 (the default)",
                       "remove 'optional'")
        return source if choice.kind == "subset" else item

    def _reason_seen(self, reason: n.Log, choice: n.Choice, label: bool = False) -> None:
        """A reason or a label tells its chooser only what they see (see lang/reasons)."""
        what = "a label" if label else "a reason"
        for part in reason.parts:
            if isinstance(part, n.Expr) and not seen_whole([part], choice.player, self.symbols,
                                                           choice.slot, label):
                self.error(part.pos, f"{what} is told to the chooser, who may not see this",
                           "say it with public data, the chooser's own piles and the "
                           "candidate ('it')")

    # ------------------------------------------------------------ expressions

    def _expr(self, expr: n.Expr) -> str:
        method = getattr(self, "_expr_" + type(expr).__name__.lower())
        kind: str = method(expr)
        return kind

    def _expr_literal(self, expr: n.Literal) -> str:
        v = expr.value
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int):
            return "int"
        return "text"

    def _expr_cardlit(self, expr: n.CardLit) -> str:
        kind = self.symbols.kind_of(expr.card_id)
        if kind is None:
            self.error(expr.pos, f"unknown card, node, edge or region '@{expr.card_id}'",
                       did_you_mean(expr.card_id, self.symbols.components()))
            return "any"
        return kind

    def _expr_name(self, expr: n.Name) -> str:
        name = expr.ident
        local = self.scope.lookup(name)
        s = self.symbols
        if local is not None:
            expr.ref = ("local", local[0])
            return local[1]
        if name in s.variables:
            var = s.variables[name]
            expr.ref = ("var", name, bool(var.per))
            if var.per:
                self.error(expr.pos, f"variable '{name}' has one value per "
                           f"{describe_per(var.per)}", f"write {name}[{_index_word(var.per)}]")
            return var.type
        if name in s.zones:
            zone = s.zones[name]
            expr.ref = ("zone", name, bool(zone.per))
            if zone.per:
                self.error(expr.pos, f"zone '{name}' has one pile per {describe_per(zone.per)}",
                           f"write {name}[{_index_word(zone.per)}]")
            return "list:card"
        if name in s.roles:
            expr.ref = ("const", name)
            return "role"
        if name in s.parameters:
            expr.ref = ("const", s.parameters[name])
            return "int"
        if name in RUNTIME_NAMES:
            expr.ref = ("builtin", name)
            return RUNTIME_NAMES[name]
        if self.context == "expect" and name in EXPECT_NAMES:
            expr.ref = ("builtin", name)
            return EXPECT_NAMES[name]
        hint = did_you_mean(name, self._known_names())
        if name in s.procedures:
            self.error(expr.pos, f"'{name}' is a procedure, not a value")
        elif name in KEYWORDS:
            # Where the grammar expects no keyword, one is read as a name: most often the
            # expression before it was left unfinished (a trailing operator, a line cut short).
            self.error(expr.pos, f"'{name}' is a word of the language, read here as a value",
                       "is the expression before it unfinished?")
        else:
            self.error(expr.pos, f"unknown name '{name}'", hint)
        return "any"

    def _expr_listlit(self, expr: n.ListLit) -> str:
        kinds = {self._expr(item) for item in expr.items}
        if len(kinds) == 1:
            return "list:" + kinds.pop()
        return "list"

    def _expr_comprehension(self, expr: n.Comprehension) -> str:
        source = self.check_expr(expr.iterable, "list")
        self._push()
        expr.slot = self._declare(expr.var, _element_type(source), expr.pos)
        if expr.condition is not None:
            self.check_expr(expr.condition, "bool")
        kind = self._expr(expr.element)
        self._pop()
        return "list:" + kind

    def _expr_attr(self, expr: n.Attr) -> str:
        kind = self._expr(expr.obj)
        expr.obj_kind = kind
        kinds = [k for k in ("card", "node", "edge", "region") if k == kind]
        if kind == "any":
            kinds = ["card", "node", "edge", "region"]
        if not kinds:
            self.error(expr.pos, f"'.{expr.attr}' needs a card, node, edge or region, got "
                       f"{_describe(kind)}")
            return "any"
        found = [self.props[k][expr.attr] for k in kinds if expr.attr in self.props[k]]
        if not found:
            names = [p for k in kinds for p in self.props[k]]
            what = f"{kinds[0]}" if len(kinds) == 1 else "card, node, edge or region"
            self.error(expr.pos, f"no {what} has the property '{expr.attr}'",
                       did_you_mean(expr.attr, names))
            return "any"
        return found[0] if len(set(found)) == 1 else "any"

    def _expr_index(self, expr: n.Index) -> str:
        obj = expr.obj
        if isinstance(obj, n.Name) and self.scope.lookup(obj.ident) is None:
            s = self.symbols
            if obj.ident in s.zones:
                zone = s.zones[obj.ident]
                obj.ref = ("zone", obj.ident, bool(zone.per))
                if not zone.per:
                    self.error(expr.pos, f"zone '{obj.ident}' is a single pile; it takes no index")
                self.check_expr(expr.index, index_type(zone.per) if zone.per else "any")
                return "list:card"
            if obj.ident in s.variables:
                var = s.variables[obj.ident]
                obj.ref = ("var", obj.ident, bool(var.per))
                if not var.per:
                    self.error(expr.pos, f"variable '{obj.ident}' has a single value; it takes "
                               "no index")
                self.check_expr(expr.index, index_type(var.per) if var.per else "any")
                return var.type
        kind = self.check_expr(obj, "list")
        self.check_expr(expr.index, "int")
        return _element_type(kind)

    def _expr_call(self, expr: n.Call) -> str:
        args = expr.args
        func = self.symbols.functions.get(expr.func)
        if func is not None:
            self._args(expr.pos, expr.func, func.params, args)
            expr.ref = ("func", expr.func)
            return func.result
        if expr.func in PACK_BUILTINS:
            params, result, _ = PACK_BUILTINS[expr.func]
            self._args(expr.pos, expr.func, [(t, t) for t in params], args)
            expr.ref = ("pack_builtin", expr.func)
            return result
        builtin = BUILTINS.get(expr.func)
        if builtin is None:
            if expr.func in self.symbols.procedures:
                self.error(expr.pos, f"'{expr.func}' is a procedure; it has no value",
                           "call it as a statement on its own line")
            else:
                names = [*BUILTINS, *PACK_BUILTINS, *self.symbols.functions]
                self.error(expr.pos, f"unknown function '{expr.func}'",
                           did_you_mean(expr.func, names))
            for arg in args:
                self._expr(arg)
            return "any"
        expr.ref = ("builtin", expr.func)
        kinds = [self._expr(a) for a in args]
        if builtin.variadic:
            if not args:
                self.error(expr.pos, f"'{expr.func}' needs at least one argument")
            elif len(args) > 1:
                for arg, kind in zip(args, kinds, strict=True):
                    self._expect(arg, kind, "int")
            else:
                self._expect(args[0], kinds[0], "list")
        elif len(args) != len(builtin.params):
            self.error(expr.pos, f"'{expr.func}' takes {len(builtin.params)} argument(s), "
                       f"got {len(args)}", f"{expr.func}({', '.join(builtin.params)})")
        else:
            for arg, kind, want in zip(args, kinds, builtin.params, strict=True):
                self._expect(arg, kind, want)
        return builtin.result_type(kinds)

    def _expr_unary(self, expr: n.Unary) -> str:
        if expr.op == "not":
            self.check_expr(expr.operand, "bool")
            return "bool"
        self.check_expr(expr.operand, "int")
        return "int"

    def _expr_binary(self, expr: n.Binary) -> str:
        op = expr.op
        left = self._expr(expr.left)
        right = self._expr(expr.right)
        if op in ("and", "or"):
            self._expect(expr.left, left, "bool")
            self._expect(expr.right, right, "bool")
            return "bool"
        if op in ("==", "!="):
            if not (_compatible(left, right) or _compatible(right, left)
                    or "none" in (left, right)):
                self.error(expr.pos, f"comparing {_describe(left)} with {_describe(right)} "
                           "is always " + ("false" if op == "==" else "true"))
            return "bool"
        if op in ("in", "not in"):
            self._expect(expr.right, right, "list")
            return "bool"
        if op in ("<", "<=", ">", ">="):
            self._expect(expr.left, left, "int")
            self._expect(expr.right, right, "int")
            return "bool"
        if op == "+" and (left.startswith("list") or right.startswith("list")) and \
                {left.split(":")[0], right.split(":")[0]} <= {"list", "any"}:
            return left if left == right else "list"
        if op == "+" and left == "text" and right == "text":
            return "text"
        self._expect(expr.left, left, "int")
        self._expect(expr.right, right, "int")
        return "int"

    def _expr_choice(self, expr: n.Choice) -> str:
        self.error(expr.pos, "a choice can only be the value of a let or an assignment")
        return "any"


def _index_word(per: str | int) -> str:
    return "N" if isinstance(per, int) else per.upper()


def _element_type(kind: str) -> str:
    return kind.split(":", 1)[1] if kind.startswith("list:") else "any"


def _compatible(got: str, want: str) -> bool:
    if got == "any" or want == "any" or got == want:
        return True
    if want == "list":
        return got.startswith("list")
    if got == "list" and want.startswith("list"):
        return True
    if got.startswith("list:") and want.startswith("list:"):
        return _compatible(_element_type(got), _element_type(want))
    return got == "none" and want in ("card", "role", "text", "node", "edge", "region")


def _describe(kind: str) -> str:
    if kind.startswith("list:"):
        return f"a list of {_element_type(kind)}s"
    return {
        "int": "an integer", "bool": "true or false", "text": "a text", "role": "a role",
        "card": "a card", "list": "a list", "none": "none", "any": "a value",
        "node": "a node", "edge": "an edge", "region": "a region",
    }.get(kind, kind)
