"""The ``rulekit`` command: validate packs, simulate games between agents, run scenario tests.

    rulekit validate PACK...
    rulekit simulate PACK [-n GAMES] [--seed S] [--agents ROLE=AGENT,...] [--param KEY=VALUE]...
                          [--workers W] [--max-rounds R] [--json]
    rulekit test PACK [--param KEY=VALUE]... [-k FILTER] [-v] [--require-coverage]
    rulekit play [PACK] [--seat ROLE=human|AGENT]... [--seed S] [--param KEY=VALUE]...
                        [--resume FILE [--take-seat]] [--save FILE] [--list] [--fast]
                        [--no-color]
    rulekit replay FILE [--as ROLE|all] [--all] [--pack PACK] [--no-color]
    rulekit map PACK [--param KEY=VALUE]... [--no-color]
    rulekit docs PACK [--out FILE]
    rulekit new NAME [--from PACK]
    rulekit list [--json]

One module per command (``rulekit.cli.validate``...), each with ``register(commands)``, which
adds its subparser, and the function that runs it; a command line that names a command imports
and registers that command's module only. Exit codes: 0 success, 1 an error (a broken
pack, a failing scenario, a bad value, piped answers not understood), 2 a bad command line, 130
interrupted, 128 + N stopped by signal N (``play`` saves first). The engine is
imported only when a command needs it, so that ``rulekit --help`` and friends start at once.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from rulekit import __version__, gctune
from rulekit.cli.common import PROG, err
from rulekit.errors import PackError, PackErrors, RulekitError

# command -> the module of rulekit.cli that registers it, in the order of `rulekit --help`
COMMANDS = {"validate": "validate", "simulate": "simulate", "test": "test", "play": "play",
            "replay": "play", "map": "map", "docs": "docs", "new": "new", "list": "packs"}


def _help_width() -> int:
    """The width of help texts, as argparse finds it, but without importing shutil (with
    what it imports, a tenth of the time ``rulekit validate`` takes on an unchanged pack)."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns or 80) - 2


def _formatter(prog: str) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(prog, width=_help_width())


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _formatter)
        super().__init__(*args, **kwargs)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of the command line; with ``only``, of that command alone."""
    parser = _Parser(
        prog=PROG, description="A rules-as-data engine for two-player tabletop games.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                     parser_class=_Parser)
    modules = [COMMANDS[only]] if only in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        importlib.import_module(f"rulekit.cli.{name}").register(commands)
    return parser


def _report(exc: RulekitError) -> None:
    if isinstance(exc, PackErrors):
        for error in exc.errors:
            err(str(error))
        count = len(exc.errors)
        err(f"{PROG}: error: {count} error{'' if count == 1 else 's'} in the pack")
    elif isinstance(exc, PackError) and exc.location is not None:
        err(str(exc))
    else:
        err(f"{PROG}: error: {exc}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code. The
    garbage collector is left on or off as it was (a command may pause it)."""
    with gctune.restored():
        return _main(argv)


def _main(argv: Sequence[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    gctune.tune()  # a rulekit process makes many small containers, few cycles
    parser = build_parser(argv[0] if argv else None)
    args = parser.parse_args(argv)
    try:
        code: Any = args.func(args)
        return int(code)
    except RulekitError as exc:
        _report(exc)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1


def entry() -> NoReturn:
    """The ``rulekit`` command (and ``python -m rulekit``): :func:`main`, then exit with its
    code, leaving what is still alive to the operating system (:func:`~rulekit.gctune.leave`),
    the collector as the command left it."""
    code = _main(None)
    gctune.leave()  # (before the collector is turned back on: no collection at all)
    sys.exit(code)


def _silence_stdout() -> None:
    """After a closed pipe (``rulekit ... | head``), keep Python quiet at exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
