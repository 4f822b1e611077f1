"""Tests of the effect language: the parser, the static checker and what programs do when run.

Checker and runtime tests build tiny packs in pytest's ``tmp_path`` (see ``helpers_lang``) and
go through ``load_pack`` and the ``Game`` forward model, as an author's pack would.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from helpers_lang import (
    BASE,
    CARDS,
    content,
    load,
    load_errors,
    locate,
    logs,
    plain_snippet,
    run,
)

from rulekit.errors import (
    EffectCheckError,
    EffectSyntaxError,
    GameRuntimeError,
    IllegalActionError,
    PackError,
    PackErrors,
)
from rulekit.lang import nodes as n
from rulekit.lang.checker import Checker
from rulekit.lang.parser import parse_block, parse_expression

# ================================================================== parser


def parse(text: str) -> list[n.Stmt]:
    return parse_block(plain_snippet(text))


def parse1(text: str) -> n.Stmt:
    stmts = parse(text)
    assert len(stmts) == 1, stmts
    return stmts[0]


def expr(text: str) -> n.Expr:
    return parse_expression(plain_snippet(text))


def pos(node: n.Expr | n.Stmt) -> tuple[int, int]:
    return node.pos.line, node.pos.column


class TestStatements:
    def test_let(self) -> None:
        stmt = parse1("let x = 1")
        assert isinstance(stmt, n.Let)
        assert stmt.name == "x"
        assert isinstance(stmt.value, n.Literal) and stmt.value.value == 1
        assert pos(stmt) == (1, 1)
        assert pos(stmt.value) == (1, 9)

    @pytest.mark.parametrize("op", ["=", "+=", "-="])
    def test_assign_operators(self, op: str) -> None:
        stmt = parse1(f"total {op} 2")
        assert isinstance(stmt, n.Assign)
        assert (stmt.name, stmt.op, stmt.index) == ("total", op, None)
        assert isinstance(stmt.value, n.Literal) and stmt.value.value == 2

    def test_assign_to_a_per_role_variable(self) -> None:
        stmt = parse1("bonus[other(p)] += 1")
        assert isinstance(stmt, n.Assign)
        assert stmt.name == "bonus" and stmt.op == "+="
        assert isinstance(stmt.index, n.Call) and stmt.index.func == "other"

    def test_if_elif_else(self) -> None:
        stmt = parse1("if x < 1 { pass } elif x < 2 { y = 1 } elif x < 3 { } else { y = 3 }")
        assert isinstance(stmt, n.If)
        assert len(stmt.branches) == 3
        conds = [c for c, _ in stmt.branches]
        assert all(isinstance(c, n.Binary) and c.op == "<" for c in conds)
        assert [c.right.value for c in conds] == [1, 2, 3]  # type: ignore[attr-defined]
        bodies = [b for _, b in stmt.branches]
        assert isinstance(bodies[0][0], n.Pass)
        assert isinstance(bodies[1][0], n.Assign)
        assert bodies[2] == []
        assert stmt.otherwise is not None and isinstance(stmt.otherwise[0], n.Assign)

    def test_if_without_else(self) -> None:
        stmt = parse1("if done { pass }")
        assert isinstance(stmt, n.If)
        assert len(stmt.branches) == 1 and stmt.otherwise is None

    def test_for(self) -> None:
        stmt = parse1("for c in hand[p] { move c from hand[p] to discard }")
        assert isinstance(stmt, n.For)
        assert stmt.var == "c"
        assert isinstance(stmt.iterable, n.Index)
        assert isinstance(stmt.iterable.obj, n.Name) and stmt.iterable.obj.ident == "hand"
        assert len(stmt.body) == 1 and isinstance(stmt.body[0], n.Move)

    def test_while_and_repeat(self) -> None:
        loop, rep = parse("while count(deck) > 0 { draw 1 from deck to discard }\n"
                          "repeat n + 1 { total += 1 }")
        assert isinstance(loop, n.While) and isinstance(loop.condition, n.Binary)
        assert isinstance(loop.body[0], n.Draw)
        assert isinstance(rep, n.Repeat) and isinstance(rep.count, n.Binary)
        assert rep.count.op == "+"
        assert isinstance(rep.body[0], n.Assign)

    @pytest.mark.parametrize(
        ("text", "cards", "bottom"),
        [
            ("move all from deck to discard", None, False),
            ("move c from deck to discard", n.Name, False),
            ("move c from deck to discard top", n.Name, False),
            ("move [@c1, @c2] from deck to discard bottom", n.ListLit, True),
        ],
    )
    def test_move(self, text: str, cards: type | None, bottom: bool) -> None:
        stmt = parse1(text)
        assert isinstance(stmt, n.Move)
        if cards is None:
            assert stmt.cards is None
        else:
            assert isinstance(stmt.cards, cards)
        assert isinstance(stmt.source, n.Name) and stmt.source.ident == "deck"
        assert isinstance(stmt.dest, n.Name) and stmt.dest.ident == "discard"
        assert stmt.to_bottom is bottom

    def test_draw_and_shuffle(self) -> None:
        draw, shuffle = parse("draw 2 from deck to hand[a]; shuffle deck")
        assert isinstance(draw, n.Draw)
        assert isinstance(draw.count, n.Literal) and draw.count.value == 2
        assert isinstance(draw.source, n.Name) and draw.source.ident == "deck"
        assert isinstance(draw.dest, n.Index)
        assert isinstance(shuffle, n.Shuffle)
        assert isinstance(shuffle.zone, n.Name) and shuffle.zone.ident == "deck"

    def test_procedure_calls(self) -> None:
        with_args, without = parse("refill(p, n - 1)\ntick()")
        assert isinstance(with_args, n.CallStmt)
        assert with_args.proc == "refill" and len(with_args.args) == 2
        assert isinstance(without, n.CallStmt)
        assert without.proc == "tick" and without.args == []

    def test_simultaneous(self) -> None:
        stmt = parse1("simultaneous {\n"
                      "  let x = choose a one of [1, 2]\n"
                      "  let y = choose b subset of hand[b]\n"
                      "}")
        assert isinstance(stmt, n.Simultaneous)
        assert [b.name for b in stmt.bindings] == ["x", "y"]
        kinds = [b.value.kind for b in stmt.bindings]  # type: ignore[attr-defined]
        assert kinds == ["one", "subset"]
        assert [pos(b) for b in stmt.bindings] == [(2, 3), (3, 3)]

    def test_win(self) -> None:
        with_reason, without = parse('win a "Alice is rich"\nwin other(a)')
        assert isinstance(with_reason, n.Win) and with_reason.reason is not None \
            and with_reason.reason.parts == ["Alice is rich"]
        assert isinstance(with_reason.winner, n.Name)
        assert isinstance(without, n.Win) and without.reason is None
        assert isinstance(without.winner, n.Call)

    def test_log_parts_and_recipient(self) -> None:
        stmt = parse1('log "Hi {p} and {{x}} {count(deck)}" to a')
        assert isinstance(stmt, n.Log)
        assert stmt.parts[0] == "Hi "
        assert isinstance(stmt.parts[1], n.Name) and stmt.parts[1].ident == "p"
        assert stmt.parts[2] == " and {x} "
        assert isinstance(stmt.parts[3], n.Call) and stmt.parts[3].func == "count"
        assert isinstance(stmt.to, n.Name) and stmt.to.ident == "a"
        # Expressions inside the text keep their own columns in the source.
        assert pos(stmt.parts[1]) == (1, 10)
        assert pos(stmt.parts[3]) == (1, 24)

    def test_log_without_expressions(self) -> None:
        stmt = parse1("log 'plain text'")
        assert isinstance(stmt, n.Log)
        assert stmt.parts == ["plain text"] and stmt.to is None

    @pytest.mark.parametrize(
        ("text", "kind"),
        [("break", n.Break), ("continue", n.Continue), ("return", n.Return),
         ("end_round", n.EndRound), ("pass", n.Pass)],
    )
    def test_simple_statements(self, text: str, kind: type) -> None:
        stmt = parse1(text)
        assert type(stmt) is kind

    def test_empty_statements_and_comments_vanish(self) -> None:
        stmts = parse(";; pass ;\n# a comment\nlet x = 1  # trailing comment\n\n;")
        assert [type(s) for s in stmts] == [n.Pass, n.Let]
        assert pos(stmts[1]) == (3, 1)

    def test_one_choice_with_every_option(self) -> None:
        stmt = parse1('let c = choose a one of deck as card where card.score > 1 optional '
                      'prompt "Pick one"')
        assert isinstance(stmt, n.Let)
        choice = stmt.value
        assert isinstance(choice, n.Choice)
        assert choice.kind == "one" and choice.var == "card"
        assert isinstance(choice.player, n.Name) and choice.player.ident == "a"
        assert isinstance(choice.source, n.Name) and choice.source.ident == "deck"
        assert isinstance(choice.where, n.Binary) and choice.where.op == ">"
        assert choice.optional is True
        assert choice.prompt is not None and choice.prompt.parts == ["Pick one"]
        assert choice.min is None and choice.max is None and choice.at_most == []

    def test_subset_choice_constraints(self) -> None:
        stmt = parse1('x = choose b subset of hand[b] min 1 max n at most 1 where it.kind == "x" '
                      "at most 2 where it.score > 4")
        assert isinstance(stmt, n.Assign)
        choice = stmt.value
        assert isinstance(choice, n.Choice)
        assert choice.kind == "subset" and choice.var == "it"
        assert isinstance(choice.min, n.Literal) and choice.min.value == 1
        assert isinstance(choice.max, n.Name) and choice.max.ident == "n"
        assert [type(r) for r in choice.at_most] == [n.AtMost, n.AtMost]
        limits = [r.limit.value for r in choice.at_most]  # type: ignore[attr-defined]
        assert limits == [1, 2]
        assert all(isinstance(r.condition, n.Binary) for r in choice.at_most)
        assert choice.optional is False and choice.prompt is None


class TestExpressions:
    def test_precedence_of_arithmetic(self) -> None:
        e = expr("1 + 2 * 3")
        assert isinstance(e, n.Binary) and e.op == "+"
        assert isinstance(e.right, n.Binary) and e.right.op == "*"

    def test_left_associativity(self) -> None:
        e = expr("10 - 2 - 3")
        assert isinstance(e, n.Binary) and e.op == "-"
        assert isinstance(e.left, n.Binary) and e.left.op == "-"
        assert isinstance(e.right, n.Literal) and e.right.value == 3

    def test_precedence_of_logic(self) -> None:
        e = expr("not a and b or c == 1")
        assert isinstance(e, n.Binary) and e.op == "or"
        assert isinstance(e.left, n.Binary) and e.left.op == "and"
        assert isinstance(e.left.left, n.Unary) and e.left.left.op == "not"
        assert isinstance(e.right, n.Binary) and e.right.op == "=="

    @pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">=", "in", "not in"])
    def test_comparisons(self, op: str) -> None:
        e = expr(f"x {op} y")
        assert isinstance(e, n.Binary) and e.op == op

    def test_unary_attr_index_call(self) -> None:
        e = expr("-x.score + f(1, 2)[0]")
        assert isinstance(e, n.Binary)
        assert isinstance(e.left, n.Unary) and e.left.op == "-"
        assert isinstance(e.left.operand, n.Attr) and e.left.operand.attr == "score"
        assert isinstance(e.right, n.Index)
        assert isinstance(e.right.obj, n.Call) and e.right.obj.func == "f"
        assert len(e.right.obj.args) == 2

    def test_literals(self) -> None:
        assert expr("42").value == 42  # type: ignore[attr-defined]
        assert expr("true").value is True  # type: ignore[attr-defined]
        assert expr("false").value is False  # type: ignore[attr-defined]
        assert expr("none").value is None  # type: ignore[attr-defined]
        assert expr(r'"a\"b\n"').value == 'a"b\n'  # type: ignore[attr-defined]
        assert expr("'single'").value == "single"  # type: ignore[attr-defined]
        card = expr("@token_1#2")
        assert isinstance(card, n.CardLit) and card.card_id == "token_1#2"

    def test_lists_and_comprehensions(self) -> None:
        lit = expr("[1, 2, 3,]")
        assert isinstance(lit, n.ListLit) and len(lit.items) == 3
        empty = expr("[]")
        assert isinstance(empty, n.ListLit) and empty.items == []
        comp = expr('[c.score for c in deck if c.kind == "x"]')
        assert isinstance(comp, n.Comprehension)
        assert comp.var == "c" and isinstance(comp.element, n.Attr)
        assert isinstance(comp.condition, n.Binary)
        plain = expr("[c for c in deck]")
        assert isinstance(plain, n.Comprehension) and plain.condition is None

    def test_positions_across_lines(self) -> None:
        let, cond = parse("let x = 1\nif x > 0 {\n  y = 2\n} elif x < 0 { y -= 1 } else { pass }")
        assert pos(let) == (1, 1)
        assert isinstance(cond, n.If)
        assert pos(cond) == (2, 1)
        first, body = cond.branches[0]
        assert pos(first) == (2, 4)
        assert pos(body[0]) == (3, 3)
        assert pos(body[0].value) == (3, 7)  # type: ignore[attr-defined]
        second, body2 = cond.branches[1]
        assert pos(second) == (4, 8)
        assert pos(body2[0]) == (4, 16)
        assert cond.otherwise is not None and pos(cond.otherwise[0]) == (4, 32)

    def test_positions_of_sub_expressions(self) -> None:
        e = expr("x.score + 2 * -y[1]")
        assert isinstance(e, n.Binary)
        assert pos(e) == (1, 1)
        assert isinstance(e.right, n.Binary)
        assert pos(e.right) == (1, 11)
        assert isinstance(e.right.right, n.Unary)
        assert pos(e.right.right) == (1, 15)
        assert pos(e.right.right.operand) == (1, 16)


class TestSyntaxErrors:
    @pytest.mark.parametrize(
        ("text", "line", "column", "message"),
        [
            ("let x 1", 1, 7, "syntax error: unexpected '1'; expected '='"),
            ("pass\nmove all deck to discard", 2, 10,
             "syntax error: unexpected 'deck'; expected 'from'"),
            ("draw 1 from deck hand[a]", 1, 18, "syntax error: unexpected 'hand'; expected 'to'"),
            ("let c = choose a of deck", 1, 18,
             "syntax error: unexpected 'of'; expected 'one', 'subset'"),
            ("let = 3", 1, 5, "syntax error: unexpected '='; expected a name"),
            ("let x = $", 1, 9, "syntax error: unexpected character '$'"),
            ("pass\n  let x = 1 +\n", 2, 14, "syntax error: unexpected end of text; expected "),
        ],
    )
    def test_located_with_what_was_expected(self, text: str, line: int, column: int,
                                            message: str) -> None:
        with pytest.raises(EffectSyntaxError) as info:
            parse(text)
        err = info.value
        assert err.message.startswith(message)
        assert (err.location.line, err.location.column) == (line, column)  # type: ignore[union-attr]

    def test_end_of_text_names_an_expression(self) -> None:
        with pytest.raises(EffectSyntaxError) as info:
            parse("let x = 1 +")
        assert "a name" in info.value.message

    def test_unclosed_block_points_at_its_brace(self) -> None:
        with pytest.raises(EffectSyntaxError) as info:
            parse("if x > 1 {\n  pass\n\n")
        assert str(info.value).splitlines() == [
            "<text>:1:10: syntax error: this '{' is never closed",
            "    if x > 1 {",
            "             ^",
            "hint: add the '}' that closes it",
        ]

    @pytest.mark.parametrize(
        ("text", "line", "column", "message", "hint"),
        [
            ("f(1, g(2)\nlet y = 3", 1, 2, "syntax error: this '(' is never closed",
             "add the ')' that closes it"),
            ("let t = sum([x for x in y)\npass", 1, 13, "syntax error: this '[' is never closed",
             "close it with ']' before the ')' at line 1, column 26"),
            ('if a { pass }\nlog "x {a} # y\npass', 2, 5,
             'syntax error: this quote " is never closed',
             'end the text with " on the same line (a text in quotes cannot go on to the next '
             "line)"),
            ("pass\nlet x = 1)", 2, 10, "syntax error: this ')' closes nothing",
             "remove it, or add the '(' it closes"),
            ("if a = 0 { pass }", 1, 6,
             "syntax error: '=' sets a variable; a condition compares with '=='",
             "did you mean '=='?"),
            ("let c = choose p subset of d where it.t = 1 # x\nlog \"{c}\"", 1, 41,
             "syntax error: '=' sets a variable; a condition compares with '=='",
             "did you mean '=='?"),
            ("log \"{a} (\" # ( [\nf(@x#2", 2, 2, "syntax error: this '(' is never closed",
             "add the ')' that closes it"),
            ("let x = (1 +\nlet y = 2", 1, 9, "syntax error: this '(' is never closed",
             "add the ')' that closes it"),
            ("let x = 1 +\n}", 2, 1, "syntax error: this '}' closes nothing",
             "remove it, or add the '{' it closes"),
            ("let x = 99999999999999999999999", 1, 9, "the number 99999999999999999999999 is too "
             "large; numbers lie within ±9,223,372,036,854,775,807 (±2^63 - 1)", None),
            ('pass\nlog "' + "a" * 65_537 + '"', 2, 5, "this text is too long (65,537 characters): "
             "texts hold at most 65,536", "split it into several texts"),
        ],
    )
    def test_placed_where_the_mistake_is(self, text: str, line: int, column: int,
                                         message: str, hint: str | None) -> None:
        with pytest.raises(EffectSyntaxError) as info:
            parse(text)
        err = info.value
        assert (err.message, err.hint) == (message, hint)
        assert (err.location.line, err.location.column) == (line, column)  # type: ignore[union-attr]

    def test_unclosed_brace_in_log_text(self) -> None:
        with pytest.raises(EffectSyntaxError) as info:
            parse('pass\nlog "a {x"')
        err = info.value
        assert err.message == "unclosed '{' in log text"
        assert err.hint == "write '{{' for a literal brace"
        assert (err.location.line, err.location.column) == (2, 8)  # type: ignore[union-attr]

    def test_error_inside_an_expression_of_log_text(self) -> None:
        with pytest.raises(EffectSyntaxError) as info:
            parse('pass\nlog "v = {1 +}"')
        err = info.value
        assert "unexpected end of text" in err.message
        assert (err.location.line, err.location.column) == (2, 14)  # type: ignore[union-attr]

    def test_nodes_of_log_fields_keep_their_places_in_the_text(self) -> None:
        (_, log) = parse('pass\nlog "a {x} b {y + 1}"')
        assert isinstance(log, n.Log)
        fields = [part for part in log.parts if isinstance(part, n.Expr)]
        assert [(f.pos.line, f.pos.column) for f in fields] == [(2, 9), (2, 15)]
        assert isinstance(fields[1], n.Binary)
        assert (fields[1].right.pos.line, fields[1].right.pos.column) == (2, 19)

    def test_expression_errors(self) -> None:
        with pytest.raises(EffectSyntaxError) as info:
            expr("x = 1")
        assert info.value.hint == "did you mean '=='?"
        assert info.value.location.column == 3  # type: ignore[union-attr]

    def test_message_quotes_the_source_with_a_caret(self) -> None:
        with pytest.raises(EffectSyntaxError) as info:
            parse("let x 1")
        text = str(info.value)
        assert text.splitlines() == [
            "<text>:1:7: syntax error: unexpected '1'; expected '='",
            "    let x 1",
            "          ^",
        ]
        assert isinstance(info.value, PackError)


# ================================================================== checker

PROC_PARAMS = "{p: role, n: int}"
REFILL = ("{q: role, k: int}", "draw k from deck to hand[q]")


def check(tmp_path: Path, code: str) -> tuple[str, list[PackError]]:
    """Load a pack whose procedure ``main_proc(p, n)`` is ``code``; return its text and errors."""
    text = content(procs={"refill": REFILL, "main_proc": (PROC_PARAMS, code)})
    return text, load_errors(tmp_path, text)


CHECK_CASES = [
    # (code, needle, nth, message, hint)
    ("let x = scroe + 1", "scroe", 0, "unknown name 'scroe'", "did you mean 'score'?"),
    ("move all from hand[p] to dicard", "dicard", 0, "unknown zone 'dicard'",
     "did you mean 'discard'?"),
    ("move all from pile to discard", "pile", 0, "unknown zone 'pile'",
     "zones: deck, discard, hand"),
    # (the words between 'card' and the name grow as the language gains kinds of objects)
    ("let z = @c11", "@c11", 0, re.compile(r"unknown card(, [a-z ,]+)? '@c11'"),
     "did you mean 'c1'?"),
    ("refil(p, 1)", "refil(", 0, "unknown procedure 'refil'", "did you mean 'refill'?"),
    ("refill(p)", "refill(p)", 0, "'refill' takes 2 argument(s), got 1", "refill(q, k)"),
    ('refill(p, "two")', '"two"', 0, "expected an integer, got a text", None),
    ("refill(n, 2)", "n, 2", 0, "expected a role, got an integer", None),
    ("let x = tag + 1", "tag + 1", 0, "expected an integer, got a text", None),
    ('total = 3 * "x"', '"x"', 0, "expected an integer, got a text", None),
    ("let y = n.score", "n.score", 0,
     re.compile(r"'\.score' needs a card(, [a-z ,]+)?, got an integer"), None),
    ("for c in deck {\n  total += c.scroe\n}", "c.scroe", 0,
     "no card has the property 'scroe'", "did you mean 'score'?"),
    ("turns = 3", "turns = 3", 0, "parameter 'turns' is read-only", None),
    ("let x = 1\nlet x = 2", "let x", 1, "'x' is already defined in this block",
     "assign it with '=' instead of 'let'"),
    ("if n > 0 {\n  break\n}", "break", 0, "'break' outside a loop", None),
    ("continue", "continue", 0, "'continue' outside a loop", None),
    ('win p "done"\nlog "never"', 'log "never"', 0, "unreachable statement",
     "nothing after win, end_round, return, break or continue runs"),
    ("draw 1 from deck to hand", "hand\n", 0, "zone 'hand' has one pile per role",
     "write hand[ROLE]"),
    ("bonus += 1", "bonus", 0, "variable 'bonus' has one value per role", "write bonus[ROLE]"),
    ("let deck = 3", "let deck", 0, "'deck' is already the name of a zone",
     "choose another name for the local variable"),
    ("let q = refill", "refill\n", 0, "'refill' is a procedure, not a value", None),
    ("let t = cnt(deck)", "cnt(", 0, "unknown function 'cnt'", "did you mean 'count'?"),
    ("count(deck)", "count(deck)", 0, "'count' is a function; its value would be lost",
     "use it in an expression, e.g. let x = ..."),
]


@pytest.mark.parametrize(("code", "needle", "nth", "message", "hint"), CHECK_CASES,
                         ids=[c[0] for c in CHECK_CASES])
def test_checker_errors(tmp_path: Path, code: str, needle: str, nth: int,
                        message: str | re.Pattern[str], hint: str | None) -> None:
    text, errors = check(tmp_path, code)
    assert len(errors) == 1, [str(e) for e in errors]
    err = errors[0]
    assert isinstance(err, EffectCheckError)
    if isinstance(message, str):
        assert err.message == message
    else:
        assert message.fullmatch(err.message), err.message
    assert err.hint == hint
    assert err.location is not None
    assert err.location.file.endswith("content.yaml")
    line, column = locate(text, needle, nth, after="main_proc:")
    assert (err.location.line, err.location.column) == (line, column)
    assert err.location.source_line == text.splitlines()[line - 1]


def test_a_keyword_read_as_a_value_points_at_the_unfinished_line(tmp_path: Path) -> None:
    # A line left unfinished makes the grammar read the next line's first word as a name:
    # the error says that word is the language's and asks about the line before it.
    text, errors = check(tmp_path, "let x = n +\nlet y = 2")
    first = errors[0]
    assert isinstance(first, EffectCheckError)
    assert first.message == "'let' is a word of the language, read here as a value"
    assert first.hint == "is the expression before it unfinished?"
    assert first.location is not None
    assert (first.location.line, first.location.column) == locate(
        text, "let y", 0, after="main_proc:")


def test_checker_location_in_a_procedure_is_exact(tmp_path: Path) -> None:
    text, errors = check(tmp_path, "let x = 1\nmove all from hand[p] to dicard")
    # BASE has 16 lines; then procedures: (17), refill (18-21), main_proc: (22), params (23),
    # do: | (24), let x = 1 (25), the move (26).
    assert BASE.count("\n") == 16
    assert text.splitlines()[25] == "      move all from hand[p] to dicard"
    loc = errors[0].location
    assert loc is not None
    assert (loc.line, loc.column) == (26, 32)
    assert str(errors[0]).splitlines() == [
        f"{loc.file}:26:32: unknown zone 'dicard'",
        "          move all from hand[p] to dicard",
        " " * (4 + 31) + "^",
        "hint: did you mean 'discard'?",
    ]


def test_checker_errors_in_setup_and_phases_are_located(tmp_path: Path) -> None:
    text = content(setup="pass\nlet y = scroe", phases={"main": "pass\ndraw 1 from dek to discard"})
    errors = load_errors(tmp_path, text)
    assert [e.message for e in errors] == ["unknown name 'scroe'", "unknown zone 'dek'"]
    locations = [(e.location.line, e.location.column) for e in errors]  # type: ignore[union-attr]
    assert locations == [locate(text, "scroe"), locate(text, "dek ")]
    assert errors[1].location.column == 21  # type: ignore[union-attr]  # 8 spaces of indent


def test_all_errors_are_reported_in_file_order(tmp_path: Path) -> None:
    _, errors = check(tmp_path, "let a1 = scroe\nturns = 1\nbreak")
    assert [e.message for e in errors] == [
        "unknown name 'scroe'", "parameter 'turns' is read-only", "'break' outside a loop"]
    lines = [e.location.line for e in errors]  # type: ignore[union-attr]
    assert lines == sorted(lines) and len(set(lines)) == 3


def test_choice_in_a_function_is_a_syntax_error(tmp_path: Path) -> None:
    text = content(functions={"pick": ("{}", "choose a one of deck")})
    errors = load_errors(tmp_path, text)
    assert len(errors) == 1
    assert isinstance(errors[0], EffectSyntaxError)
    assert errors[0].message == "syntax error: unexpected 'a'; expected the end of the text"
    loc = errors[0].location
    assert loc is not None and (loc.line, loc.column) == locate(text, "a one of deck")


@pytest.mark.parametrize("context", ["function", "expr", "expect"])
def test_checker_refuses_a_choice_outside_a_procedure(tmp_path: Path, context: str) -> None:
    # The grammar only allows a choice as a statement, and packs only have statements in
    # procedures, setup and phases; the checker still guards the other contexts.
    game = load(tmp_path, content()).game
    snippet = plain_snippet("pass\nlet c = choose a one of deck\nsimultaneous { let d = choose b "
                            "one of deck }")
    checker = Checker(game.symbols, snippet, context=context)
    checker.check_body(parse_block(snippet))
    found = [(e.message, e.location.line, e.location.column)  # type: ignore[union-attr]
             for e in checker.errors]
    message = "a choice can only stand in a procedure, setup or phase"
    assert found[:2] == [(message, 2, 9), (message, 3, 1)]
    assert {m for m, _, _ in found} == {message}


def test_a_correct_pack_has_no_errors(tmp_path: Path) -> None:
    code = """
    let hand_cards = [c for c in hand[p] if c.score > n]
    for c in hand_cards { move c from hand[p] to discard bottom }
    bonus[p] += count(hand_cards)
    refill(p, min(n, 3))
    if tag == "start" and @c1 in deck { tag = "go" }
    """
    text = content(procs={"refill": REFILL, "main_proc": (PROC_PARAMS, code)})
    assert load(tmp_path, text).game.pack_id == "t"


# ================================================================== runtime


def final_vars(tmp_path: Path, setup: str, **kw: object) -> tuple[dict[str, object], list[str]]:
    game, state = run(tmp_path, content(setup=setup, **kw))  # type: ignore[arg-type]
    assert game.is_over(state)
    return state["vars"], logs(game, state)


def test_let_assign_and_clamping(tmp_path: Path) -> None:
    variables, lines = final_vars(tmp_path, """
        score += 10
        log "{score}"
        score -= 100
        log "{score}"
        score = 3
        let x = 4
        x += score
        x -= 1
        log "{score} {x}"
        x = 100
        log "{x}"
        bonus[a] += 7
        bonus[b] -= 2
        tag = "changed"
        total = 6 * 2 // 3 % 3 - 10
    """)
    assert lines == ["5", "0", "3 6", "100"]  # locals are never clamped
    assert variables == {"score": 3, "total": -9, "bonus.a": 3, "bonus.b": -2,
                         "tag": "changed"}


def test_plain_assignment_is_clamped_too(tmp_path: Path) -> None:
    variables, _ = final_vars(tmp_path, "score = 99\nbonus[b] = 99\ntotal = -5")
    assert (variables["score"], variables["bonus.b"], variables["total"]) == (5, 3, -5)


def test_if_elif_else(tmp_path: Path) -> None:
    procs = {"classify": ("{k: int}", """
        if k < 2 { log "{k} small" }
        elif k < 4 { log "{k} medium" }
        elif k == 4 { log "{k} four" }
        else { log "{k} large" }
        if k == 5 { log "five" }
    """)}
    _, lines = final_vars(tmp_path, "for i in range(1, 5) { classify(i) }", procs=procs)
    assert lines == ["1 small", "2 medium", "3 medium", "4 four", "5 large", "five"]


def test_for_iterates_over_a_snapshot_while_moving_cards(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        for c in deck { move c from deck to discard }
        log "{count(deck)} {count(discard)}"
        for c in discard {
          if c.score > 3 { move c from discard to hand[a] }
        }
        let k = 0
        for c in hand[a] {
          draw 1 from discard to hand[a]
          k += 1
        }
        log "{k} {count(hand[a])}"
    """))
    assert logs(game, state) == ["0 6", "3 6"]
    assert state["zones"]["discard"] == []
    # A zone reads from its bottom to its top; c1 was the top of the deck.
    assert state["zones"]["hand.a"] == ["c6", "c5", "c4", "c1", "c2", "c3"]


