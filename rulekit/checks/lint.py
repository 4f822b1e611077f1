"""Lint warnings: what a pack says that works but is probably a mistake."""

from __future__ import annotations

import random
from dataclasses import dataclass

from rulekit.checks.flow import dead_phases, endless_loops, log_leaks
from rulekit.engine.draws import RandomChooser
from rulekit.engine.game import Game
from rulekit.engine.playout import playout
from rulekit.engine.state import State
from rulekit.engine.vm import CODE_ERRORS, Runtime
from rulekit.errors import Location, PackError, PackWarning, RulekitError
from rulekit.lang import nodes as n
from rulekit.lang.analysis import reads
from rulekit.lang.walk import every_node, triggers_of
from rulekit.model.program import ExprFn
from rulekit.pack.effects import copy_ids
from rulekit.pack.loader import LoadedPack
from rulekit.source.document import JsonPath, YamlDocument
from rulekit.source.snippet import Snippet

_UNUSED_HINT = "use it, or remove it"


@dataclass
class _Code:
    """One piece of effect code: the nodes of its tree, and its text."""

    below: list[n.Node]  # every node of the tree, parents first
    snippet: Snippet


def _root_name(expr: n.Expr) -> str | None:
    """The zone or variable an expression names: ``hand`` for ``hand[p]``."""
    if isinstance(expr, n.Index):
        expr = expr.obj
    return expr.ident if isinstance(expr, n.Name) else None


def _name_used(node: object) -> str | None:
    """The name a node of code uses: a variable, a function, a card..."""
    match node:
        case n.Name(ident=name) | n.Assign(name=name) | n.Call(func=name) | \
                n.CallStmt(proc=name) | n.CardLit(card_id=name):
            return str(name)
    return None


class _Linter:
    """Finds the lint warnings of one pack, whose sections are ``doc``."""

    def __init__(self, pack: LoadedPack, doc: YamlDocument) -> None:
        self.pack = pack
        self.symbols = pack.game.symbols
        self.doc = doc
        self.warnings: list[PackError] = []
        self.code = [_Code(list(every_node(tree)), text) for tree, text in pack.code]

    def warn(self, message: str, path: JsonPath, hint: str | None = None) -> None:
        """A warning at the key at ``path``."""
        self.warnings.append(PackWarning(message, self.doc.key_location(path), hint))

    def unused(self) -> None:
        """Warn about what nothing uses: code, zones, variables and cards."""
        symbols = self.symbols
        names = {name for code in self.code for name in map(_name_used, code.below)
                 if name is not None}
        tables = (("procedure", "procedures", symbols.procedures, names | self._triggers()),
                  ("function", "functions", symbols.functions, names),
                  ("zone", "zones", symbols.zones, names),
                  ("variable", "variables", symbols.variables, names))
        for kind, section, table, used in tables:
            for name in table:
                if name not in used and "@" not in name:  # (not a version base(...) runs)
                    self.warn(_never_used(kind, name), (section, name), _UNUSED_HINT)
        self._unplayed_cards(names)
        manifest = self.pack.manifest_doc
        if manifest is None:
            return
        for name in symbols.parameters:  # (a variant's own: what it may change)
            where = manifest.key_location(("parameters", name))
            if name not in names and not where.origin:
                self.warnings.append(PackWarning(_never_used("parameter", name), where,
                                                 _UNUSED_HINT))
        deciders = self._deciders()
        for i, role in enumerate(symbols.roles):
            where = manifest.location(("roles", i, "id"))
            if role not in deciders and not where.origin:
                self.warnings.append(PackWarning(
                    f"role '{role}' never decides: no choose names it, and no anytime action "
                    "is its", where, "give it a decision, or remove it"))

    def _deciders(self) -> set[str]:
        """The roles a choice or an anytime action names; all if one is known only at run time."""
        found = {action.role for action in self.symbols.anytime}
        for body in self.pack.bodies:
            for node in every_node(body.stmts):
                if not isinstance(node, n.Choice):
                    continue
                player = node.player
                if not (isinstance(player, n.Name) and player.ref
                        and player.ref[0] == "const"):
                    return set(self.symbols.roles)
                found.add(str(player.ref[1]))
        return found

    def missing_effects(self) -> None:
        """Warn about the one card of a type without an effect all the others give."""
        cards = self.doc.data.get("cards") or []
        typed = self.doc.data.get("card_types") or {}
        given: dict[tuple[object, str], set[int]] = {}  # (type, effect) -> entries giving it
        for i, card in enumerate(cards):
            for name in card.get("effects") or {}:
                given.setdefault((card.get("type"), name), set()).add(i)
        for (kind, name), entries in given.items():
            lacking = [i for i, card in enumerate(cards)
                       if card.get("type") == kind and i not in entries]
            if kind is None or len(lacking) != 1 or name in (typed.get(kind) or {}).get(
                    "effects", {}):
                continue
            self.warn(f"card '{cards[lacking[0]]['id']}' has no effect '{name}', which the "
                      f"other cards of its type '{kind}' give: the procedure's own body runs "
                      "for it", ("cards", lacking[0], "id"),
                      f"give it effects: {{{name}: ...}}, or give the type one under card_types")

    def _triggers(self) -> set[str]:
        """The procedures called without code: anytime actions, on_change and on_enter."""
        actions = {a.procedure for a in self.symbols.anytime}
        return actions | set(triggers_of(self.symbols).values())

    def _unplayed_cards(self, names: set[str]) -> None:
        """Warn about cards no zone starts with, and no code names."""
        in_play = names.union(*self.pack.game.layout.initial_piles.values())
        for i, entry in enumerate(self.doc.data.get("cards") or []):
            if in_play.isdisjoint(copy_ids(entry["id"], entry.get("copies", 1))):
                self.warn(f"card '{entry['id']}' never comes into play: no zone starts with it "
                          "and no code names it", ("cards", i), "add it to a zone's initial")

    def empty_choices(self) -> None:
        """Warn about each ``choose`` whose list is always empty."""
        filled = self._filled_zones()
        for code in self.code:
            for node in code.below:
                if isinstance(node, n.Choice):
                    self._empty_choice(code, node, filled)

    def _filled_zones(self) -> set[str | None]:
        """The zones that start with cards, or that code fills."""
        moved = {_root_name(node.dest) for code in self.code for node in code.below
                 if isinstance(node, n.Move | n.Draw)}
        return moved | {zone.name for zone in self.symbols.zones.values() if zone.initial}

    def _empty_choice(self, code: _Code, node: n.Choice, filled: set[str | None]) -> None:
        """Warn if ``node`` chooses from ``[]``, or an empty zone."""
        source = _root_name(node.source)
        empty = (isinstance(node.source, n.ListLit) and not node.source.items) or (
            source in self.symbols.zones and source not in filled)
        if empty:
            where = code.snippet.locate(node.pos.line, node.pos.column)
            what = f"zone '{source}', which no card ever enters" if source else "[]"
            self.warnings.append(PackWarning(
                f"this choose always offers an empty list: {what}", where,
                "choose from a zone or list that can hold something"))

    def end_conditions(self) -> None:
        """Warn about each end condition that ends games at once, or can never end one."""
        game = self.pack.game
        ending = end_after_setup(game)
        for i, (condition, winner, _) in enumerate(game.program.end_checks):
            where = ("flow", "end_when", i, "when")
            if i == ending:
                self.warn(f"this end condition holds right after setup, so games end before "
                          f"their first round, with {winner} winning", where,
                          "check the condition against the values setup leaves")
            elif self._constant(condition) and _verdict(game, condition) is False:
                self.warn("this end condition can never hold: it reads only parameters and "
                          "constants, so it never ends a game", where,
                          "make it read what changes: a variable, a zone, the round or the "
                          "phase")

    def _constant(self, condition: ExprFn) -> bool:
        """Whether ``condition`` reads nothing that changes during a game."""
        names: set[str] = set()
        tree = self.pack.trees[condition]
        return reads(tree, self.pack.function_trees, names, set(), True) and not names


