"""The LALR tables shipped with rulekit (``rulekit/lang/lalrtables.pickle``) are those of
``grammar.lark``: a parser made from them parses every text as one built from the grammar does.

After an edit of the grammar (or an upgrade of lark), regenerate them with
``python -m rulekit.lang.larkbuild``.
"""

from __future__ import annotations

import io
from pathlib import Path

import lark
import pytest
import yaml
from lark import Lark
from lark.exceptions import UnexpectedInput

from rulekit.lang.larkbuild import (
    OPTIONS,
    TABLES_FILE,
    _PlainData,
    grammar_digest,
    lalr_parser,
    shipped_tables,
)
from rulekit.lang.parser import grammar_text

ROOT = Path(__file__).resolve().parent.parent
REGENERATE = "regenerate them: python -m rulekit.lang.larkbuild"
MISTAKES = ["let x = ", "x = (1 + 2", "if x { y = 1", "x = 1 +* 2", "move from to", "x == 1",
            'log "unclosed', "for in [1] { pass }", "x = $", "f(1,, 2)", "}"]


def _texts() -> list[str]:
    """Every text of the shipped packs' own files (not their scenarios): each is parsed by both
    parsers, as statements and as an expression."""
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, str):
            found.add(node)

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    for path in sorted((ROOT / "games").glob("*/*.yaml")):
        walk(yaml.load(path.read_text("utf-8"), Loader=loader))
    return sorted(found)


def _outcome(parser: Lark, text: str, start: str) -> object:
    try:
        return parser.parse(text, start=start)
    except UnexpectedInput as exc:
        expected = getattr(exc, "expected", None) or getattr(exc, "allowed", None)
        return (type(exc).__name__, exc.line, exc.column, sorted(expected or ()))


def _stamp() -> dict[str, object]:
    found = _PlainData(io.BytesIO(TABLES_FILE.read_bytes())).load()
    assert isinstance(found, dict)
    return found


def test_the_shipped_tables_are_of_this_grammar() -> None:
    assert _stamp()["grammar"] == grammar_digest(grammar_text()), REGENERATE


def test_the_shipped_tables_are_used_with_the_lark_they_were_made_by() -> None:
    made_by = _stamp()["lark"]
    if made_by != lark.__version__:
        # another lark (CI installs the newest): the parser is built from the grammar instead,
        # which stays correct; only the time saved is lost until the tables are made again
        assert shipped_tables(grammar_text()) is None
        assert lalr_parser().source_path != "<deserialized>"
        pytest.skip(f"tables made by lark {made_by}, this is lark {lark.__version__}: "
                    + REGENERATE)
    assert shipped_tables(grammar_text()) is not None, REGENERATE
    assert lalr_parser().source_path == "<deserialized>"  # loaded, not built


def test_a_grammar_edit_makes_them_unused() -> None:
    assert shipped_tables(grammar_text() + "\n// edited\n") is None


@pytest.mark.skipif(shipped_tables(grammar_text()) is None, reason=REGENERATE)
def test_the_shipped_parser_parses_as_one_built_from_the_grammar() -> None:
    shipped = lalr_parser()
    built = Lark(grammar_text(), **OPTIONS)
    texts = _texts()
    assert len(texts) > 200
    parsed = 0
    for text in [*texts, *MISTAKES]:
        for start in OPTIONS["start"]:
            expected = _outcome(built, text, start)
            assert _outcome(shipped, text, start) == expected, (text, start)
            parsed += isinstance(expected, lark.Tree)
    assert parsed > 100