def test_nested_loops_break_and_continue_the_inner_loop(tmp_path: Path) -> None:
    _, lines = final_vars(tmp_path, """
        for i in [1, 2, 3] {
          if i == 2 { continue }
          for j in [1, 2, 3] {
            if j == 2 { break }
            log "{i}{j}"
          }
          log "end {i}"
        }
    """)
    assert lines == ["11", "end 1", "31", "end 3"]


def test_while_with_break_and_continue(tmp_path: Path) -> None:
    _, lines = final_vars(tmp_path, """
        let i = 0
        while true {
          i += 1
          if i % 2 == 0 { continue }
          if i > 7 { break }
          log "{i}"
        }
        log "end {i}"
        while false { log "never" }
        while count(deck) > 4 { draw 1 from deck to discard }
        log "{count(deck)}"
    """)
    assert lines == ["1", "3", "5", "7", "end 9", "4"]


def test_repeat(tmp_path: Path) -> None:
    variables, lines = final_vars(tmp_path, """
        repeat 3 { total += 1 }
        repeat 0 { total += 100 }
        repeat 2 - 5 { total += 100 }
        repeat total { total += 1 }
        let k = 0
        repeat 2 { repeat 3 { k += 1 } }
        repeat 5 {
          if k == 8 { break }
          k += 1
        }
        let m = 0
        repeat 4 {
          m += 1
          if m % 2 == 1 { continue }
          log "{m}"
        }
        log "{k}"
    """)
    assert variables["total"] == 6  # the count is read once
    assert lines == ["2", "4", "8"]


