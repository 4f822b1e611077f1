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
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from rulekit.cli.common import PROG, err
from rulekit.errors import PackError, PackErrors, RulekitError
from rulekit.version import __version__

# command -> the module of rulekit.cli that registers it, in the order of `rulekit --help`
COMMANDS = {"validate": "validate", "simulate": "simulate", "test": "test", "play": "play",
            "replay": "play", "map": "map", "docs": "docs", "new": "new", "list": "packs"}


def tune_gc() -> None:
    """Run the cyclic garbage collector less often, as programs making many small objects do.

    The engine makes and drops many small lists and dicts, almost never in cycles. With
    Python's default threshold, a search bot spends a large share of its time collecting.
    """
    young, middle, old = gc.get_threshold()
    if 0 < young < 50_000:
        gc.set_threshold(50_000, max(middle, 20), max(old, 20))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of the command line; with ``only``, of that command alone."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="A rules-as-data engine for two-player tabletop games.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
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
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    tune_gc()
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
    """The ``rulekit`` command (and ``python -m rulekit``)."""
    sys.exit(main())


def _silence_stdout() -> None:
    """After a closed pipe (``rulekit ... | head``), keep Python quiet at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":
    sys.exit(main())
