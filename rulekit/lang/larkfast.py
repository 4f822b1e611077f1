"""The syntax tree of a text without lark: lark's LALR tables, as shipped, driven here.

lark parses with the tables shipped in ``lalrtables.pickle`` (:mod:`rulekit.lang.larkbuild`)
and a contextual lexer, builds its parse tree at each reduction of a rule (dropping punctuation,
splicing the helper rules of ``*`` and ``+``, expanding the ``?rule`` of one child, working out
positions), and :mod:`rulekit.lang.larkparse` walks that tree again to make the nodes. Here the
same tables are read as plain data, a lexer does what lark's contextual lexer does (in each state
of the parser, only the terminals it accepts, in lark's order, a keyword taking the place of a
name it spells), and each reduction makes its node at once (:class:`~rulekit.lang.nodemaker.
NodeMaker`), at the place lark would give it (where its first piece of text starts, brackets
included). The same trees (``tests/test_larkfast.py``), in a fraction of the time, without
importing lark.

Only a text free of mistakes takes this way to the end: at anything unexpected (a character or
a token the grammar refuses, a number too large, a mistake in a log text, code nested near the
limits) :func:`fast_parse` gives None, and the text is parsed the usual way, which says what and
where the mistake is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from rulekit.lang import nodes as n
from rulekit.lang.nodemaker import NodeMaker
from rulekit.lang.parser import Snippet, grammar_text
from rulekit.limits import MAX_BLOCK_NESTING, MAX_CODE_NESTING, MAX_INT

Build = Callable[[str, n.Pos, list[Any]], Any]
Reduction = tuple[int, str, Callable[[list[Any]], Any] | None]


class Token(str):
    """A piece of text the lexer found: its terminal (``type``), line and column (as lark's)."""

    type: str
    line: int
    column: int


class Reduced:
    """What a reduction leaves on the stack: a value, where its text starts (None: no text),
    the height of the tree of lark's rules under it and the most ``block`` rules on one path
    down from it (both counted as in lark's tree)."""

    __slots__ = ("at", "blocks", "height", "value")

    def __init__(self, value: Any, at: tuple[int, int] | None, height: int,
                 blocks: int) -> None:
        self.value = value
        self.at = at
        self.height = height
        self.blocks = blocks


def fast_parse(snippet: Snippet, start: str) -> Any:
    """The syntax tree of ``snippet`` by the rule ``start``, or None: parse it the usual way
    (a mistake, code nested near the limits, or no shipped tables for this grammar)."""
    parser = _parser()
    if parser is None:
        return None
    try:
        found = parser.parse(snippet.text, start, NodeMaker(snippet).build)
    except Exception:  # any mistake: the usual way finds it and says it
        return None
    if found.height >= MAX_CODE_NESTING or found.blocks > MAX_BLOCK_NESTING:
        return None
    return found.value


@cache
def _parser() -> FastParser | None:
    from rulekit.lang.larkbuild import shipped_tables

    tables = shipped_tables(grammar_text(), any_lark=True)
    try:
        return None if tables is None else FastParser(tables)
    except Exception:  # tables of a form not known here: lark reads them
        return None


def _start(children: list[Any]) -> tuple[int, int] | None:
    for child in children:
        if type(child) is Reduced:
            if child.at is not None:
                return child.at
        else:
            return child.line, child.column
    return None


# The positions given to nodes, one object for each (positions are frozen): the nodes of one
# place share it, which makes trees quicker to make and to store (pickled once per tree).
_positions: dict[tuple[int, int], n.Pos] = {}
_POSITIONS_KEPT = 65_536


def _reduction(rule: dict[str, Any], holder: FastParser) -> Callable[[list[Any]], Any]:
    """The function that reduces ``rule`` (as lark's memo has it)."""
    options = rule["options"]
    name = rule["alias"] or rule["origin"]["name"]
    kept = [(i, sym["__type__"] == "NonTerminal" and sym["name"].startswith("_"))
            for i, sym in enumerate(rule["expansion"])
            if options["keep_all_tokens"] or not sym.get("filter_out", False)]
    splice = name.startswith("_")
    expand_one = options["expand1"] and not rule["alias"]
    block = name == "block"

    def reduce(children: list[Any]) -> Any:
        at = _start(children)
        items: list[Any] = []
        for i, expand in kept:
            child = children[i]
            if expand:
                items += child.value
            else:
                items.append(child)
        if splice:  # a helper rule of `*` or `+`: its items, spliced into the rule above
            return Reduced(items, at, 0, 0)
        if expand_one and len(items) == 1:
            only = items[0]
            if type(only) is not Reduced:
                return only
            return Reduced(only.value, at, only.height, only.blocks)
        height = 0
        blocks = 0
        values = []
        for item in items:
            if type(item) is Reduced:
                if item.height >= height:
                    height = item.height + 1
                if item.blocks > blocks:
                    blocks = item.blocks
                values.append(item.value)
            else:
                values.append(item)
        key = (1, 1) if at is None else at
        pos = _positions.get(key)
        if pos is None:
            if len(_positions) >= _POSITIONS_KEPT:
                _positions.clear()
            pos = _positions[key] = n.Pos(*key)
        return Reduced(holder.build(name, pos, values), at, height, blocks + block)

    return reduce


def _has_newline(regexp: str) -> bool:
    """Whether lark counts lines inside a token of this pattern."""
    return ("\n" in regexp or "\\n" in regexp or "\\s" in regexp or "[^" in regexp
            or ("(?s" in regexp and "." in regexp))


class _Lexer:
    """lark's lexer of one state: its terminals, in lark's order, as one pattern; the names a
    keyword takes the place of; the terminals ignored, and those that may hold a newline."""

    def __init__(self, terminals: list[dict[str, Any]], ignore: frozenset[str]) -> None:
        regexps = {}
        for term in terminals:
            pattern = term["pattern"]
            if pattern["flags"]:
                raise ValueError("flags")  # not met in this grammar: lark's lexer does it
            plain = pattern["__type__"] == "PatternStr"
            regexps[term["name"]] = re.escape(pattern["value"]) if plain else pattern["value"]
        strings = [t for t in terminals if t["pattern"]["__type__"] == "PatternStr"]
        self.unless: dict[str, dict[str, str]] = {}
        spelt = set()
        for term in terminals:
            if term["pattern"]["__type__"] != "PatternRE":
                continue
            for word in strings:
                value = word["pattern"]["value"]
                found = re.match(regexps[term["name"]], value)
                if word["priority"] == term["priority"] and found and found.group(0) == value:
                    self.unless.setdefault(term["name"], {})[value] = word["name"]
                    spelt.add(word["name"])
        kept = [t for t in terminals if t["name"] not in spelt]
        kept.sort(key=lambda t: (-t["priority"], -_width(t), -len(t["pattern"]["value"]),
                                 t["name"]))
        self.match = re.compile("|".join(f"(?P<{t['name']}>{regexps[t['name']]})"
                                         for t in kept)).match
        self.ignore = ignore
        self.newlines = frozenset(t["name"] for t in kept if _has_newline(regexps[t["name"]]))


class _Lazy(dict[int, Any]):
    """A dict whose value for a key is made at its first use."""

    def __init__(self, make: Callable[[int], Any]) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, key: int) -> Any:
        value = self[key] = self._make(key)
        return value


