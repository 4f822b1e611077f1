"""Whether a reason, a label or a context tells its reader only what they see."""

from __future__ import annotations

from collections.abc import Callable

from rulekit.lang import nodes as n
from rulekit.lang.analysis import pile_counted, pile_decl
from rulekit.lang.walk import children
from rulekit.model.symbols import Symbols, VarDecl, ZoneDecl


def seen_whole(exprs: list[n.Expr], player: n.Expr, symbols: Symbols,
               local: Callable[[n.Name], bool] | None = None) -> bool:
    """True if ``player`` sees each of ``exprs`` whole; ``local`` says which locals."""
    sight = _Sight(player, symbols, local or (lambda name: False))
    return all(sight.seen(e) for e in exprs)


class _Sight:
    """What one player sees of expressions."""

    def __init__(self, player: n.Expr, symbols: Symbols,
                 local: Callable[[n.Name], bool]) -> None:
        self.player = player
        self.symbols = symbols
        self.local = local

    def seen(self, e: n.Expr | None) -> bool:
        """True if the player sees the whole value of ``e``: of each of its parts."""
        if isinstance(e, n.Name):
            return self._name(e)
        if isinstance(e, n.Call):
            return self._call(e)
        if isinstance(e, (n.Comprehension, n.Choice)):
            return False
        return e is None or self._own_pile(e) or all(self.seen(part) for part in children(e))

    def _name(self, e: n.Name) -> bool:
        decl = pile_decl(e.ref, self.symbols)
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

    def _own_pile(self, e: n.Expr) -> bool:
        """``hand[p]`` chosen by ``p`` is the chooser's own pile."""
        return isinstance(e, n.Index) and isinstance(e.obj, n.Name) and \
            _per_role_seen(e.obj, self.symbols) and isinstance(e.index, n.Name) and \
            isinstance(self.player, n.Name) and e.index.ident == self.player.ident

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


def _per_role_seen(name: n.Name, symbols: Symbols) -> bool:
    """A zone or variable per role, each seen by its role at least."""
    decl = pile_decl(name.ref, symbols)
    return decl is not None and decl.per == "role" and decl.visibility in ("owner", "public")
