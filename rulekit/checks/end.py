"""The lint's check of the end conditions on the first state of a game: an ``end_when`` that
holds there would end every game at once.

What the check reads of a pack's files (:func:`end_condition_reads`) is kept by the validation
cache (:mod:`rulekit.pack.edits`) with what it found (:func:`end_verdicts`); when an edit of
numbers changes some of what it reads, the cache tries the conditions again
(:func:`verdicts_after_edit`) rather than validate the whole pack.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rulekit.errors import PackError
from rulekit.lang import nodes as n
from rulekit.lang.builtins import BUILTINS
from rulekit.lang.parser import parse_expression
from rulekit.lang.walk import every_node
from rulekit.pack.documents import snippet

if TYPE_CHECKING:
    from rulekit.engine.game import Game
    from rulekit.pack.loader import LoadedPack
    from rulekit.source.document import JsonPath, YamlDocument


def end_verdicts(game: Game) -> list[bool]:
    """Whether each end condition of ``game`` (compiled) holds in its initial state (false
    for one that cannot be evaluated before setup)."""
    from rulekit.engine.vm import Runtime

    checks = game.program.end_checks
    if not checks:
        return []
    runtime = Runtime(game.program, game.initial_state(0))
    found = []
    for condition, _, _ in checks:
        try:
            found.append(bool(condition(runtime, [None] * 64)))
        except Exception:  # a condition that cannot be evaluated before setup
            found.append(False)
    return found


def verdicts_after_edit(folder: Path,
                        given: dict[str, YamlDocument] | None = None) -> list[bool] | None:
    """:func:`end_verdicts` of the pack in ``folder`` as its files are now (``given``: the
    documents of those edited, read already, by full path), worked out with only its end
    conditions and functions compiled; None if that finds a mistake or fails otherwise (the
    pack is then validated again, which says what is wrong)."""
    from rulekit.pack.loader import load_end_checks

    try:
        return end_verdicts(load_end_checks(folder, given))
    except Exception:  # (any failure here is answered by a validation from scratch)
        return None


def end_condition_reads(pack: LoadedPack) -> list[tuple[YamlDocument, JsonPath, bool]]:
    """What the check of the end conditions against the initial state (:func:`end_verdicts`)
    may read of the pack's files, but their names and types: the code of each end condition
    and of each function it calls, directly or not (marked True); the default of each
    parameter that code names; and when it may read a property of a component (it names a
    zone, a card, node, edge or region, reads a property, or calls a function of the pack
    that reads the cards or the map), the components of every file. Each as the document and
    the path of the value there."""
    content = pack.content
    flow = (content.data.get("flow") or {}) if content is not None else {}
    if content is None or not flow.get("end_when"):
        return []
    symbols = pack.game.symbols
    pending: list[JsonPath] = [("flow", "end_when", i, "when")
                               for i in range(len(flow["end_when"]))]
    code: list[JsonPath] = []
    params: set[str] = set()
    components = False
    while pending:
        path = pending.pop()
        code.append(path)
        try:
            tree = parse_expression(snippet(content, path))
        except (PackError, KeyError, IndexError, TypeError):
            components = True  # (it did not parse when validated: nothing is known)
            continue
        for node in every_node(tree):
            if isinstance(node, n.Name) and node.ident in symbols.parameters:
                params.add(node.ident)
            elif isinstance(node, (n.CardLit, n.Attr)) or (
                    isinstance(node, n.Name) and node.ident in symbols.zones):
                components = True
            elif isinstance(node, n.Call) and node.func in symbols.functions:
                called = ("functions", node.func, "returns")
                if called not in code and called not in pending:
                    pending.append(called)
            elif isinstance(node, n.Call) and node.func not in BUILTINS:
                components = True
    found = [(*content.resolve(path), True) for path in code]
    manifest = pack.manifest_doc
    if manifest is not None:
        found += [(*manifest.resolve(("parameters", name, "default")), False)
                  for name in sorted(params)]
    if components:
        found += [(doc, (section,), False) for doc in pack.documents
                  for section in ("cards", "map")
                  if doc.schema == "content" and isinstance(doc.data, dict)
                  and section in doc.data]
    return found
