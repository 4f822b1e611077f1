"""Card effects, as one dispatch in the effect language; ``base(...)``; cards' anytime actions."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NotRequired, TypedDict

from rulekit.errors import Location, PackError, SchemaError, did_you_mean
from rulekit.lang import nodes as n
from rulekit.lang.parser import parse_block
from rulekit.limits import MAX_COPIES
from rulekit.model.symbols import AnytimeDecl, ProcDecl, Symbols
from rulekit.pack.documents import snippet
from rulekit.pack.merge import MergedDocument
from rulekit.source.document import JsonPath, YamlDocument
from rulekit.source.snippet import Snippet


@dataclass
class Version:
    """A card's or a card type's version of a procedure."""

    test: str  # the test on the procedure's first parameter that picks this version
    snippet: Snippet
    where: Location  # its key under ``effects:``
    card_type: object  # the type of its cards
    of_type: bool  # a card type's version, not a card's


def copy_ids(ident: str, copies: int) -> list[str]:
    """The ids of the cards of one entry: ``ID``, or ``ID#1`` to ``ID#N`` for N copies."""
    return [ident] if copies == 1 else [f"{ident}#{k}" for k in range(1, copies + 1)]


def card_versions(doc: MergedDocument, symbols: Symbols, errors: list[PackError]
                  ) -> dict[str, list[Version]]:
    """The versions of each procedure that cards and card types give, cards first."""
    found: dict[str, list[Version]] = {}

    def add(path: tuple[str | int, ...], name: str, test: str, card_type: object,
            of_type: bool) -> None:
        where = doc.key_location((*path, name))
        first = _first_param(symbols, name, where, errors)
        if first is not None:
            found.setdefault(name, []).append(Version(
                test.format(first), snippet(doc, (*path, name)), where, card_type, of_type))

    for i, entry in enumerate(doc.data.get("cards") or []):
        copies = entry.get("copies", 1)
        if not entry.get("effects") or copies > MAX_COPIES:
            continue  # no effect, or too many copies (an error says so)
        ids = copy_ids(entry["id"], copies)
        test = ("{} == @" + ids[0]) if len(ids) == 1 else \
            "{} in [" + ", ".join("@" + card for card in ids) + "]"
        for name in entry["effects"]:
            add(("cards", i, "effects"), name, test, entry.get("type"), False)
    types = {card.get("type") for card in symbols.cards.values()} - {None}
    for kind, spec in (doc.data.get("card_types") or {}).items():
        if kind not in types and doc.resolve(("card_types", kind))[0].origin:
            continue  # a variant removed the base's cards of this type
        if kind not in types:
            errors.append(SchemaError(
                f"no card has the type '{kind}'", doc.key_location(("card_types", kind)),
                did_you_mean(kind, sorted(map(str, types)))
                or "a card type is a value of the cards' 'type' property: "
                + ", ".join(sorted(map(str, types)))))
            continue
        for name in spec.get("effects") or {}:
            add(("card_types", kind, "effects"), name,
                "{}.type == " + json.dumps(kind), kind, True)
    return found


def _first_param(symbols: Symbols, name: str, where: Location, errors: list[PackError]
                 ) -> str | None:
    """The name of the card parameter an effect of procedure ``name`` is chosen by."""
    proc = symbols.procedures.get(name)
    if proc is None or "@" in name:
        errors.append(SchemaError(
            f"no procedure '{name}' for this effect to replace", where,
            did_you_mean(name, [p for p in symbols.procedures if "@" not in p])
            or f"an effect replaces a procedure for its cards: declare procedure '{name}', "
               "the card its first parameter"))
        return None
    if not proc.params or proc.params[0][1] != "card":
        errors.append(SchemaError(
            f"procedure '{name}' does not take a card first, so no card can replace it", where,
            f"give '{name}' a first parameter of type card: params: {{card: card, ...}}"))
        return None
    return proc.params[0][0]


class Dispatch:
    """The code of a procedure with card versions, and where ``base(...)`` leads in it."""

    def __init__(self, proc: ProcDecl, versions: list[Version], procedures: set[str]) -> None:
        self.proc = proc
        self.procedures = procedures
        self.lines: list[str] = []
        self.places: list[tuple[Snippet | None, int, Location]] = []  # each line's origin
        self.owners: list[Version | None] = []  # the version each line belongs to
        self.types = {v.card_type for v in versions if v.of_type}  # those with a version
        own = proc.location or versions[0].where
        for i, version in enumerate(versions):
            self._line(("if " if i == 0 else "} elif ") + version.test + " {", version.where,
                       version)
            self._body(version.snippet, version.where, version)
        if not _does_nothing(proc.snippet):
            self._line("} else {", own, None)
            self._body(proc.snippet, own, None)
        self._line("}", own, None)

    def _line(self, text: str, where: Location, owner: Version | None) -> None:
        self.lines.append(text)
        self.places.append((None, 0, where))
        self.owners.append(owner)

    def _body(self, code: Snippet, where: Location, owner: Version | None) -> None:
        for j, text in enumerate(code.text.splitlines() or [""], 1):
            self.lines.append(text)
            self.places.append((code, j, where))
            self.owners.append(owner)

    def snippet(self) -> Snippet:
        """The dispatch as one piece of code, each line located where it was written."""
        def locate(line: int, column: int) -> Location:
            code, j, where = self.places[min(max(line, 1), len(self.places)) - 1]
            return where if code is None else code.locate(j, column)
        return Snippet("\n".join(self.lines), locate)

    def base_of(self, pos: n.Pos) -> str | None:
        """What ``base(...)`` at ``pos`` runs: the next version of its card."""
        owner = self.owners[min(max(pos.line, 1), len(self.owners)) - 1]
        name = self.proc.name
        if owner is None:
            return own_base(name, self.procedures)
        if owner.of_type or owner.card_type not in self.types:
            return f"{name}@own"
        return f"{name}@type:{owner.card_type}"


