"""What every command of the command line shares: output, argument types, the program name."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

PROG = "rulekit"


def out(text: str = "", file: TextIO | None = None) -> None:
    print(text, file=file if file is not None else sys.stdout)


def err(text: str) -> None:
    print(text, file=sys.stderr)


def count(value: str, minimum: int, what: str) -> int:
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{value}'") from None
    if number < minimum:
        raise argparse.ArgumentTypeError(f"{what} must be at least {minimum}, got {number}")
    return number


def games(value: str) -> int:
    return count(value, 0, "the number of games")


def positive(value: str) -> int:
    return count(value, 1, "the value")


def seed(value: str) -> int:
    try:
        return int(value, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got '{value}'") from None


def add_param_option(parser: argparse.ArgumentParser) -> None:
    """``-p/--param KEY=VALUE``, repeatable."""
    parser.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                        help="set a parameter of the pack (repeatable)")