def _width(terminal: dict[str, Any]) -> int:
    pattern = terminal["pattern"]
    return len(pattern["value"]) if pattern["__type__"] == "PatternStr" \
        else int(pattern["_width"][1])


class FastParser:
    """The shipped tables (``data`` and ``memo`` of lark's serialisation), with reductions that
    call ``build`` (set per parse). An input lark's parser refuses raises an exception."""

    def __init__(self, tables: dict[str, Any]) -> None:
        memo = tables["memo"]
        frontend = tables["data"]["parser"]
        table = frontend["parser"]
        names = table["tokens"]
        terminals = {term["name"]: term
                     for term in (memo[ref["@"]] for ref in frontend["lexer_conf"]["terminals"])}
        ignore = frozenset(frontend["lexer_conf"]["ignore"])
        made: dict[int, Reduction] = {}

        def reduction(ref: int) -> Reduction:
            found = made.get(ref)
            if found is None:
                rule = memo[ref]
                alone = (len(rule["expansion"]) == 1 and rule["options"]["expand1"]
                         and not rule["alias"] and not rule["origin"]["name"].startswith("_"))
                found = made[ref] = (len(rule["expansion"]), rule["origin"]["name"],
                                     None if alone else _reduction(rule, self))
            return found

        raw = table["states"]

        def actions(state: int) -> dict[str, tuple[bool, Any]]:
            return {names[kind]: (True, arg) if shift == 0 else (False, reduction(arg["@"]))
                    for kind, (shift, arg) in raw[state].items()}

        self._states = _Lazy(actions)  # a state's actions, made when first met
        self._accepts = _Lazy(lambda state: frozenset(
            k for k in self._states[state] if k in terminals) | ignore)
        self._terminals = terminals
        self._ignore = ignore
        self._lexers: dict[frozenset[str], _Lexer] = {}
        self._starts: dict[str, int] = table["start_states"]
        self._ends: dict[str, int] = table["end_states"]
        # (state below, state on top, terminal) -> the state on top after `?rule`s of one item
        self._unit_chains: dict[tuple[int, int, str], int] = {}
        self.build: Build = _unset

    def _lexer(self, state: int) -> _Lexer:
        accepts = self._accepts[state]
        lexer = self._lexers.get(accepts)
        if lexer is None:
            lexer = self._lexers[accepts] = _Lexer(
                [self._terminals[name] for name in sorted(accepts)], self._ignore)
        return lexer

    def parse(self, text: str, start: str, build: Build) -> Reduced:
        """The result of ``text`` by the rule ``start``; raises an exception if lark's parser
        would (not the same one), and whatever ``build`` raises."""
        before, self.build = self.build, build  # a build may parse a piece inside (reentrant)
        try:
            result = self._run(text, start)
        finally:
            self.build = before
        if type(result) is not Reduced:  # a lone token (no rule of this grammar gives one)
            raise TypeError("not a rule's result")
        return result

    def _tokens(self, text: str, stack: list[int]) -> Any:
        """The tokens of ``text``, each lexed in the state the parser is then in."""
        pos, line, line_start, size = 0, 1, 0, len(text)
        lexers: dict[int, _Lexer] = {}
        while pos < size:
            state = stack[-1]
            lexer = lexers.get(state) or lexers.setdefault(state, self._lexer(state))
            found = lexer.match(text, pos)
            if found is None:
                raise ValueError("no token here")
            kind = found.lastgroup
            value = found.group()
            assert kind is not None
            token = None
            if kind not in lexer.ignore:
                spelt = lexer.unless.get(kind)
                token = Token(value)
                token.type = spelt.get(value, kind) if spelt else kind
                token.line = line
                token.column = pos - line_start + 1
                if token.type == "NUMBER" and (len(value.lstrip("0")) > len(str(MAX_INT))
                                               or int(value) > MAX_INT):
                    raise ValueError("too large")
            if kind in lexer.newlines:
                count = value.count("\n")
                if count:
                    line += count
                    line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            if token is not None:
                yield token

    def _units(self, below: int, top: int, kind: str) -> int:
        """The state on top of ``below`` after the reductions of ``?rule`` of one item that
        ``kind`` makes in a row from ``top`` (each changes the state on top, not the value)."""
        key = (below, top, kind)
        found = self._unit_chains.get(key)
        if found is None:
            states = self._states
            found = top
            while True:
                shift, arg = states[found][kind]
                if shift or arg[2] is not None:
                    break
                found = states[below][arg[1]][1]
            self._unit_chains[key] = found
        return found

    def _run(self, text: str, start: str) -> Any:
        states = self._states
        units = self._unit_chains
        stack = [self._starts[start]]
        values: list[Any] = []
        end = self._ends[start]
        tokens = self._tokens(text, stack)
        while True:  # each token, then the end
            token = next(tokens, None)
            kind = "$END" if token is None else token.type
            while True:
                shift, arg = states[stack[-1]][kind]
                if shift:
                    if token is None:
                        raise ValueError("a shift at the end")
                    stack.append(arg)
                    values.append(token)
                    break
                size, origin, reduce = arg
                if reduce is None and token is not None:  # `?rule`s of one item, in a row
                    below = stack[-2]
                    top = units.get((below, stack[-1], kind))
                    stack[-1] = top if top is not None else self._units(below, stack[-1], kind)
                    continue
                if reduce is None:  # a `?rule` of one item: that item
                    stack.pop()
                    value = values.pop()
                else:
                    if size:
                        children = values[-size:]
                        del stack[-size:]
                        del values[-size:]
                    else:
                        children = []
                    value = reduce(children)
                stack.append(states[stack[-1]][origin][1])
                values.append(value)
                if token is None and stack[-1] == end:
                    return value


def _unset(name: str, pos: n.Pos, children: list[Any]) -> Any:  # pragma: no cover
    raise RuntimeError("no parse in progress")


__all__ = ["FastParser", "Reduced", "Token", "fast_parse"]