def test_procedures_with_parameters_return_and_recursion(tmp_path: Path) -> None:
    procs = {
        "countdown": ("{k: int}", """
            if k == 0 {
              log "liftoff"
              return
            }
            log "{k}"
            countdown(k - 1)
            log "back {k}"
        """),
        "bump": ("{k: int}", 'k += 10\nlog "bumped {k}"'),
        "first_big": ("{p: role}", """
            for c in hand[p] {
              if c.score > 4 {
                log "big {c}"
                return
              }
            }
            log "none big"
        """),
        "give": ("{p: role, cards: list}", "move cards from deck to hand[p]"),
    }
    _, lines = final_vars(tmp_path, """
        countdown(2)
        let m = 1
        bump(m)
        log "m is {m}"
        give(b, [@c1, @c6, @c2])
        first_big(b)
        first_big(a)
    """, procs=procs)
    assert lines == ["2", "1", "liftoff", "back 1", "back 2", "bumped 11", "m is 1", "big Six",
                     "none big"]


def test_functions(tmp_path: Path) -> None:
    variables, _ = final_vars(
        tmp_path, "total = points([@c2, @c5]) + points(deck)",
        functions={"points": ("{cards: list}", "sum([c.score for c in cards])")})
    assert variables["total"] == 7 + 21


