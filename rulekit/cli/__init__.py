"""The ``rulekit`` command line; a command's module is imported only when it is named.

Exit codes: 0 success, 1 error, 2 bad command line, 130 after Ctrl-C, 128 + N after signal N.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from rulekit import __version__
from rulekit.cli.common import PROG, Commands, err
from rulekit.errors import PackError, PackErrors, RulekitError

# command -> the module of rulekit.cli that registers it, in the order of `rulekit --help`
COMMANDS = {"validate": "validate", "simulate": "simulate", "report": "report",
            "test": "test", "train": "train", "play": "play", "replay": "play",
            "serve": "serve", "map": "map", "docs": "docs", "new": "new", "list": "packs"}


def tune_gc() -> None:
    """Run the cyclic garbage collector less often: the engine makes few cycles."""
    young, middle, old = gc.get_threshold()
    if 0 < young < 50_000:
        gc.set_threshold(50_000, max(middle, 20), max(old, 20))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of the command line, or of the command ``only``."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="A rules-as-data engine for two-player tabletop games.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    commands = Commands(parser)
    modules = [COMMANDS[only]] if only in COMMANDS else list(dict.fromkeys(COMMANDS.values()))
    for name in modules:
        importlib.import_module(f"rulekit.cli.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); return the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    tune_gc()
    args = build_parser(argv[0] if argv else None).parse_args(argv)
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
    if isinstance(exc, PackErrors):
        for error in exc.errors:
            err(str(error))
        count = len(exc.errors)
        err(f"{PROG}: error: {count} error{'' if count == 1 else 's'} in the pack")
    elif isinstance(exc, PackError) and exc.location is not None:
        err(str(exc))
    else:
        err(f"{PROG}: error: {exc}")


def entry() -> NoReturn:
    """The ``rulekit`` command (and ``python -m rulekit``)."""
    sys.exit(main())


def _silence_stdout() -> None:
    """Keep Python quiet at exit after a closed pipe."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
