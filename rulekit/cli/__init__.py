"""The ``rulekit`` command line.

Each command has a module (``rulekit.cli.validate``...). Its ``register(commands)`` adds
the command's parser, and its ``run(args)`` runs it. A command line imports the module of its
command only. The engine is imported only when a command needs it. So ``rulekit --help``
starts at once.

The commands::

    rulekit validate PACK... [--strict] [--format text|json] [--no-cache]
    rulekit simulate PACK [-n GAMES] [--seed S] [--agents ROLE=AGENT,...] [-p KEY=VALUE]...
                          [--sweep KEY=V1,V2,...]... [-j W] [--scheduler ADDRESS]
                          [--max-rounds R] [--json | --csv] [-q]
    rulekit test PACK [-p KEY=VALUE]... [-k FILTER] [-v] [--require-coverage] [--with-base]
    rulekit play [PACK] [--seat ROLE=human|AGENT]... [--seed S] [-p KEY=VALUE]...
                        [--resume FILE [--take-seat]] [--save FILE] [--list] [--fast]
                        [--no-color]
    rulekit replay FILE [--as ROLE|all] [--all] [--pack PACK] [--no-color]
    rulekit map PACK [-p KEY=VALUE]... [--no-color] [--out FILE.svg]
    rulekit docs PACK [--out FILE]
    rulekit new NAME [--from PACK]
    rulekit list [FOLDER...] [--json]

The exit code is 0 for success, and 1 for an error: a broken pack, a failing scenario, a bad
value. It is 2 for a bad command line, 130 after Ctrl-C, and 128 + N after signal N.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from rulekit.cli.common import PROG, err
from rulekit.errors import PackError, PackErrors, RulekitError
from rulekit.version import __version__

# command -> the module of rulekit.cli that registers it, in the order of `rulekit --help`
COMMANDS = {"validate": "validate", "simulate": "simulate", "test": "test", "play": "play",
            "replay": "play", "map": "map", "docs": "docs", "new": "new", "list": "packs"}


def tune_gc() -> None:
    """Run the cyclic garbage collector less often.

    The engine makes and drops many small lists and dicts, almost never in cycles. With the
    default threshold, a search bot spends much of its time collecting.
    """
    young, middle, old = gc.get_threshold()
    if 0 < young < 50_000:
        gc.set_threshold(50_000, max(middle, 20), max(old, 20))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of the command line, or of the command ``only``."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="A rules-as-data engine for two-player tabletop games.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules = [COMMANDS[only]] if only in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        importlib.import_module(f"rulekit.cli.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    tune_gc()
    args = build_parser(argv[0] if argv else None).parse_args(argv)
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    """Run the command of ``args``; return its exit code."""
    try:
        return int(args.func(args))
    except RulekitError as exc:
        _report(exc)
        return 1
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        _silence_stdout()
        return 1


def _report(exc: RulekitError) -> None:
    """Print an error of rulekit's on standard error."""
    if isinstance(exc, PackErrors):
        _report_pack_errors(exc)
    elif isinstance(exc, PackError) and exc.location is not None:
        err(str(exc))
    else:
        err(f"{PROG}: error: {exc}")


def _report_pack_errors(exc: PackErrors) -> None:
    """Print each error found in a pack, then their number."""
    for error in exc.errors:
        err(str(error))
    count = len(exc.errors)
    err(f"{PROG}: error: {count} error{'' if count == 1 else 's'} in the pack")


def entry() -> NoReturn:
    """The ``rulekit`` command (and ``python -m rulekit``)."""
    sys.exit(main())


def _silence_stdout() -> None:
    """Keep Python quiet at exit after a closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
