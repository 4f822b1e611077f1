"""The lark LALR parser of the effect language, built ahead of time.

Building the parser's tables from ``grammar.lark`` takes about a quarter of a second; lark's own
cache of them lives in the temp folder, which a fresh machine (a CI run) does not have. So the
tables ship with rulekit, in ``lalrtables.pickle`` next to the grammar (plain data: dicts,
lists, texts and numbers, read by an unpickler that refuses anything else), and
:func:`lalr_parser` loads them in a few milliseconds. They are used only when they were made
from this very ``grammar.lark`` by this very version of lark; otherwise the parser is built from
the grammar, with lark's cache, as before. :mod:`rulekit.lang.larkfast` reads them itself, as
plain data, whenever they were made from this ``grammar.lark`` (this module imports lark only
to build or load lark's parser). After an edit of the grammar, regenerate them::

    python -m rulekit.lang.larkbuild

(``tests/test_lalr_tables.py`` fails while they are out of date.)
"""

from __future__ import annotations

import io
import pickle
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulekit.lang.parser import grammar_text
from rulekit.source.store import sha256

if TYPE_CHECKING:
    from lark import Lark

OPTIONS: dict[str, Any] = {"parser": "lalr", "start": ["start", "expr_start"],
                           "propagate_positions": True, "maybe_placeholders": False}
TABLES_FILE = Path(__file__).with_name("lalrtables.pickle")


class _PlainData(pickle.Unpickler):
    """Unpickles plain data only: any class or function in the file is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"not plain data: {module}.{name}")


def grammar_digest(text: str) -> str:
    return sha256(text.encode("utf-8")).hexdigest()


def shipped_tables(text: str, any_lark: bool = False) -> dict[str, Any] | None:
    """The shipped tables, if made from the grammar ``text`` by this lark (else None; with
    ``any_lark``, by any lark: for :mod:`rulekit.lang.larkfast`, which reads them itself)."""
    try:
        found = _PlainData(io.BytesIO(TABLES_FILE.read_bytes())).load()
    except Exception:  # missing or unreadable: the parser is built from the grammar
        return None
    if not (isinstance(found, dict) and found.get("grammar") == grammar_digest(text)
            and isinstance(found.get("tables"), dict)):
        return None
    if not any_lark:
        import lark

        if found.get("lark") != lark.__version__:
            return None
    tables: dict[str, Any] = found["tables"]
    return tables


def lalr_parser() -> Lark:
    """The parser: from the shipped tables when they fit this grammar and lark, else built."""
    from lark import Lark

    text = grammar_text()
    tables = shipped_tables(text)
    if tables is not None:
        try:
            return Lark.load(tables)
        except Exception:  # pragma: no cover - tables this lark cannot read: build them
            pass
    # lark keeps the tables it builds in a file of the temp folder, by grammar hash
    return Lark(text, cache=True, **OPTIONS)


def build_tables(text: str) -> dict[str, Any]:
    """The tables of the grammar ``text``, as plain data (what :meth:`Lark.load` reads)."""
    from lark import Lark
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = Lark(text, **OPTIONS).memo_serialize([TerminalDef, Rule])
    return {"data": data, "memo": memo}


def main() -> None:
    import lark

    text = grammar_text()
    content = {"grammar": grammar_digest(text), "lark": lark.__version__,
               "tables": build_tables(text)}
    TABLES_FILE.write_bytes(pickle.dumps(content, protocol=4))
    print(f"wrote {TABLES_FILE}", file=sys.stderr)


if __name__ == "__main__":
    main()
