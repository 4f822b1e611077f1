"""The language's phases import one way: the compiler imports the runtime, never the reverse.

What generated code calls and what the interpreter runs on (``engine/program``,
``engine/helpers``) belong to the runtime; ``rulekit.engine`` never imports the parser's
checker, the compiler or the emitter, so a process that only runs games never loads them.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import rulekit

ENGINE = Path(rulekit.__file__).parent / "engine"
COMPILE_SIDE = {"rulekit.lang.checker", "rulekit.lang.compiler", "rulekit.lang.emitter",
                "rulekit.lang.choicecode", "rulekit.lang.pyexpr", "rulekit.lang.reads"}


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (inside functions and TYPE_CHECKING too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_no_engine_module_imports_the_compile_side() -> None:
    offending = {path.name: sorted(imported_modules(path) & COMPILE_SIDE)
                 for path in sorted(ENGINE.glob("*.py"))}
    assert not {name: mods for name, mods in offending.items() if mods}


def loaded_after(statement: str) -> set[str]:
    """The modules loaded in a fresh interpreter after running ``statement``."""
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return set(out.split())


def test_running_games_loads_neither_the_compiler_nor_the_parser_library() -> None:
    loaded = loaded_after("import rulekit.engine.game, rulekit.engine.playout")
    assert "rulekit.engine.vm" in loaded and not loaded & COMPILE_SIDE
    assert "lark" not in loaded_after("import rulekit.engine.vm")
