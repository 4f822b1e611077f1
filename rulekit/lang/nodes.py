"""The typed syntax tree of the effect language.

Every node keeps ``pos``: its line and column (1-based) in the effect text it came from. The
checker fills ``Name.ref`` with what a name refers to; the compiler reads it.
"""

from __future__ import annotations

from dataclasses import field
from typing import Any

from rulekit.records import record as node


@node(frozen=True)
class Pos:
    """A position inside one piece of effect text (1-based)."""

    line: int
    column: int


# ---------------------------------------------------------------- expressions


@node
class Expr:
    pos: Pos


@node
class Literal(Expr):
    value: Any  # int, bool, str or None


@node
class CardLit(Expr):
    card_id: str


@node
class Name(Expr):
    ident: str
    ref: Any = None  # filled by the checker: a resolved symbol


@node
class ListLit(Expr):
    items: list[Expr]


@node
class Comprehension(Expr):
    element: Expr
    var: str
    iterable: Expr
    condition: Expr | None
    slot: int = -1  # local slot of ``var``, set by the checker


@node
class Attr(Expr):
    obj: Expr
    attr: str
    obj_kind: str = "any"  # the type of ``obj``, filled by the checker


@node
class Index(Expr):
    obj: Expr
    index: Expr


@node
class Call(Expr):
    func: str
    args: list[Expr]
    ref: Any = None


@node
class Unary(Expr):
    op: str  # '-' or 'not'
    operand: Expr


@node
class Binary(Expr):
    op: str  # + - * // % == != < <= > >= in 'not in' and or
    left: Expr
    right: Expr


# ---------------------------------------------------------------- choices


@node
class AtMost:
    pos: Pos
    limit: Expr
    condition: Expr
    reason: Log | None = None  # why an answer breaking the rule is refused (``else "..."``)


@node
class Choice(Expr):
    player: Expr
    kind: str  # 'one' or 'subset'
    source: Expr
    var: str = "it"
    where: Expr | None = None
    min: Expr | None = None
    max: Expr | None = None
    at_most: list[AtMost] = field(default_factory=list)
    optional: bool = False
    prompt: str | None = None
    slot: int = -1  # local slot of ``var``
    always_ask: bool = False  # its options may read non-public data (see lang/secrecy.py)
    # Each 'where' clause (``where`` is their conjunction) with why it refuses a candidate: a
    # text with {expr} fields, like a log line (``where COND else "..."``), or None.
    wheres: list[tuple[Expr, Log | None]] = field(default_factory=list)
    # Why an answer with too few or too many items is refused (``min N else "..."``).
    reasons: dict[str, Log] = field(default_factory=dict)
    # How each candidate is named to the chooser (``label "..."``): a text with {expr} fields
    # evaluated with the candidate bound, or None for the candidate's own name.
    label: Log | None = None


# ---------------------------------------------------------------- statements


@node
class Stmt:
    pos: Pos


@node
class Let(Stmt):
    name: str
    value: Expr
    slot: int = -1


@node
class Assign(Stmt):
    name: str
    index: Expr | None
    op: str  # '=', '+=', '-='
    value: Expr
    ref: Any = None


@node
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None


@node
class For(Stmt):
    var: str
    iterable: Expr
    body: list[Stmt]
    slot: int = -1
    iter_slot: int = -1


@node
class While(Stmt):
    condition: Expr
    body: list[Stmt]


@node
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]
    iter_slot: int = -1


@node
class Move(Stmt):
    cards: Expr | None  # None means 'all'
    source: Expr
    dest: Expr
    to_bottom: bool = False


@node
class Draw(Stmt):
    count: Expr
    source: Expr
    dest: Expr


@node
class Shuffle(Stmt):
    zone: Expr


@node
class CallStmt(Stmt):
    proc: str
    args: list[Expr]
    ref: Any = None


@node
class Simultaneous(Stmt):
    bindings: list[Let]


@node
class Win(Stmt):
    winner: Expr
    reason: str | None


@node
class Log(Stmt):
    parts: list[str | Expr]  # text pieces and embedded expressions
    to: Expr | None
    kinds: list[str] = field(default_factory=list)  # the type of each expression, by the checker


@node
class Break(Stmt):
    pass


@node
class Continue(Stmt):
    pass


@node
class Return(Stmt):
    pass


@node
class EndRound(Stmt):
    pass


@node
class Pass(Stmt):
    pass
