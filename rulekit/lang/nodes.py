"""The typed syntax tree of the effect language.

Every node keeps ``pos``: its line and column (1-based) in the effect text it came from.

The checker fills the ``ref`` of a name, an assignment or a call with what it refers to. The
compiler reads it. It is one of::

    ("local", slot)          a let, a parameter or a loop variable
    ("var", name, per)       a variable of the pack (per: whether it takes an index)
    ("zone", name, per)      a zone of the pack
    ("const", value)         a role (its id) or a parameter (its value)
    ("builtin", name)        round, phase, winner, finished; or a built-in function
    ("pack_builtin", name)   a built-in function that needs the pack (other, neighbors...)
    ("func", name)           a function of the pack

The ``ref`` of a procedure call is the procedure's name.
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
    """An expression, which has a value."""

    pos: Pos


@dataclass
class Literal(Expr):
    """A number, a text, ``true``, ``false`` or ``none``."""

    value: Any  # int, bool, str or None


@dataclass
class CardLit(Expr):
    """A component named by its id: ``@bust``, ``@dock``."""

    card_id: str


@dataclass
class Name(Expr):
    """A name: a local, a variable, a zone, a role, a parameter, ``round``..."""

    ident: str
    ref: Any = None  # what it refers to, filled by the checker


@dataclass
class ListLit(Expr):
    """A list written out: ``[a, b, c]``."""

    items: list[Expr]


@dataclass
class Comprehension(Expr):
    """A list built from another: ``[e for x in xs if cond]``."""

    element: Expr
    var: str
    iterable: Expr
    condition: Expr | None
    slot: int = -1  # local slot of ``var``, set by the checker


@dataclass
class Attr(Expr):
    """A property of a component: ``c.score``."""

    obj: Expr
    attr: str
    obj_kind: str = "any"  # the type of ``obj``, filled by the checker


@dataclass
class Index(Expr):
    """An item of a list, or of a zone or variable with ``per``: ``x[i]``."""

    obj: Expr
    index: Expr


@dataclass
class Call(Expr):
    """A call of a built-in or of a function of the pack."""

    func: str
    args: list[Expr]
    ref: Any = None


@dataclass
class Unary(Expr):
    """``-x`` or ``not x``."""

    op: str  # '-' or 'not'
    operand: Expr


@dataclass
class Binary(Expr):
    """An operation on two values: ``a + b``, ``a and b``, ``x in xs``..."""

    op: str  # + - * // % == != < <= > >= in 'not in' and or
    left: Expr
    right: Expr
    walks: bool = False  # it walks a list or a text, counted by size (set by the checker)


@dataclass
class Conditional(Expr):
    """``a if c else b``: ``a`` when ``c`` holds, else ``b``."""

    then: Expr
    test: Expr
    otherwise: Expr


# ---------------------------------------------------------------- choices


@dataclass
class AtMost:
    """A rule of a subset choice: ``at most LIMIT where CONDITION``."""

    pos: Pos
    limit: Expr
    condition: Expr
    reason: Log | None = None  # why an answer breaking the rule is refused (``else "..."``)


@dataclass
class Choice(Expr):
    """``choose PLAYER one|subset of SOURCE ...``: a question to a player."""

    player: Expr
    kind: str  # 'one' or 'subset'
    source: Expr
    var: str = "it"
    where: Expr | None = None
    min: Expr | None = None
    max: Expr | None = None
    at_most: list[AtMost] = field(default_factory=list)
    optional: bool = False
    prompt: Log | None = None  # written as a log text is
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
    """A statement."""

    pos: Pos


@dataclass
class Let(Stmt):
    """``let NAME = VALUE``: a new local variable."""

    name: str
    value: Expr
    slot: int = -1


@dataclass
class Assign(Stmt):
    """``NAME = VALUE``, ``NAME[INDEX] += VALUE``..."""

    name: str
    index: Expr | None
    op: str  # '=', '+=', '-='
    value: Expr
    ref: Any = None
    walks: bool = False  # '+=' of a list, counted by size (set by the checker)


@dataclass
class If(Stmt):
    """``if``, its ``elif`` branches and its ``else``."""

    branches: list[tuple[Expr, list[Stmt]]]
    otherwise: list[Stmt] | None


@dataclass
class For(Stmt):
    """``for VAR in LIST { ... }``."""

    var: str
    iterable: Expr
    body: list[Stmt]
    slot: int = -1
    iter_slot: int = -1


@dataclass
class While(Stmt):
    """``while CONDITION { ... }``."""

    condition: Expr
    body: list[Stmt]


@dataclass
class Repeat(Stmt):
    """``repeat COUNT { ... }``."""

    count: Expr
    body: list[Stmt]
    iter_slot: int = -1


@dataclass
class Move(Stmt):
    """``move CARDS from ZONE to ZONE [top|bottom]``."""

    cards: Expr | None  # None means 'all'
    source: Expr
    dest: Expr
    to_bottom: bool = False


@dataclass
class Draw(Stmt):
    """``draw COUNT from ZONE to ZONE``."""

    count: Expr
    source: Expr
    dest: Expr


@dataclass
class Shuffle(Stmt):
    """``shuffle ZONE``."""

    zone: Expr


@dataclass
class CallStmt(Stmt):
    """A call of a procedure of the pack."""

    proc: str
    args: list[Expr]
    ref: Any = None


@dataclass
class Simultaneous(Stmt):
    """``simultaneous { let a = choose ... }``: choices answered at once."""

    bindings: list[Let]


@dataclass
class Win(Stmt):
    """``win ROLE ["reason"]``: the game ends."""

    winner: Expr
    reason: Log | None  # its text, written as a log text is


@dataclass
class Log(Stmt):
    """``log "text {expr}" [to ROLE]``; also a reason or a label of a choice."""

    parts: list[str | Expr]  # text pieces and embedded expressions
    to: Expr | None
    kinds: list[str] = field(default_factory=list)  # the type of each expression, by the checker


@dataclass
class Break(Stmt):
    """``break``: leave the innermost loop."""


@dataclass
class Continue(Stmt):
    """``continue``: the innermost loop's next turn."""


@dataclass
class Return(Stmt):
    """``return``: leave the procedure, phase or setup."""


@dataclass
class EndRound(Stmt):
    """``end_round``: the round ends."""


@dataclass
class Pass(Stmt):
    """``pass``: nothing."""


Node = Expr | Stmt | AtMost
"""Any node of the tree."""