def test_move_draw_and_the_top_of_a_zone(tmp_path: Path) -> None:
    # The deck starts as listed, c1 on top. A zone reads from its bottom to its top: draw
    # takes from the top, move puts on the top (or at the bottom).
    game, state = run(tmp_path, content(setup="""
        log "{deck}"
        draw 2 from deck to hand[a]
        log "{hand[a]} / {top(deck)} / {first(deck)}"
        move @c6 from deck to discard
        move @c5 from deck to discard
        move @c4 from deck to discard bottom
        move all from hand[a] to discard
        draw 10 from deck to hand[b]
        draw 1 from deck to hand[b]
        move all from discard to hand[b] bottom
    """))
    assert logs(game, state) == ["Six, Five, Four, Three, Two, One", "One, Two / Three / Six"]
    assert state["zones"] == {"deck": [], "discard": [], "hand.a": [],
                              "hand.b": ["c4", "c6", "c5", "c1", "c2", "c3"]}


def test_draw_n_is_n_draws_of_one(tmp_path: Path) -> None:
    _, one = run(tmp_path / "one", content(setup="repeat 3 { draw 1 from deck to hand[a] }"))
    _, three = run(tmp_path / "three", content(setup="draw 3 from deck to hand[a]"))
    assert one["zones"] == three["zones"]
    assert three["zones"]["hand.a"] == ["c1", "c2", "c3"]


