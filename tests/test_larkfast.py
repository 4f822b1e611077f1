"""The syntax tree made from the shipped tables without lark (rulekit.lang.larkfast) is the one
lark's parse tree, transformed, gives: same nodes, same positions, for all the code of the
shipped packs and for every construct of the language; code with a mistake is said the usual
way, by lark."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import rulekit.lang.larkparse as larkparse
import rulekit.lang.parser as parser
from rulekit.errors import EffectSyntaxError
from rulekit.lang.larkfast import fast_parse
from rulekit.lang.parser import Snippet, plain_snippet
from rulekit.pack.loader import load_pack
from rulekit.stored import switched_off


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


def test_the_shipped_packs_give_the_same_trees(monkeypatch: pytest.MonkeyPatch) -> None:
    met: list[tuple[Snippet, str]] = []
    parse = parser._parse_new

    def recording(snippet: Snippet, start: str) -> Any:
        met.append((snippet, start))
        return parse(snippet, start)

    monkeypatch.setattr(parser, "_parse_new", recording)
    with switched_off():  # every text parsed, none read from the store
        for pack in ("carchase", "rednotice"):
            load_pack(pack, checked_only=True)
    assert len(met) > 100
    differ = [snippet.text for snippet, start in met
              if fast(snippet, start) != usual(snippet, start)]
    assert differ == []


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
