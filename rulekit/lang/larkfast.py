"""The syntax tree built while lark parses, without lark's parse tree.

lark's LALR parser calls a function at each reduction of a grammar rule; the usual ones build
its ``Tree`` (dropping punctuation, splicing the helper rules of ``*`` and ``+``, expanding the
``?rule`` of one child, working out positions), which a ``Transformer`` then walks again to make
the nodes. :class:`FastParser` gives lark's parser functions that do all of that at once and
call the node maker (``build(name, pos, children)``) directly: the same nodes, with the same
positions (a node starts where its first piece of text starts, brackets included), in about
half the time. It also measures, as it goes, how deep the tree of lark's rules is, so that the
caller can refuse (or examine the slow way) code nested too deeply.

It relies on lark's parser, its tables and its lexer as they are (``lark.parsers.lalr_parser``);
anything that goes wrong here is for the caller to redo the usual way, which says what the
mistake is.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Lark, Token
from lark.lexer import LexerThread

from rulekit.lang import nodes as n

Build = Callable[[str, n.Pos, list[Any]], Any]


class Reduced:
    """What a reduction leaves on lark's stack: a value, where its text starts (None: no
    text), the height of the tree of lark's rules under it and the most ``block`` rules on
    one path down from it (both counted as in lark's tree)."""

    __slots__ = ("at", "blocks", "height", "value")

    def __init__(self, value: Any, at: tuple[int, int] | None, height: int,
                 blocks: int) -> None:
        self.value = value
        self.at = at
        self.height = height
        self.blocks = blocks


def _start(children: list[Any]) -> tuple[int, int] | None:
    for child in children:
        if type(child) is Reduced:
            if child.at is not None:
                return child.at
        else:
            return child.line, child.column
    return None


def _reduction(rule: Any, holder: FastParser) -> Callable[[list[Any]], Any]:
    """The function lark's parser calls to reduce ``rule``."""
    name = rule.alias or rule.origin.name
    keep_all = rule.options.keep_all_tokens
    kept = [(i, not sym.is_term and sym.name.startswith("_"))
            for i, sym in enumerate(rule.expansion)
            if keep_all or not (sym.is_term and sym.filter_out)]
    splice = name.startswith("_")
    expand_one = rule.options.expand1 and not rule.alias
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
        pos = n.Pos(*at) if at is not None else n.Pos(1, 1)
        return Reduced(holder.build(name, pos, values), at, height, blocks + block)

    return reduce


class _Position:
    """What lark's contextual lexer asks of the parser: the state it is in."""

    __slots__ = ("stack",)

    def __init__(self, stack: list[int]) -> None:
        self.stack = stack

    @property
    def position(self) -> int:
        return self.stack[-1]


class FastParser:
    """lark's LALR tables and lexer for ``lark``, driven here, with reductions that call
    ``build`` (set per parse). Any input lark's parser refuses raises an exception (which,
    for the caller, is the sign to parse again the usual way)."""

    def __init__(self, lark: Lark) -> None:
        from lark.parsers.lalr_analysis import Shift

        frontend = lark.parser
        self._frontend = frontend
        table = frontend.parser.parser.parse_table
        made: dict[int, tuple[int, str, Callable[[list[Any]], Any] | None]] = {}

        def reduction(rule: Any) -> tuple[int, str, Callable[[list[Any]], Any] | None]:
            found = made.get(id(rule))
            if found is None:
                alone = (len(rule.expansion) == 1 and rule.options.expand1 and not rule.alias
                         and not rule.origin.name.startswith("_"))
                found = made[id(rule)] = (len(rule.expansion), rule.origin.name,
                                          None if alone else _reduction(rule, self))
            return found

        self._states = {state: {term: (True, arg) if action is Shift else (False, reduction(arg))
                                for term, (action, arg) in actions.items()}
                        for state, actions in table.states.items()}
        self._starts = table.start_states
        self._ends = table.end_states
        self.build: Build = _unset

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

    def _run(self, text: str, start: str) -> Any:
        states = self._states
        stack = [self._starts[start]]
        values: list[Any] = []
        end = self._ends[start]
        thread: Any = LexerThread.from_text(self._frontend.lexer, text)
        tokens = thread.lex(_Position(stack))
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


__all__ = ["Build", "FastParser", "Reduced", "Token"]
