"""The syntax tree made from the shipped tables without lark (rulekit.lang.larkfast) is the one
lark's parse tree, transformed, gives: same nodes, same positions, for all the code of the
shipped packs and for every construct of the language; code with a mistake is said the usual
way, by lark."""

from __future__ import annotations

import pickle
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml

import rulekit.lang.larkparse as larkparse
import rulekit.lang.parser as parser
from rulekit.errors import EffectSyntaxError
from rulekit.lang.larkfast import fast_parse
from rulekit.lang.parser import Snippet, plain_snippet
from tests.fuzzing import _TOKEN, CODE_KEYS, CODE_TOKENS


def usual(snippet: Snippet, start: str) -> Any:
    return larkparse._transform(snippet, larkparse._parse(snippet, start))


def fast(snippet: Snippet, start: str) -> Any:
    made = fast_parse(snippet, start)
    assert made is not None
    assert b"larkfast" not in pickle.dumps(made)  # no token of its own left in the tree
    return made


CONSTRUCTS = [
    ("start", ""),
    ("start", "# only a comment\n"),
    ("start", "let x = (1 + 2) * -3 // 4 % 5\nx += 1; x -= 2;;"),
    ("start", "if a and not b or c { pass } elif (d) { break } else { continue }"),
    ("start", "for c in [1, 2, 3,] { log \"n {c} {{x}}\" to p }\nwhile x < 3 { return }"),
    ("start", "repeat 2 { end_round }\nmove all from z[1] to z[2] bottom\nmove x from a to b top"),
    ("start", "draw 2 from deck to hand[p]\nshuffle deck\nf(1, g(2))\nh()\nwin p 'why'\nwin q"),
    ("start", "simultaneous {\n  let a = choose p one of xs where it > 1 else \"no {it}\"\n"
              "  let b = choose q subset of ys min 1 max 2 at most 1 where it.k == 2 "
              "optional prompt \"pick\" label \"{it}\" as y\n}"),
    ("start", "t[i + 1] = choose p one of [c for c in xs if c != @card#2]"),
    ("expr_start", "(a)"),
    ("expr_start", "  (a + b) * c.d[e] not in [true, false, none, \"s\", 'q']"),
    ("expr_start", "x <= 1 or y >= 2 and z == 3 or w > 4 and v < 5"),
    ("expr_start", "[]"),
    # the lexer of each state: a keyword the state does not take is a name; '-' and '=' are
    # read as the state expects them
    ("start", "let x = 1 +\nlet y = 2"),
    ("start", "a = b - -c\nd -= 1\ne += f[g - 1]\nlet h = -(i)"),
]


@pytest.mark.parametrize(("start", "text"), CONSTRUCTS)
def test_every_construct_gives_the_same_tree(start: str, text: str) -> None:
    snippet = plain_snippet(text)
    assert fast(snippet, start) == usual(snippet, start)


ROOT = Path(__file__).resolve().parent.parent


@cache
def _shipped_texts() -> list[str]:
    """Every piece of code in the shipped packs' files (their scenarios too)."""
    found: set[str] = set()

    def walk(node: object, code: bool = False) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(value, key in CODE_KEYS)
        elif isinstance(node, list):
            for value in node:
                walk(value, code)
        elif isinstance(node, str) and code:
            found.add(node)

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for path in sorted((ROOT / "games").glob("**/*.yaml")):
        walk(yaml.load(path.read_text("utf-8"), Loader=loader))
    return sorted(found)


def _same_or_refused(text: str, start: str) -> bool:
    """Whether larkfast reads ``text`` as lark does: the same tree, or refused by both (then
    larkfast gives it up to lark); True when lark reads it."""
    snippet = plain_snippet(text)
    try:
        expected = usual(snippet, start)
    except EffectSyntaxError:
        assert fast_parse(snippet, start) is None, text
        return False
    assert fast(snippet, start) == expected, text
    return True


def _rules(text: str) -> tuple[str, ...]:
    """Statements; and an expression, for a text of one line."""
    return ("start", "expr_start") if "\n" not in text.strip() else ("start",)


def test_the_shipped_packs_give_the_same_trees() -> None:
    read = [text for text in _shipped_texts() for start in _rules(text)
            if _same_or_refused(text, start)]
    assert len(read) > 300


@pytest.mark.parametrize(("text", "where", "says"), [
    ("let x = (1 +\nlet y = 2", (1, 9), "'(' is never closed"),
    ("let x = 1 +\n}", (2, 1), "'}' closes nothing"),
    ("log \"a {b\"", (1, 8), "unclosed '{'"),
    ("let x = 99999999999999999999999", (1, 9), "too large"),
])
def test_a_mistake_is_said_at_its_place(text: str, where: tuple[int, int], says: str) -> None:
    assert fast_parse(plain_snippet(text), "start") is None  # parsed again, by lark
    with pytest.raises(EffectSyntaxError) as caught:
        parser.parse_block(plain_snippet(text))
    location = caught.value.location
    assert location is not None
    assert (location.line, location.column) == where
    assert says in caught.value.message


def test_mutants_of_the_shipped_code_are_refused_or_read_as_lark_reads_them() -> None:
    """Texts of the shipped packs with a token inserted, deleted or replaced."""
    texts = _shipped_texts()
    rng = random.Random(8)
    outcomes = []
    for _ in range(300):
        text = rng.choice(texts)
        tokens = list(_TOKEN.finditer(text))
        if not tokens:
            continue
        token = rng.choice(tokens)
        new = rng.choice(["", *CODE_TOKENS, f" {token.group()} {rng.choice(CODE_TOKENS)}"])
        mutant = f"{text[:token.start()]}{new}{text[token.end():]}"
        outcomes += [_same_or_refused(mutant, start) for start in _rules(mutant)]
    assert outcomes.count(True) > 50 and outcomes.count(False) > 50
