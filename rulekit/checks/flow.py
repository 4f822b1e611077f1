"""Lint warnings that need checked code: secrets logged, dead phases, endless loops."""

from __future__ import annotations

from rulekit.errors import PackError, PackNote, PackWarning
from rulekit.lang import nodes as n
from rulekit.lang.compiler import Body
from rulekit.lang.secrecy import public_log_leaks
from rulekit.lang.walk import calls_in, choices_in, reached, statements
from rulekit.model.symbols import Symbols
from rulekit.source.document import YamlDocument


def log_leaks(symbols: Symbols, bodies: list[Body],
              function_trees: dict[str, n.Expr]) -> list[PackError]:
    """A warning for each field of a public log line that may print a secret."""
    places = {b.name: b.snippet for b in bodies}
    warnings: list[PackError] = []
    for leak in public_log_leaks(symbols, {b.name: b.stmts for b in bodies}, function_trees):
        where = places[leak.body].location(leak.part.pos)
        if isinstance(leak.part, n.Log):
            warnings.append(PackNote(
                "this public log line is written on a branch taken on data not every player "
                "may see: that it is written may tell which way the branch went", where,
                "log it to the role that may see it (log \"...\" to ROLE), or on both ways"))
            continue
        names = ", ".join(f"'{name}'" for name in leak.names) or "non-public data"
        warnings.append(PackWarning(
            f"this log line is public, and it prints {names}, which not every player may see",
            where, "send the line to the role that may see it (log \"...\" to ROLE), or print "
            "something public"))
    return warnings


def dead_phases(doc: YamlDocument, phases: list[str], bodies: list[Body]) -> list[PackError]:
    """A warning for each phase that always ends the round, when phases follow."""
    procs = {b.name: b.stmts for b in bodies}
    warnings: list[PackError] = []
    for i, phase in enumerate(phases[:-1]):
        if _always_ends(procs[f"phase:{phase}"], procs, set()):
            later = ", ".join(f"'{p}'" for p in phases[i + 1:])
            warnings.append(PackWarning(
                f"every path of phase '{phase}' ends the round or the game, so the "
                f"phases after it never run: {later}",
                doc.key_location(("flow", "phases", i, "do")),
                "end the round only on some paths (inside an if), or move the phases after "
                "it before it"))
    return warnings


def _always_ends(stmts: list[n.Stmt], procs: dict[str, list[n.Stmt]], seen: set[str]) -> bool:
    """Whether running ``stmts`` always ends the round or the game before it can return."""
    for s in stmts:
        if _ends(s, procs, seen):
            return True
        if _returns([s]):
            return False
    return False


def _ends(s: n.Stmt, procs: dict[str, list[n.Stmt]], seen: set[str]) -> bool:
    """Whether a statement always ends the round or the game."""
    match s:
        case n.Win() | n.EndRound():
            return True
        case n.If(otherwise=list(otherwise)):
            return all(_always_ends(body, procs, seen)
                       for body in [*(b for _, b in s.branches), otherwise])
        case n.CallStmt(proc=proc) if proc in procs and proc not in seen:
            return _always_ends(procs[proc], procs, seen | {proc})
    return False


def _returns(stmts: list[n.Stmt]) -> bool:
    """Whether statements may leave their body early, by a ``return``."""
    return any(isinstance(s, n.Return) for s in statements(stmts))


def _bodies_of(s: n.If) -> list[list[n.Stmt]]:
    return [b for _, b in s.branches] + ([s.otherwise] if s.otherwise else [])


def endless_loops(bodies: list[Body], ends: bool) -> list[PackError]:
    """A warning for each ``while true`` that asks a question and that nothing may leave.

    With end conditions (``ends``), any change of a zone or a variable is a way out too.
    """
    procs = {b.name: b.stmts for b in bodies}
    return [PackWarning("this loop asks again and again, and nothing in it leaves it (no break, "
                        "return, win or end_round): the game would never go on",
                        body.snippet.location(s.pos),
                        "break out of it on some answer (choose ... optional, then if x == none "
                        "{ break })")
            for body in bodies for s in statements(body.stmts)
            if isinstance(s, n.While) and isinstance(s.condition, n.Literal)
            and s.condition.value is True and _asks(s.body, procs)
            and not _way_out(s.body, procs, ends)]


def _reached(stmts: list[n.Stmt], procs: dict[str, list[n.Stmt]]) -> list[list[n.Stmt]]:
    """``stmts`` and the bodies of the procedures they call, directly or not."""
    return [stmts, *(procs[name] for name in reached(procs, calls_in(stmts)) if name in procs)]


def _asks(stmts: list[n.Stmt], procs: dict[str, list[n.Stmt]]) -> bool:
    return any(choices_in(body) for body in _reached(stmts, procs))


def _way_out(stmts: list[n.Stmt], procs: dict[str, list[n.Stmt]], ends: bool) -> bool:
    if _breaks(stmts) or _returns(stmts):
        return True
    leaving = (n.Win, n.EndRound, n.Assign, n.Move, n.Draw) if ends else (n.Win, n.EndRound)
    return any(isinstance(s, leaving) for body in _reached(stmts, procs)
               for s in statements(body))


def _breaks(stmts: list[n.Stmt]) -> bool:
    """Whether a ``break`` of the loop whose body is ``stmts`` is in it (not in inner loops)."""
    return any(isinstance(s, n.Break) or (isinstance(s, n.If) and any(map(_breaks, _bodies_of(s))))
               for s in stmts)
