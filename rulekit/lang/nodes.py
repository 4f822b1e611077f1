"""The typed syntax tree of the effect language.

Every node keeps ``pos``: its line and column (1-based) in the effect text it came from. The
checker fills ``Name.ref`` with what a name refers to; the compiler reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Pos:
    """A position inside one piece of effect text (1-based)."""

    line: int
    column: int


# ---------------------------------------------------------------- expressions


@dataclass
class Expr:
    pos: Pos


@dataclass
class Literal(Expr):
    value: Any  # int, bool, str or None


@dataclass
class CardLit(Expr):
    card_id: str


@dataclass
class Name(Expr):
    ident: str
    ref: Any = None  # filled by the checker: a resolved symbol


@dataclass
class ListLit(Expr):
    items: list[Expr]


@dataclass
class Comprehension(Expr):
    element: Expr
    var: str
    iterable: Expr
    condition: Expr | None
    slot: int = -1  # local slot of ``var``, set by the checker


@dataclass
class Attr(Expr):
    obj: Expr
    attr: str
    obj_kind: str = "any"  # the type of ``obj``, filled by the checker


@dataclass
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass
class Call(Expr):
    func: str
    args: list[Expr]
    ref: Any = None


@dataclass
class Unary(Expr):
    op: str  # '-' or 'not'
    operand: Expr


@dataclass
class Binary(Expr):
    op: str  # + - * // % == != < <= > >= in 'not in' and or
    left: Expr
    right: Expr


# ---------------------------------------------------------------- choices


@dataclass
class AtMost:
    pos: Pos
    limit: Expr
    condition: Expr
    reason: Log | None = None  # why an answer breaking the rule is refused (``else "..."``)


@dataclass
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


@dataclass
class Stmt:
    pos: Pos


@dataclass
class Let(Stmt):
    name: str
    value: Expr
    slot: int = -1


@dataclass
class Assign(Stmt):
    name: str
    index: Expr | None
    op: str  # '=', '+=', '-='
    value: Expr
    ref: Any = None


@dataclass
class If(Stmt):
    branches: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None


@dataclass
class For(Stmt):
    var: str
    iterable: Expr
    body: list[Stmt]
    slot: int = -1
    iter_slot: int = -1


@dataclass
class While(Stmt):
    condition: Expr
    body: list[Stmt]


@dataclass
class Repeat(Stmt):
    count: Expr
    body: list[Stmt]
    iter_slot: int = -1


@dataclass
class Move(Stmt):
    cards: Expr | None  # None means 'all'
    source: Expr
    dest: Expr
    to_bottom: bool = False


@dataclass
class Draw(Stmt):
    count: Expr
    source: Expr
    dest: Expr


@dataclass
class Shuffle(Stmt):
    zone: Expr


@dataclass
class CallStmt(Stmt):
    proc: str
    args: list[Expr]
    ref: Any = None


@dataclass
class Simultaneous(Stmt):
    bindings: list[Let]


@dataclass
class Win(Stmt):
    winner: Expr
    reason: str | None


@dataclass
class Log(Stmt):
    parts: list[str | Expr]  # text pieces and embedded expressions
    to: Expr | None
    kinds: list[str] = field(default_factory=list)  # the type of each expression, by the checker


@dataclass
class Break(Stmt):
    pass


@dataclass
class Continue(Stmt):
    pass


@dataclass
class Return(Stmt):
    pass


@dataclass
class EndRound(Stmt):
    pass


@dataclass
class Pass(Stmt):
    pass


Node = Expr | Stmt | AtMost
"""Any node of the tree."""