def _never_used(kind: str, name: str) -> str:
    if kind == "procedure":
        return f"procedure '{name}' is never called"
    if kind == "function":
        return f"function '{name}' is never used"
    return f"{kind} '{name}' is never used by the pack's code"


def end_after_setup(game: Game) -> int | None:
    """The end condition that ends the game of seed 0 right after its setup, if one does."""
    state = game.initial_state(0, quiet=True)
    seats = {role: RandomChooser(random.Random(role)) for role in game.roles}
    try:
        playout(game, state, seats, max_rounds=0)
    except RulekitError:
        return None
    result = state["result"]
    if result is None or result["round"] != 0:
        return None
    for i, (condition, winner, reason) in enumerate(game.program.end_checks):
        if (winner, reason) == (result["winner"], result["reason"]) \
                and _verdict(game, condition, state):
            return i
    return None


def _verdict(game: Game, condition: ExprFn, state: State | None = None) -> bool | None:
    """Whether ``condition`` holds in ``state`` (the initial one by default); None if it fails."""
    runtime = Runtime(game.program, state or game.initial_state(0))
    try:
        return bool(condition(runtime, [None] * 64))
    except (*CODE_ERRORS, RulekitError):
        return None


def lint_pack(pack: LoadedPack) -> list[PackError]:
    """The lint warnings of a loaded pack, in file order."""
    if pack.content is None:
        return []
    linter = _Linter(pack, pack.content)
    linter.end_conditions()
    linter.unused()
    linter.missing_effects()
    linter.empty_choices()
    linter.warnings += log_leaks(pack.game.symbols, pack.bodies, pack.function_trees)
    linter.warnings += dead_phases(linter.doc, pack.game.symbols.phases, pack.bodies)
    linter.warnings += endless_loops(pack.bodies, bool(pack.game.program.end_checks))
    # One text of code may run as several procedures (a card type's action, per card): once.
    unique = {str(warning): warning for warning in linter.warnings}
    return sorted(unique.values(), key=_file_order)


def _file_order(warning: PackError) -> tuple[str, int, int]:
    where: Location | None = warning.location
    return (where.file, where.line, where.column) if where else ("", 0, 0)
