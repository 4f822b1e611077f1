"""Place a syntax error at the mistake behind it, in the words of its author."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

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
    return _idiom(text, locate) or _unbalanced(text, locate) or _bare_name(text, exc, locate)


_NAME_ALONE = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:#.*)?$")


def _bare_name(text: str, exc: UnexpectedInput,
               locate: Callable[[int, int], Location]) -> EffectSyntaxError | None:
    """A name alone on the line the parser stopped at, or the one before: a call lacking ()."""
    if not isinstance(exc, UnexpectedToken):
        return None
    lines = text.splitlines()
    stop = exc.token.line if isinstance(exc.token.line, int) else len(lines)
    for number in (stop, stop - 1):
        found = _NAME_ALONE.match(lines[number - 1]) if 0 < number <= len(lines) else None
        if found is not None and found.group(1) not in ("pass", "break", "continue",
                                                         "end_round", "return"):
            name = found.group(1)
            return EffectSyntaxError(f"syntax error: '{name}' alone is not a statement",
                                     locate(number, found.start(1) + 1),
                                     f"call a procedure with its arguments: {name}(...)")
    return None


# Other languages' ways, each with what to say of it and what to write instead.
_IDIOMS = [
    (re.compile(r"\}\s*(else\s+if)\b"), "'else if' is written 'elif' here",
     "write } elif CONDITION {"),
    (re.compile(r"(?:^|[\s}])(elsif|elseif|else_if|elif_|elsf|elfi|eles)\b"), None,
     "did you mean 'elif'?"),
    (re.compile(r"^\s*(?:if|elif|else|while|for|repeat)\b[^{]*?(:)"),
     "a block is written in braces, not after ':'", "write if CONDITION { ... }"),
    (re.compile(r"(&&)"), "'&&' is not an operator of the language", "write 'and'"),
    (re.compile(r"(\|\|)"), "'||' is not an operator of the language", "write 'or'"),
    (re.compile(r"(!)(?!=)"), "'!' is not an operator of the language", "write 'not'"),
]


def _idiom(text: str, locate: Callable[[int, int], Location]) -> EffectSyntaxError | None:
    """The first of another language's ways in the code of ``text`` (not in texts or comments)."""
    for number, line in enumerate(text.splitlines(), start=1):
        code = _code(line)
        for pattern, message, hint in _IDIOMS:
            found = pattern.search(code)
            if found is not None:
                said = message or f"'{found.group(1)}' is not a word of the language"
                return EffectSyntaxError(f"syntax error: {said}",
                                         locate(number, found.start(1) + 1), hint)
    return None


def _code(line: str) -> str:
    """A line with its texts in quotes blanked out and its comment cut off."""
    code = _TEXT.sub(lambda found: " " * len(found.group()), line)
    comment = _COMMENT.search(code)
    return code[:comment.start()] if comment else code


_TEXT = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")
# The '#' of a comment (right after a name, it is a card's copy number instead).
_COMMENT = re.compile(r"(?<!\w)#")


def _unbalanced(text: str, locate: Callable[[int, int], Location]
                ) -> EffectSyntaxError | None:
    """The first bracket or quote left open or closed by the wrong kind, outside texts."""
    stack: list[_Mark] = []
    for mark in _code_marks(text):
        if mark.char in "\"'":
            return EffectSyntaxError(
                f"syntax error: this quote {mark.char} is never closed",
                locate(mark.line, mark.column), f"end the text with {mark.char} on the same line "
                "(a text in quotes cannot go on to the next line)")
        if mark.char in _CLOSERS:
            stack.append(mark)
        elif not stack:
            return EffectSyntaxError(
                f"syntax error: this '{mark.char}' closes nothing", locate(mark.line, mark.column),
                f"remove it, or add the '{_OPENERS[mark.char]}' it closes")
        elif _CLOSERS[stack[-1].char] != mark.char:
            where = locate(mark.line, mark.column)
            return _never_closed(stack[-1], locate, f"close it with '{_CLOSERS[stack[-1].char]}' "
                                 f"before the '{mark.char}' at line {where.line}, column "
                                 f"{where.column}")
        else:
            stack.pop()
    if stack:
        opener = stack[-1]
        return _never_closed(opener, locate, f"add the '{_CLOSERS[opener.char]}' that closes it")
    return None


def _never_closed(opener: _Mark, locate: Callable[[int, int], Location], hint: str
                  ) -> EffectSyntaxError:
    return EffectSyntaxError(f"syntax error: this '{opener.char}' is never closed",
                             locate(opener.line, opener.column), hint)


def _code_marks(text: str) -> list[_Mark]:
    """The brackets of ``text`` outside texts and comments, up to a quote left open."""
    marks: list[_Mark] = []
    for number, line in enumerate(text.splitlines(), start=1):
        for found in re.finditer(r"""[()\[\]{}"']""", _code(line)):
            marks.append(_Mark(found.group(), number, found.start() + 1))
            if found.group() in "\"'":
                return marks
    return marks


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
    found = {word for word in map(_in_words, names) if word is not None}
    if statement:
        found.add((2, "a statement"))
    words = [word for _, word in sorted(found)]
    if len(words) > 10:
        words = [*words[:10], "..."]
    return ", ".join(words)


def _in_words(name: str) -> tuple[int, str] | None:
    """A token's name in words, with its group: 0 punctuation, 1 values, 3 keywords."""
    word = _TOKEN_WORDS.get(name)
    if word is not None:
        return (0 if word.startswith("'") else 1, word)
    if name.isupper() and name.replace("_", "").isalpha():
        return (3, f"'{name.lower()}'")
    return None


def syntax_error(text: str, exc: UnexpectedInput,
                 locate: Callable[[int, int], Location]) -> EffectSyntaxError:
    """The error to show for lark's ``exc`` on ``text``."""
    placed = explain(text, exc, locate)
    if placed is not None:
        return placed
    line = getattr(exc, "line", 1) or 1
    column = getattr(exc, "column", 1) or 1
    if isinstance(exc, UnexpectedToken):
        message, line, column = _unexpected_token(text, exc, line, column)
    elif isinstance(exc, UnexpectedCharacters):
        index = exc.pos_in_stream or 0
        ch = text[index] if index < len(text) else "?"
        message = f"syntax error: unexpected character {ch!r}"
    else:
        message = "syntax error: unexpected end of text"
    return EffectSyntaxError(message, locate(line, column))


def _unexpected_token(text: str, exc: UnexpectedToken, line: int, column: int
                      ) -> tuple[str, int, int]:
    """The message for an unexpected token, with its line and column."""
    if exc.token.type == "$END":
        lines = text.rstrip().splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
        what = "unexpected end of text"
    else:
        what = f"unexpected {exc.token.value!r}"
    return f"syntax error: {what}; expected {_describe_expected(set(exc.expected))}", line, column
