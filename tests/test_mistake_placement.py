"""Syntax mistakes in a pack are reported where they are made, as `rulekit validate` prints
them: the file, line and column, the line with a caret under the mistake, and a hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers_cli import Run, runner
from tests.test_designer_checks import ROOT, copy, edit

CARCHASE = ROOT / "games" / "carchase"


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    return runner(capsys)


MISTAKES = [
    ("if discard_limit <= 0 { return }", "if discard_limit <= 0 { return", [
        "flow.yaml:26:29: syntax error: this '{' is never closed",
        "          if discard_limit <= 0 { return",
        "                                ^",
        "hint: add the '}' that closes it"]),
    ("draw_cards(p, count(out))", "draw_cards(p, count(out)", [
        "flow.yaml:32:17: syntax error: this '(' is never closed",
        "          draw_cards(p, count(out)",
        "                    ^",
        "hint: add the ')' that closes it"]),
    ("sum([c.score for c in law_cards])", "sum([c.score for c in law_cards)", [
        "flow.yaml:46:23: syntax error: this '[' is never closed",
        "          law_total = sum([c.score for c in law_cards)",
        "                          ^",
        "hint: close it with ']' before the ')' at line 46, column 50"]),
    ('log "The Fugitive wins the {title} phase; the turn ends."',
     'log "The Fugitive wins the {title} phase; the turn ends.', [
        'flow.yaml:52:13: syntax error: this quote " is never closed',
        '            log "The Fugitive wins the {title} phase; the turn ends.',
        "                ^",
        'hint: end the text with " on the same line (a text in quotes cannot go on to the '
        "next line)"]),
    ("if law_total <= fugitive_total {", "if law_total = fugitive_total {", [
        "flow.yaml:51:20: syntax error: '=' sets a variable; a condition compares with '=='",
        "          if law_total = fugitive_total {",
        "                       ^",
        "hint: did you mean '=='?"]),
    ("setup: |\n  shuffle deck", "setup: @deck", [
        "flow.yaml:64:8: a YAML value cannot start with '@'",
        "    setup: @deck",
        "           ^",
        "hint: put the code in quotes (key: \"@id in hand\"), or write it on the next lines "
        "after 'key: |'"]),
    ('      log "The Law wins the {title} phase."', '    log "The Law wins the {title} phase."',
     ["flow.yaml:55:5: the block under 'do: |' ended early: this line is less indented than "
      "the lines above it",
      '        log "The Law wins the {title} phase."',
      "        ^",
      "hint: indent it by 6 spaces, like the lines of the block"]),
]


IDIOMS = [  # other languages' ways, in their authors' words
    ('hand." }\n      elif count(out) == 1', 'hand."\n      } else if count(out) == 1', [
        "flow.yaml:30:9: syntax error: 'else if' is written 'elif' here",
        '          } else if count(out) == 1 { log "{p} discards {out} face up and draws a '
        'replacement." }',
        "            ^",
        "hint: write } elif CONDITION {"]),
    ("elif count(out) == 1", "elsif count(out) == 1", [
        "flow.yaml:30:7: syntax error: 'elsif' is not a word of the language",
        '          elsif count(out) == 1 { log "{p} discards {out} face up and draws a '
        'replacement." }',
        "          ^",
        "hint: did you mean 'elif'?"]),
    ("if law_total <= fugitive_total {", "if law_total <= fugitive_total:", [
        "flow.yaml:51:37: syntax error: a block is written in braces, not after ':'",
        "          if law_total <= fugitive_total:",
        "                                        ^",
        "hint: write if CONDITION { ... }"]),
    ("if law_total <= fugitive_total {", "if law_total <= fugitive_total && true {", [
        "flow.yaml:51:38: syntax error: '&&' is not an operator of the language",
        "          if law_total <= fugitive_total && true {",
        "                                         ^",
        "hint: write 'and'"]),
    ("if law_total <= fugitive_total {", "if law_total <= fugitive_total || false {", [
        "flow.yaml:51:38: syntax error: '||' is not an operator of the language",
        "          if law_total <= fugitive_total || false {",
        "                                         ^",
        "hint: write 'or'"]),
    ("if law_total <= fugitive_total {", "if !(law_total > fugitive_total) {", [
        "flow.yaml:51:10: syntax error: '!' is not an operator of the language",
        "          if !(law_total > fugitive_total) {",
        "             ^",
        "hint: write 'not'"]),
    ("draw_cards(p, count(out))", "draw_cards", [  # a call without its brackets
        "flow.yaml:32:7: syntax error: 'draw_cards' alone is not a statement",
        "          draw_cards",
        "          ^",
        "hint: call a procedure with its arguments: draw_cards(...)"]),
]


@pytest.mark.parametrize(("old", "new", "expected"), MISTAKES + IDIOMS,
                         ids=["brace", "paren", "bracket", "quote", "equals", "at", "dedent",
                              "else-if", "elsif", "colon", "and", "or", "not", "bare"])
def test_a_syntax_mistake_is_reported_where_it_is(run: Run, tmp_path: Path, old: str, new: str,
                                                  expected: list[str]) -> None:
    folder = copy(tmp_path, CARCHASE)
    edit(folder / "flow.yaml", old, new)
    code, _, err = run("validate", folder)
    assert code == 1
    lines = err.splitlines()
    start = next(i for i, line in enumerate(lines) if line.endswith(expected[0]))
    assert lines[start].startswith(str(folder / "flow.yaml"))
    assert lines[start + 1:start + len(expected)] == expected[1:]
