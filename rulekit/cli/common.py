"""What the commands share: output, argument types, the program name."""

from __future__ import annotations

import argparse
import sys
from typing import Protocol

PROG = "rulekit"


class Commands(Protocol):
    """The subcommands of ``rulekit``, as ``argparse`` makes them."""

    def add_parser(self, name: str, *, help: str, description: str
                   ) -> argparse.ArgumentParser:
        """Add the parser of the command ``name``."""


def out(text: str = "") -> None:
    """Print ``text`` on standard output."""
    print(text)


def err(text: str) -> None:
    """Print ``text`` on standard error."""
    print(text, file=sys.stderr)


def count(value: str, minimum: int, what: str) -> int:
    """The whole number ``value``, at least ``minimum``."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got '{value}'") from None
    if number < minimum:
        raise argparse.ArgumentTypeError(f"{what} must be at least {minimum}, got {number}")
    return number


def games(value: str) -> int:
    """A number of games: 0 or more."""
    return count(value, 0, "the number of games")


def positive(value: str) -> int:
    """A whole number of 1 or more."""
    return count(value, 1, "the value")


def seed(value: str) -> int:
    """A seed: an integer, in any base Python reads (``0x2a``)."""
    try:
        return int(value, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer seed, got '{value}'") from None


def add_param_option(parser: argparse.ArgumentParser) -> None:
    """Add ``-p/--param KEY=VALUE``, repeatable."""
    parser.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                        help="set a parameter of the pack (repeatable)")
