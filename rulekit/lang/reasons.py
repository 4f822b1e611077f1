"""Whether a choice may say why it refuses an answer without telling a secret.

A reason (``where COND else "..."``) is told to the chooser. A reason on ``where`` names the
candidate it refuses. So the chooser must see every candidate of the list, and all the reason
says. A reason may read public zones and variables, and the chooser's own piles and values
(``hand[p]`` chosen by ``p``). It may read roles, numbers, texts, the map and the candidate.

The test is syntactic and strict. A pack function or a secret pile refuses the reason, and so
does a local variable in the list. A local variable in the text of a reason is left to the
lint (:mod:`rulekit.checks.lint`), which knows what it may hold.

A label (``label "..."``) names each candidate, to the chooser only. It follows the same rule,
and reads no local variable but the candidate, since another may hold a secret. A prompt's context
(``display: context:``) follows the same rule too. What its local variables may hold is worked
out by :mod:`rulekit.lang.contexts` (given here as ``local``).
"""

from __future__ import annotations

from collections.abc import Callable

from rulekit.lang import nodes as n
from rulekit.lang.analysis import pile_counted
from rulekit.model.symbols import Symbols, VarDecl, ZoneDecl


def seen_whole(exprs: list[n.Expr], player: n.Expr, symbols: Symbols,
               candidate: int | None = None, only_candidate: bool = False,
               local: Callable[[n.Name], bool] | None = None) -> bool:
    """True if ``player`` sees the whole value of each of ``exprs``.

    Local variables count as seen only when ``candidate``, the candidate's slot, is
    given. With ``only_candidate``, no other local variable does. With
    ``local``, those it says are seen.
    """
    sight = _Sight(player, symbols, local or _locals_seen(candidate, only_candidate))
    return all(sight.seen(e) for e in exprs)


def _locals_seen(candidate: int | None, only_candidate: bool) -> Callable[[n.Name], bool]:
    """Which local variables a reason or a label may read."""
    if candidate is None:
        return lambda name: False
    if only_candidate:
        return lambda name: bool(name.ref[1] == candidate)
    return lambda name: True


class _Sight:
    """What one player sees of expressions."""

    def __init__(self, player: n.Expr, symbols: Symbols,
                 local: Callable[[n.Name], bool]) -> None:
        self.player = player
        self.symbols = symbols
        self.local = local

    def seen(self, e: n.Expr | None) -> bool:
        """True if the player sees the whole value of ``e``.

        A comprehension or a choice is not worked out, so refused.
        """
        if e is None:
            return True
        rule = _RULES.get(type(e))
        return rule is not None and rule(self, e)

    def _constant(self, e: n.Literal | n.CardLit) -> bool:
        return True

    def _name(self, e: n.Name) -> bool:
        decl = _decl(e, self.symbols)
        if decl is not None and (decl.visibility == "public" or self._owner_of(decl)):
            return True
        if e.ref is None:
            return False
        if e.ref[0] == "local":
            return self.local(e)
        return e.ref[0] in ("const", "builtin")

    def _owner_of(self, decl: ZoneDecl | VarDecl) -> bool:
        """A zone or variable of one owner, the player (not per role)."""
        return decl.per is None and decl.visibility == "owner" and decl.owner is not None \
            and isinstance(self.player, n.Name) and self.player.ident == decl.owner

    def _index(self, e: n.Index) -> bool:
        """``hand[p]`` chosen by ``p`` is the chooser's own pile."""
        if isinstance(e.obj, n.Name) and _per_role_seen(e.obj, self.symbols) and \
                isinstance(e.index, n.Name) and isinstance(self.player, n.Name) and \
                e.index.ident == self.player.ident:
            return True
        return self.seen(e.obj) and self.seen(e.index)

    def _attr(self, e: n.Attr) -> bool:
        return self.seen(e.obj)

    def _list(self, e: n.ListLit) -> bool:
        return all(self.seen(item) for item in e.items)

    def _call(self, e: n.Call) -> bool:
        """A built-in of what is seen (the map's too), ``reveal(...)`` or the size of a pile."""
        if e.ref is not None and e.ref[0] not in ("builtin", "pack_builtin"):
            return False
        if e.func == "reveal":
            return True
        pile = pile_counted(e)
        if pile is not None:
            return self.seen(pile.index if isinstance(pile, n.Index) else None)
        return all(self.seen(a) for a in e.args)

    def _unary(self, e: n.Unary) -> bool:
        return self.seen(e.operand)

    def _binary(self, e: n.Binary) -> bool:
        return self.seen(e.left) and self.seen(e.right)

    def _conditional(self, e: n.Conditional) -> bool:
        return self.seen(e.then) and self.seen(e.test) and self.seen(e.otherwise)


# How each kind of expression is seen (any other kind is not).
_RULES: dict[type, Callable[..., bool]] = {
    n.Literal: _Sight._constant, n.CardLit: _Sight._constant, n.Name: _Sight._name,
    n.Index: _Sight._index, n.Attr: _Sight._attr, n.ListLit: _Sight._list,
    n.Call: _Sight._call, n.Unary: _Sight._unary, n.Binary: _Sight._binary,
    n.Conditional: _Sight._conditional,
}


def _decl(name: n.Name, symbols: Symbols) -> ZoneDecl | VarDecl | None:
    """The zone or variable a name refers to, if it refers to one."""
    if name.ref is None or name.ref[0] not in ("zone", "var"):
        return None
    if name.ref[0] == "zone":
        return symbols.zones.get(name.ident)
    return symbols.variables.get(name.ident)


def _per_role_seen(name: n.Name, symbols: Symbols) -> bool:
    """A zone or variable per role, each seen by its role at least."""
    decl = _decl(name, symbols)
    return decl is not None and decl.per == "role" and decl.visibility in ("owner", "public")