def own_base(name: str, procedures: set[str]) -> str | None:
    """What ``base(...)`` runs in the body of procedure ``name``: the base pack's version."""
    kept = f"{name.removesuffix('@own')}@base"
    return kept if kept in procedures else None


def version_procs(proc: ProcDecl, versions: list[Version], procedures: set[str]
                  ) -> dict[str, tuple[ProcDecl, str | None]]:
    """The versions ``base(...)`` may call, as procedures; with what their ``base`` runs."""
    name = proc.name
    procs = {f"{name}@own": (ProcDecl(f"{name}@own", proc.params, proc.snippet,
                                      location=proc.location), own_base(name, procedures))}
    for version in versions:
        if version.of_type:
            kind = f"{name}@type:{version.card_type}"
            procs[kind] = (ProcDecl(kind, proc.params, version.snippet, location=version.where),
                           f"{name}@own")
    return procs


def _does_nothing(code: Snippet) -> bool:
    """True if a procedure's own body is empty or only ``pass``."""
    try:
        body = parse_block(code)
    except PackError:
        return False
    return all(isinstance(s, n.Pass) for s in body)


ACTION_PARAMS = (("card", "card"), ("player", "role"))
"""What a card's action reads: the card that carries it, and the role that takes it."""


class CardActionSpec(TypedDict):
    """An anytime action as a card or a card type carries it."""

    id: str
    zone: str
    do: str
    role: NotRequired[str]
    label: NotRequired[str]
    when: NotRequired[str]


def card_actions(doc: YamlDocument, symbols: Symbols, errors: list[PackError],
                 entries: Mapping[str, int]) -> list[AnytimeDecl]:
    """The anytime actions of cards (by their ``entries``) and card types: one per card."""
    cards, types = doc.data.get("cards") or [], doc.data.get("card_types") or {}
    taken = {decl.id: decl.location for decl in symbols.anytime}
    found: list[AnytimeDecl] = []
    for card, props in symbols.cards.items():
        i, kind = entries[card], props.get("type")
        places: list[tuple[JsonPath, bool]] = [  # (ID@CARD if its copies share it)
            (("cards", i, "anytime", j), "#" in card)
            for j in range(len(cards[i].get("anytime") or []))]
        if isinstance(kind, str) and kind in types:
            places += [(("card_types", kind, "anytime", j), True)
                       for j in range(len(types[kind].get("anytime") or []))]
        for path, shared in places:
            for decl in _card_action(doc, symbols, errors, path, card, shared):
                first = taken.setdefault(decl.id, decl.location)
                if first is not None and first != decl.location:
                    where = doc.location((*path, "id"))
                    errors.append(SchemaError(
                        f"anytime action '{decl.id}' is given twice: first at "
                        f"{seen_at(first, where)}", where, "give each action its own id"))
                    break
                found.append(decl)
    return found


def seen_at(first: Location, where: Location) -> str:
    """Where an entry given first is, for an error at ``where``: its file only if another."""
    return f"line {first.line}, column {first.column}" + (
        f" of {first.file}" if first.file != where.file else "")


def _card_action(doc: YamlDocument, symbols: Symbols, errors: list[PackError],
                 path: tuple[str | int, ...], card: str, shared: bool) -> list[AnytimeDecl]:
    """The action at ``path`` for ``card``: one per role that may take it; none if wrong."""
    found: Any = doc.data
    for key in path:
        found = found[key]
    spec: CardActionSpec = found
    zone = symbols.zones.get(spec["zone"])

    def error(message: str, key: str, hint: str | None = None) -> None:
        errors.append(SchemaError(message, doc.location((*path, key)), hint))

    if zone is None:
        error(f"unknown zone '{spec['zone']}'", "zone",
              did_you_mean(spec["zone"], symbols.zones)
              or "a card's action is offered while the card lies in this zone")
        return []
    if zone.per not in (None, "role"):
        error(f"zone '{zone.name}' has a pile per {zone.per}: a card's action needs a zone "
              "of one pile, or one pile per role (the pile of its role)", "zone")
        return []
    role = spec.get("role") or zone.owner
    if role is None and zone.per is None:
        error(f"say who may take this action: zone '{zone.name}' has no owner", "zone",
              f"add role: one of {', '.join(symbols.roles)}")
        return []
    if role is not None and role not in symbols.roles:
        error(f"unknown role '{role}'", "role", did_you_mean(role, symbols.roles))
        return []
    option = spec["id"] if not shared else f"{spec['id']}@{card}"
    label = str(spec.get("label", spec["id"] + (" ({card})" if shared else ""))).replace(
        "{card}", str(symbols.cards[card].get("name", card)))
    when = spec.get("when")
    where = doc.location((*path, "zone"))
    found_decls = []
    for each in [role] if role is not None else symbols.roles:
        name = f"{option}@action" if role is not None else f"{option}@{each}@action"
        symbols.procedures[name] = ProcDecl(name, list(ACTION_PARAMS),
                                            snippet(doc, (*path, "do")),
                                            location=doc.key_location((*path, "do")))
        zone_text = zone.name if zone.per is None else f"{zone.name}[{each}]"
        found_decls.append(AnytimeDecl(
            option, each, label, name,
            f"@{card} in {zone_text}" + (f" and ({when})" if when else ""),
            doc.location(path), snippet(doc, (*path, "when")) if when else None, card,
            Snippet(f"card in {zone_text}", lambda line, column: where)))
    return found_decls
