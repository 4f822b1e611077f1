"""Say where the mistake behind a syntax error is, in the words of the person who made it.

The LALR parser notices a mistake where it can no longer go on, which is often far from the
mistake itself: an unclosed ``{`` is noticed at the end of the text, an unclosed ``(`` at the
next statement. :func:`explain` looks at the text again once a parse has failed and, when it
recognises the mistake (a bracket never closed, a quote never closed, ``=`` written for ``==``),
gives the error at the place of the mistake, with a hint; otherwise it gives None and the
parser's own message stands.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rulekit.errors import EffectSyntaxError, Location

_CLOSERS = {"(": ")", "[": "]", "{": "}"}
_OPENERS = {close: open_ for open_, close in _CLOSERS.items()}


@dataclass(frozen=True)
class _Mark:
    """One character of the text: what it is and where (1-based)."""

    char: str
    line: int
    column: int


def explain(text: str, exc: UnexpectedInput,
            locate: Callable[[int, int], Location]) -> EffectSyntaxError | None:
    """A better-placed error for the failed parse of ``text``, or None."""
    if isinstance(exc, UnexpectedToken) and exc.token.value == "=" and \
            "LESSTHAN" in exc.expected:
        return EffectSyntaxError(
            "syntax error: '=' sets a variable; a condition compares with '=='",
            locate(exc.token.line or 1, exc.token.column or 1), "did you mean '=='?")
    problem = _unbalanced(text)
    if problem is None:
        return None
    mark, message, hint, closer = problem
    if closer is not None:
        where = locate(closer.line, closer.column)
        hint += f" before the '{closer.char}' at line {where.line}, column {where.column}"
    return EffectSyntaxError(message, locate(mark.line, mark.column), hint)


def _unbalanced(text: str) -> tuple[_Mark, str, str, _Mark | None] | None:
    """The first quote never closed, bracket closed by the wrong kind, or bracket never
    closed in ``text`` (strings and comments skipped), with a message, a hint and the
    closing bracket of the wrong kind, if that is the mistake."""
    stack: list[_Mark] = []
    for mark in _code_marks(text):
        if mark.char in "\"'":
            return (mark, f"syntax error: this quote {mark.char} is never closed",
                    f"end the text with {mark.char} on the same line (a text in quotes "
                    "cannot go on to the next line)", None)
        if mark.char in _CLOSERS:
            stack.append(mark)
        elif not stack:
            return (mark, f"syntax error: this '{mark.char}' closes nothing",
                    f"remove it, or add the '{_OPENERS[mark.char]}' it closes", None)
        elif _CLOSERS[stack[-1].char] != mark.char:
            opener = stack[-1]
            return (opener, f"syntax error: this '{opener.char}' is never closed",
                    f"close it with '{_CLOSERS[opener.char]}'", mark)
        else:
            stack.pop()
    if stack:
        opener = stack[-1]
        return (opener, f"syntax error: this '{opener.char}' is never closed",
                f"add the '{_CLOSERS[opener.char]}' that closes it", None)
    return None


def _code_marks(text: str) -> list[_Mark]:
    """The brackets of ``text`` outside texts in quotes and comments, and the opening quote
    of a text that is never closed (and nothing after it)."""
    marks: list[_Mark] = []
    for number, line in enumerate(text.splitlines(), start=1):
        i = 0
        while i < len(line):
            ch = line[i]
            if ch in "\"'":
                end = _closing_quote(line, i)
                if end < 0:
                    marks.append(_Mark(ch, number, i + 1))
                    return marks
                i = end
            elif ch == "#" and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
                break  # a comment (a '#' right after a name is a card's copy number)
            elif ch in "()[]{}":
                marks.append(_Mark(ch, number, i + 1))
            i += 1
    return marks


def _closing_quote(line: str, start: int) -> int:
    """The index of the quote that closes the one at ``start``, or -1."""
    quote = line[start]
    i = start + 1
    while i < len(line):
        if line[i] == "\\":
            i += 2
            continue
        if line[i] == quote:
            return i
        i += 1
    return -1


_TOKEN_WORDS = {
    "LBRACE": "'{'", "RBRACE": "'}'", "LPAR": "'('", "RPAR": "')'", "LSQB": "'['",
    "RSQB": "']'", "COMMA": "','", "DOT": "'.'", "SEMICOLON": "';'", "NAME": "a name",
    "NUMBER": "a number", "STRING": "a text in quotes", "CARD": "a card (@id)",
    "ASSIGN_OP": "'=' or '+='", "COMP_OP": "a comparison", "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '//' or '%'", "EQUAL": "'='", "MINUS": "'-'", "$END": "the end of the text",
}


_STATEMENT_WORDS = {"LET", "IF", "FOR", "WHILE", "REPEAT", "MOVE", "DRAW", "SHUFFLE",
                    "SIMULTANEOUS", "WIN", "LOG", "BREAK", "CONTINUE", "RETURN", "END_ROUND",
                    "PASS"}


def _describe_expected(expected: set[str]) -> str:
    """The expected tokens in words: punctuation first, then values, then keywords."""
    names = set(expected)
    statement = len(names & _STATEMENT_WORDS) >= 4
    if statement:
        names -= _STATEMENT_WORDS
    punctuation, values, keywords = [], [], []
    for name in names:
        word = _TOKEN_WORDS.get(name)
        if word is not None and word.startswith("'"):
            punctuation.append(word)
        elif word is not None:
            values.append(word)
        elif name.isupper() and name.replace("_", "").isalpha():
            keywords.append(f"'{name.lower()}'")
    words = sorted(set(punctuation)) + sorted(set(values))
    if statement:
        words.append("a statement")
    words += sorted(set(keywords))
    if len(words) > 10:
        words = [*words[:10], "..."]
    return ", ".join(words)


def syntax_error(text: str, exc: UnexpectedInput,
                 locate: Callable[[int, int], Location]) -> EffectSyntaxError:
    """The error to show for lark's ``exc`` on ``text``.

    It is the mistake at its place if :func:`explain` knows it. Else it is where the parser
    stopped, with what it expected.
    """
    placed = explain(text, exc, locate)
    if placed is not None:
        return placed
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        if tok.type == "$END":
            lines = text.rstrip().splitlines() or [""]
            line, column = len(lines), len(lines[-1]) + 1
            what = "unexpected end of text"
        else:
            what = f"unexpected {tok.value!r}"
        message = f"syntax error: {what}; expected {_describe_expected(set(exc.expected))}"
    elif isinstance(exc, UnexpectedCharacters):
        index = exc.pos_in_stream or 0
        ch = text[index] if index < len(text) else "?"
        message = f"syntax error: unexpected character {ch!r}"
    elif isinstance(exc, UnexpectedEOF):
        message = "syntax error: unexpected end of text"
    else:  # pragma: no cover - lark has no other kinds today
        message = f"syntax error: {exc}"
    return EffectSyntaxError(message, locate(line, column))