def test_initial_cards_are_listed_from_the_top(tmp_path: Path) -> None:
    base = BASE.replace(
        "  deck: {visibility: hidden, initial: all}\n  discard: {visibility: public}",
        "  deck: {visibility: hidden, initial: [c4, c2, c6]}\n"
        "  discard: {visibility: public, initial: [c1, c3, c5]}")
    game, state = run(tmp_path, content(
        base=base, setup='draw 1 from deck to hand[a]\nlog "{top(deck)} {top(discard)}"'))
    assert state["zones"]["hand.a"] == ["c4"]
    assert logs(game, state) == ["Two One"]


def test_move_of_a_card_that_is_not_there_is_a_located_runtime_error(tmp_path: Path) -> None:
    text = content(setup="pass\nmove @c1 from discard to deck")
    with pytest.raises(GameRuntimeError) as info:
        run(tmp_path, text)
    assert info.value.message == "card 'c1' is not in zone 'discard'"
    loc = info.value.location
    assert loc is not None and (loc.line, loc.column) == locate(text, "move @c1")


def test_division_by_zero_is_a_located_runtime_error(tmp_path: Path) -> None:
    text = content(setup="pass\ntotal = 1 // total")
    with pytest.raises(GameRuntimeError) as info:
        run(tmp_path, text)
    assert info.value.message == "division by zero"
    loc = info.value.location
    assert loc is not None and (loc.line, loc.column) == locate(text, "total = 1")


