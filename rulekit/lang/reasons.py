"""Whether a reason, a label or a context tells its reader only what they see."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rulekit.lang import nodes as n
from rulekit.lang.analysis import is_pile, pile_counted, pile_decl
from rulekit.lang.walk import children
from rulekit.model.symbols import Symbols, VarDecl, ZoneDecl


def seen_whole(exprs: list[n.Expr], player: n.Expr, symbols: Symbols,
               local: Callable[[n.Name], bool] | None = None) -> bool:
    """True if ``player`` sees each of ``exprs`` whole; ``local`` says which locals."""
    sight = Sight(player, symbols, local or (lambda name: False))
    return all(sight.seen(e) for e in exprs)


class Sight:
    """What one player sees of expressions."""

    def __init__(self, player: n.Expr, symbols: Symbols,
                 local: Callable[[n.Name], bool]) -> None:
        self.player = player
        self.symbols = symbols
        self.local = local

    def seen(self, e: n.Expr | None) -> bool:
        """True if the player sees the whole value of ``e``: of each of its parts."""
        return next(self.unseen(e), None) is None

    def unseen(self, e: n.Expr | None) -> Iterator[n.Expr]:
        """The smallest parts of ``e`` the player may not see, in order: a pile, a local..."""
        if e is None or self._own_pile(e):
            return
        if isinstance(e, n.Call):
            yield from self._call(e)
        elif isinstance(e, (n.Name, n.Comprehension, n.Choice)):
            if not (isinstance(e, n.Name) and self._name(e)):
                yield e
        elif isinstance(e, n.Index) and is_pile(e.obj):
            if not all(self.seen(part) for part in children(e)):
                yield e
        else:
            for part in children(e):
                yield from self.unseen(part)

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

    def _call(self, e: n.Call) -> Iterator[n.Expr]:
        """A built-in of what is seen (the map's whole), ``reveal(...)`` or the size of a pile."""
        kind = None if e.ref is None else e.ref[0]
        if kind not in (None, "builtin"):  # a function of the pack, or of the map: a whole
            if kind != "pack_builtin" or not all(self.seen(a) for a in e.args):
                yield e
            return
        pile = pile_counted(e)
        if pile is not None:
            if isinstance(pile, n.Index) and not self.seen(pile.index):
                yield pile
        elif e.func != "reveal":
            for arg in e.args:
                yield from self.unseen(arg)


def _per_role_seen(name: n.Name, symbols: Symbols) -> bool:
    """A zone or variable per role, each seen by its role at least."""
    decl = pile_decl(name.ref, symbols)
    return decl is not None and decl.per == "role" and decl.visibility in ("owner", "public")
