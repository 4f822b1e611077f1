"""Figures on the code of ``rulekit/``: size, layout, complexity, types and prose.

    python benchmarks/code_metrics.py [--json] [--by-package]

- ``lines``: lines of Python in ``rulekit/`` (as ``wc -l`` counts them);
- ``modules``, ``loose_modules``: Python files, and those at the top of ``rulekit/``;
- ``shared_names``: module names used by more than one file (``__init__`` aside);
- ``mean_cc``: the mean cyclomatic complexity of functions, methods and classes, as
  ``radon cc -a`` reports it (needs radon);
- ``any_signatures``: the share of function signatures that name ``Any`` (or an alias of it);
- ``docstring_words_median``, ``docstring_sentences_over_25``: words per docstring sentence.

With ``--by-package``, the same figures for each package of ``rulekit/`` (and the loose
modules together), one line each.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "rulekit"


def python_files(folder: Path = ROOT, loose: bool = False) -> list[Path]:
    """The Python files under ``folder`` (with ``loose``: only those right in it)."""
    return sorted(folder.glob("*.py") if loose else folder.rglob("*.py"))


def any_aliases(tree: ast.Module) -> set[str]:
    """Names a module binds to a type that is ``Any`` or contains it."""
    found = {"Any"}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            names = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            if names & found:
                found.add(node.targets[0].id)
    return found


def signature_names(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = fn.args
    annotations = [a.annotation for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]
    annotations += [args.vararg.annotation if args.vararg else None,
                    args.kwarg.annotation if args.kwarg else None, fn.returns]
    names: set[str] = set()
    for annotation in annotations:
        if annotation is None:
            continue
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            names |= set(re.findall(r"\w+", annotation.value))
        else:
            names |= {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(annotation) if isinstance(n, ast.Attribute)}
    return names


SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`(\"'*])")


def docstring_sentences(text: str) -> list[str]:
    """Sentences of a docstring's prose (code blocks and field lists left out)."""
    prose = []
    in_code = False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.endswith("::") or stripped.startswith(">>>"):
            in_code = True
            continue
        if in_code and (not stripped or line.startswith("    ")):
            continue
        in_code = False
        prose.append(stripped)
    paragraphs = " ".join(prose).split("  ")
    sentences = []
    for paragraph in paragraphs:
        sentences += [s for s in SENTENCE_END.split(paragraph) if s.strip()]
    return sentences


def measure(files: list[Path] | None = None, radon_target: list[str] | None = None
            ) -> dict[str, object]:
    files = python_files() if files is None else files
    names = Counter(p.stem for p in files if p.stem != "__init__")
    signatures = with_any = 0
    words: list[int] = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        aliases = any_aliases(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                signatures += 1
                with_any += bool(signature_names(node) & aliases)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef
                          | ast.AsyncFunctionDef):
                doc = ast.get_docstring(node)
                if doc:
                    words += [len(s.split()) for s in docstring_sentences(doc)]
    figures: dict[str, object] = {
        "lines": sum(len(p.read_text(encoding="utf-8").splitlines()) for p in files),
        "modules": len(files),
        "loose_modules": sorted(p.name for p in files if p.parent == ROOT),
        "shared_names": sorted(name for name, count in names.items() if count > 1),
        "any_signatures": round(with_any / max(signatures, 1), 3),
        "signatures": signatures,
        "docstring_words_median": statistics.median(words) if words else 0,
        "docstring_sentences_over_25": round(sum(w > 25 for w in words) / max(len(words), 1), 3),
        "docstring_sentences": len(words),
    }
    try:
        target = radon_target or [str(ROOT)]
        out = subprocess.run([sys.executable, "-m", "radon", "cc", "-a", "-s", *target],
                             capture_output=True, text=True, check=True).stdout
        found = re.search(r"Average complexity: \w \(([\d.]+)\)", out)
        figures["mean_cc"] = float(found.group(1)) if found else None
    except (OSError, subprocess.CalledProcessError):
        figures["mean_cc"] = None  # radon is not installed
    return figures


def by_package() -> None:
    """One line of figures per package."""
    groups = {"(loose)": python_files(ROOT, loose=True)}
    for folder in sorted(p for p in ROOT.iterdir() if (p / "__init__.py").exists()):
        groups[folder.name] = python_files(folder)
    print(f"{'package':>12} {'lines':>6} {'mean_cc':>8} {'any':>6} {'words':>6}")
    for name, files in groups.items():
        figures = measure(files, [str(f) for f in files])
        cc = figures["mean_cc"]
        print(f"{name:>12} {figures['lines']:>6} {cc if cc is None else round(cc, 2):>8} "
              f"{figures['any_signatures']:>6} {figures['docstring_words_median']:>6}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--by-package", action="store_true")
    args = parser.parse_args()
    if args.by_package:
        by_package()
        return
    figures = measure()
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for key, value in figures.items():
        print(f"{key:>28}: {value}")


if __name__ == "__main__":
    main()