def test_shuffle_is_seeded_and_keeps_the_cards(tmp_path: Path) -> None:
    game = load(tmp_path, content(setup="shuffle deck")).game
    orders = [tuple(game.new_game(seed)["zones"]["deck"]) for seed in range(6)]
    assert all(sorted(order) == CARDS for order in orders)
    assert len(set(orders)) > 1
    again = [tuple(game.new_game(seed)["zones"]["deck"]) for seed in range(6)]
    assert again == orders
    untouched = game.initial_state(0)
    assert game.new_game(0)["rng"] != untouched["rng"]


def test_log_formatting(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        log "Card {@c3} scores {@c3.score}; {{braces}} and {[@c1, @c2]} / {[c for c in discard]}"
        log "role {a}, bool {total == 0}, none {none}, text {tag}, sum {total + 7}"
        draw 2 from deck to hand[a]
        log "Alice holds {hand[a]}" to a
        move all from hand[a] to discard
    """))
    assert logs(game, state) == [
        "Card Three scores 3; {braces} and One, Two / nothing",
        "role Alice, bool true, none none, text start, sum 7",
        "Alice holds One, Two",  # the value when it was logged
    ]
    secret = [e for e in state["log"] if e["e"] == "log" and e["to"] == "a"]
    assert len(secret) == 1
    assert secret[0] in game.observe(state, "a")["log"]
    assert secret[0] not in game.observe(state, "b")["log"]
    end = state["log"][-1]
    assert game.format_event(end) == "Game over: nobody wins. the last round is over"


def test_win_ends_the_game_at_once(tmp_path: Path) -> None:
    procs = {"w": ("{}", """
        repeat 3 {
          if total == 1 { win b "Bob got there" }
          total += 1
        }
        log "after the loop"
    """)}
    game, state = run(tmp_path, content(setup="w()\nlog \"after w\"", procs=procs,
                                        phases={"main": 'log "phase ran"'}, rounds="3"))
    assert game.is_over(state) and game.winner(state) == "b"
    assert state["result"] == {"winner": "b", "reason": "Bob got there", "round": 0}
    assert logs(game, state) == []
    assert state["vars"]["total"] == 1
    assert state["stack"] == [] and state["pending"] == []
    assert game.format_event(state["log"][-1]) == "Game over: Bob wins. Bob got there"
    with pytest.raises(IllegalActionError):
        game.apply(state, {})


def test_end_round_skips_the_rest_of_the_round_from_a_procedure(tmp_path: Path) -> None:
    procs = {"maybe_stop": ("{}", """
        for i in [1, 2] {
          if round == 1 { end_round }
          log "loop {i} round {round}"
        }
    """)}
    game, state = run(tmp_path, content(
        procs=procs, rounds="2",
        phases={"first": 'log "first {round}"\nmaybe_stop()\nlog "first done {round}"',
                "second": 'log "second {round} {phase}"'},
        after_rounds='log "after rounds {round}"'))
    assert logs(game, state) == [
        "first 1",
        "first 2", "loop 1 round 2", "loop 2 round 2", "first done 2", "second 2 second",
        "after rounds 2",
    ]
    assert state["result"]["winner"] is None


def test_end_when_is_checked_after_every_statement(tmp_path: Path) -> None:
    procs = {"count_up": ("{}", 'repeat 10 {\n  total += 1\n  log "total {total}"\n}')}
    game, state = run(tmp_path, content(
        setup="count_up()\nlog \"never\"", procs=procs,
        end_when=[("total >= 3", "b", "Bob reached three"), ("total >= 2", "a", "too late")]))
    assert logs(game, state) == ["total 1"]
    assert state["result"]["winner"] == "a" and state["result"]["reason"] == "too late"
    assert state["vars"]["total"] == 2


def test_end_when_is_checked_after_changes_of_what_it_reads(tmp_path: Path) -> None:
    # Only changes of what the end conditions read are followed by a check; what they read
    # includes what the pack's functions they call read, and a move changes its source too.
    game, state = run(tmp_path, content(
        setup='tag = "busy"\nrepeat 6 {\n  draw 1 from deck to hand[a]\n  log "drew"\n}',
        functions={"left": ("{}", "count(deck)")},
        end_when=[("left() == 4", "b", "two cards drawn"), ("tag == 'done'", "a", "done")]))
    assert logs(game, state) == ["drew"]
    assert state["result"]["reason"] == "two cards drawn"
    assert len(state["zones"]["hand.a"]) == 2


def test_end_when_after_a_decision(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(
        setup='score = choose a one of range(1, 9)\nlog "never"',
        end_when=[("score == 5", "a", "Alice maxed out")]))
    assert not game.is_over(state)
    after = game.apply(state, {"a": "8"})
    assert after["vars"]["score"] == 5  # clamped to max
    assert game.winner(after) == "a" and logs(game, after) == []


PICK = ("{p: role}", """
    repeat 3 {
      let c = choose p one of hand[p] prompt "Discard a card"
      move c from hand[p] to discard
      log "{p} discards {c}"
    }
    log "done"
""")


def test_a_choice_in_a_loop_in_a_procedure_suspends_and_resumes(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(
        setup='draw 4 from deck to hand[a]\npick(a)\nlog "after pick"', procs={"pick": PICK}))
    asked = []
    for choice in ["c3", "c1", "c4"]:
        (decision,) = game.pending(state)
        assert decision.player == "a" and decision.prompt == "Discard a card"
        asked.append([o.id for o in decision.options()])
        state = json.loads(json.dumps(state))  # suspended as plain data
        state = game.apply(state, {"a": choice})
    assert asked == [["c1", "c2", "c3", "c4"], ["c1", "c2", "c4"], ["c2", "c4"]]
    assert game.is_over(state)
    assert state["zones"]["discard"] == ["c3", "c1", "c4"]
    assert state["zones"]["hand.a"] == ["c2"]
    assert logs(game, state) == ["Alice discards Three", "Alice discards One",
                                 "Alice discards Four", "done", "after pick"]
    choices = [game.format_event(e) for e in state["log"] if e["e"] == "choice"]
    assert choices == ["Alice chose Three", "Alice chose One", "Alice chose Four"]


def test_simultaneous_needs_both_players(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        simultaneous {
          let x = choose a one of [1, 2, 3] prompt "Alice picks"
          let y = choose b one of ["left", "right"]
        }
        log "{x} {y}"
    """))
    assert sorted(d.player for d in game.pending(state)) == ["a", "b"]
    half = game.apply(state, {"a": "2"})
    assert [d.player for d in game.pending(half)] == ["b"]
    assert logs(game, half) == [] and not game.is_over(half)
    other = game.apply(state, {"a": "3"})
    assert game.observe(half, "b") == game.observe(other, "b")  # a's pick stays secret
    with pytest.raises(IllegalActionError, match="already decided"):
        game.apply(half, {"a": "1"})
    with pytest.raises(IllegalActionError, match="not an option"):
        game.apply(state, {"a": "7"})
    done = game.apply(half, {"b": "right"})
    assert logs(game, done) == ["2 right"]
    together = game.apply(state, {"a": "2", "b": "right"})
    assert together["zones"] == done["zones"] and logs(game, together) == ["2 right"]
    with pytest.raises(IllegalActionError, match="has no decision"):
        game.apply(state, {"nobody": "1"})


