"""Whether a choice may say why it refuses an answer without telling a secret.

A reason (``where COND else "..."``) is told to the chooser, and a reason on ``where`` names
the candidate it refuses when the chooser names it. That is safe only if the chooser sees
every candidate of the list, and whatever the reason says, anyway: they read only public
zones and variables, the chooser's own pile or value of a per-role ``owner`` zone or variable
(``hand[p]`` chosen by ``p``), roles, numbers, texts, the map and the candidate itself. The test
is syntactic and strict: a call of a pack function or a secret pile refuses the reason, and so
does a local variable in the list. A local variable in the text of a reason is left to the
lint, which knows what it may hold (``rulekit.checks.lint``).

A label (``label "..."``) names each candidate offered, to the chooser only, so it follows
the same rule with no exception: its fields read what the chooser sees and the candidate,
and no other local variable (whose value may come from a secret).

A prompt's context (``display: context:``) follows the same rule too, with what each local
variable may hold worked out by :mod:`rulekit.lang.contexts` (given here as ``local``).
"""

from __future__ import annotations

from collections.abc import Callable

from rulekit.lang import nodes as n
from rulekit.model.symbols import Symbols


def seen_whole(exprs: list[n.Expr], player: n.Expr, symbols: Symbols,
               candidate: int | None = None, only_candidate: bool = False,
               local: Callable[[n.Name], bool] | None = None) -> bool:
    """True if ``player`` sees the whole value of each of ``exprs``. Local variables count as
    seen only when ``candidate`` (the local slot of the choice's candidate) is given; with
    ``only_candidate``, no other local variable does; with ``local``, those it says are seen."""
    names = ("const", "builtin") if candidate is None and local is None else \
        ("const", "builtin", "local")

    def local_seen(name: n.Name) -> bool:
        ref = name.ref
        if ref[0] == "local" and local is not None:
            return local(name)
        return ref[0] in names and not (only_candidate and ref[0] == "local" and
                                        ref[1] != candidate)

    def seen(e: n.Expr | None) -> bool:
        if e is None or isinstance(e, (n.Literal, n.CardLit)):
            return True
        if isinstance(e, n.Name):
            return _public(e, symbols) or _owned_by(e, player, symbols) or \
                (e.ref is not None and local_seen(e))
        if isinstance(e, n.Index):
            own = isinstance(e.obj, n.Name) and _own(e.obj, symbols) and _same(e.index, player)
            return own or (seen(e.obj) and seen(e.index))
        if isinstance(e, n.Attr):
            return seen(e.obj)
        if isinstance(e, n.ListLit):
            return all(seen(item) for item in e.items)
        if isinstance(e, n.Call):
            builtin = e.ref is None or e.ref[0] == "builtin"
            if builtin and e.func == "reveal":
                return True
            if builtin and _size(e):
                return seen(_pile_index(e.args[0]))
            return builtin and all(seen(a) for a in e.args)
        if isinstance(e, n.Unary):
            return seen(e.operand)
        if isinstance(e, n.Binary):
            return seen(e.left) and seen(e.right)
        return False  # a comprehension, a choice...: not worked out, so refused

    return all(seen(e) for e in exprs)


def _same(a: n.Expr, b: n.Expr) -> bool:
    return isinstance(a, n.Name) and isinstance(b, n.Name) and a.ident == b.ident


def _decl(name: n.Name, symbols: Symbols) -> object | None:
    if name.ref is None or name.ref[0] not in ("zone", "var"):
        return None
    return (symbols.zones if name.ref[0] == "zone" else symbols.variables).get(name.ident)


def _public(name: n.Name, symbols: Symbols) -> bool:
    decl = _decl(name, symbols)
    return decl is not None and getattr(decl, "visibility", "") == "public"


def _owned_by(name: n.Name, player: n.Expr, symbols: Symbols) -> bool:
    """A zone or variable of one owner (not per role) that ``player`` names."""
    decl = _decl(name, symbols)
    owner = getattr(decl, "owner", None)
    return decl is not None and getattr(decl, "per", None) is None and owner is not None \
        and getattr(decl, "visibility", "") == "owner" and isinstance(player, n.Name) \
        and player.ident == owner


def _size(call: n.Call) -> bool:
    """``count(ZONE)`` or ``count(ZONE[i])``: the number of cards of a pile, which every player
    sees."""
    if call.func != "count" or len(call.args) != 1:
        return False
    pile = call.args[0]
    base = pile.obj if isinstance(pile, n.Index) else pile
    return isinstance(base, n.Name) and base.ref is not None and base.ref[0] == "zone"


def _pile_index(pile: n.Expr) -> n.Expr | None:
    return pile.index if isinstance(pile, n.Index) else None


def _own(name: n.Name, symbols: Symbols) -> bool:
    decl = _decl(name, symbols)
    return decl is not None and getattr(decl, "per", None) == "role" and \
        getattr(decl, "visibility", "") in ("owner", "public")