def test_subset_constraints(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        draw 6 from deck to hand[a]
        let s = choose a subset of hand[a] min 1 max 2 at most 1 where it.kind == "z"
        log "{s}"
    """))
    (decision,) = game.pending(state)
    assert decision.items == ["c1", "c2", "c3", "c4", "c5", "c6"]
    ids = [o.id for o in decision.options()]
    assert len(ids) == 6 + 15 - 1
    assert "none" not in ids and "c5+c6" not in ids and "c4+c6" in ids
    with pytest.raises(IllegalActionError, match="at most"):
        decision.option("c5+c6")
    with pytest.raises(IllegalActionError, match="between 1 and 2"):
        decision.option("c1+c2+c3")
    with pytest.raises(IllegalActionError, match="between 1 and 2"):
        decision.option("none")
    assert decision.option("c6+c4").id == "c4+c6"  # named in the order offered
    rng = random.Random(3)
    assert all(decision.sample(rng).id in ids for _ in range(200))
    after = game.apply(state, {"a": "c1+c6"})
    assert logs(game, after) == ["One, Six"]


def test_subset_defaults_allow_the_empty_choice(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        draw 3 from deck to hand[a]
        let s = choose a subset of hand[a] at most 1 where it.score > 4
                                           at most 0 where it.score == 2 max 1
        log "{s} {count(s)}"
    """))
    (decision,) = game.pending(state)
    assert [o.id for o in decision.options()] == ["none", "c1", "c3"]
    assert decision.options()[0].label == "(none)"
    assert logs(game, game.apply(state, {"a": "none"})) == ["nothing 0"]


def test_optional_one_choice(tmp_path: Path) -> None:
    setup = """
        draw 2 from deck to hand[a]
        let c = choose a one of hand[a] optional
        if c == none { log "declined" } else { log "took {c}" }
    """
    game, state = run(tmp_path, content(setup=setup))
    (decision,) = game.pending(state)
    assert [o.id for o in decision.options()] == ["none", "c1", "c2"]
    assert logs(game, game.apply(state, {"a": "none"})) == ["declined"]
    assert logs(game, game.apply(state, {"a": "c2"})) == ["took Two"]


def test_optional_choice_of_nothing_is_declined_at_once(tmp_path: Path) -> None:
    # (over public data: a choice that reads a secret is always asked, see test_secret_choices)
    game, state = run(tmp_path, content(
        setup='let c = choose a one of discard optional\nif c == none { log "declined" }'))
    assert game.is_over(state) and logs(game, state) == ["declined"]


def test_a_choice_of_nothing_is_a_located_runtime_error(tmp_path: Path) -> None:
    text = content(setup="pass\nlet c = choose b one of hand[b]")
    with pytest.raises(GameRuntimeError) as info:
        run(tmp_path, text)
    assert info.value.message == "b must choose, but there is nothing to choose"
    loc = info.value.location
    assert loc is not None and (loc.line, loc.column) == locate(text, "let c")


def test_single_options_are_taken_at_once(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        move [@c1, @c4] from deck to discard
        let c = choose a one of discard where it.score == 1
        let d = choose b one of discard where it.score == 4
        let e = choose a subset of discard where it.score > 9
        let f = choose a subset of discard max 0
        log "{c} {d} {e} {f}"
    """))
    assert game.is_over(state)
    assert logs(game, state) == ["One Four nothing nothing"]
    assert not [e for e in state["log"] if e["e"] == "choice"]


def test_a_subset_with_one_legal_answer_is_taken_at_once(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        draw 2 from deck to discard
        let s = choose a subset of discard min 2
        log "{s}"
    """))
    assert logs(game, state) == ["One, Two"]


def test_a_subset_that_cannot_be_satisfied_is_a_runtime_error(tmp_path: Path) -> None:
    with pytest.raises(GameRuntimeError, match="at least 3"):
        run(tmp_path, content(setup="draw 2 from deck to hand[a]\n"
                                    "let s = choose a subset of hand[a] min 3"))


def test_step_budget_stops_an_endless_loop(tmp_path: Path) -> None:
    procs = {"spin": ("{}", "let k = 0\nwhile true { pass }")}
    text = content(procs=procs, phases={"main": "pass\nspin()"})
    game = load(tmp_path, text).game
    with pytest.raises(GameRuntimeError) as info:
        game.new_game(0)
    err = info.value
    assert err.message == "the game ran 1,000,000 steps without waiting for a decision"
    assert err.hint == "is there a loop that never ends?"
    loc = err.location
    assert loc is not None
    assert loc.file.endswith("content.yaml")
    assert (loc.line, loc.column) == locate(text, "while true")
    assert (loc.line, loc.column) == (BASE.count("\n") + 6, 7)
    shown = str(err)
    assert f"content.yaml:{loc.line}:7: the game ran" in shown
    assert shown.splitlines()[-1] == "hint: is there a loop that never ends?"


def test_pending_decisions_are_plain_data(tmp_path: Path) -> None:
    _, state = run(tmp_path, content(setup='draw 4 from deck to hand[a]\npick(a)',
                                     procs={"pick": PICK}))
    assert json.loads(json.dumps(state)) == state
    assert len(state["stack"]) >= 2  # the procedure's frame is waiting in the state


def test_errors_raise_pack_errors_not_tracebacks(tmp_path: Path) -> None:
    with pytest.raises(PackErrors) as info:
        load(tmp_path, content(setup="let = 1"))
    assert str(info.value).startswith(str(info.value.errors[0].location))


def test_simultaneous_choices_of_one_player_are_refused_or_kept_apart(tmp_path: Path) -> None:
    text = content(setup="""
        simultaneous {
          let x = choose a one of [1, 2]
          let y = choose a one of [3, 4]
        }
        log "{x} {y}"
    """)
    try:
        game, state = run(tmp_path, text)
    except PackErrors:
        return  # refused when the pack is checked: fine too
    for answer in ["1", "2", "3", "4"]:
        try:
            after = game.apply(state, {"a": answer})
        except IllegalActionError:
            continue
        for line in logs(game, after):
            x, y = line.split()
            assert x in ("1", "2") and y in ("3", "4"), line


def test_end_round_after_the_last_round_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises((PackErrors, GameRuntimeError)) as info:
        run(tmp_path, content(after_rounds="end_round"))
    assert "steps" not in str(info.value)


def test_as_may_stand_among_the_other_choice_options(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        draw 3 from deck to hand[a]
        let c = choose a one of hand[a] optional prompt "Pick" as card where card.score > 1
    """))
    (decision,) = game.pending(state)
    assert [o.id for o in decision.options()] == ["none", "c2", "c3"]


def test_log_shows_texts_as_texts_and_things_by_name(tmp_path: Path) -> None:
    game, state = run(tmp_path, content(setup="""
        log "{@c1.id} {'a'} {a} {@c1} {[a, b]} {text(true)}"
    """))
    assert logs(game, state)[0] == "c1 a Alice One Alice, Bob true"


def test_on_enter_runs_for_each_card_that_enters_a_zone(tmp_path: Path) -> None:
    base = BASE.replace("  discard: {visibility: public}",
                        "  discard: {visibility: public, on_enter: tally}")
    procs = {"tally": ("{card: card}", 'total += card.score\nlog "in: {card}"')}
    game, state = run(tmp_path, content(setup="""
        draw 2 from deck to discard
        draw 2 from deck to hand[a]
        move all from hand[a] to discard
        move @c5 from deck to hand[b]
    """, procs=procs, base=base))
    assert state["vars"]["total"] == 1 + 2 + 3 + 4
    assert logs(game, state) == ["in: One", "in: Two", "in: Three", "in: Four"]


def test_an_on_enter_trigger_may_ask_for_each_card_in_turn(tmp_path: Path) -> None:
    base = BASE.replace("  discard: {visibility: public}",
                        "  discard: {visibility: public, on_enter: keep}")
    procs = {"keep": ("{card: card}", """
        let bet = choose a one of [1, 2] prompt "Bet on the card"
        total += bet * card.score
        log "{card}: {bet}"
    """)}
    game, state = run(tmp_path, content(setup="draw 2 from deck to discard\nlog 'done'",
                                        procs=procs, base=base))
    state = game.apply(state, {"a": "2"})  # for c1, which entered first
    assert logs(game, state) == ["One: 2"]
    state = game.apply(state, {"a": "1"})  # then for c2
    assert logs(game, state) == ["One: 2", "Two: 1", "done"]
    assert state["vars"]["total"] == 2 * 1 + 1 * 2


def test_a_numbered_variable_outside_its_range_is_a_located_error(tmp_path: Path) -> None:
    base = BASE + "  marks: {per: 3, initial: 0}\n"
    text = content(base=base, phases={"main": "let k = 7\nmarks[k] = 1"})
    with pytest.raises(GameRuntimeError) as caught:
        run(tmp_path, text)
    assert caught.value.message == "marks[7] does not exist"
    assert caught.value.location is not None
    assert caught.value.location.line == locate(text, "marks[k] = 1")[0]
