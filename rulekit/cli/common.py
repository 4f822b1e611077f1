"""What the commands share: output, argument types, the program name, a progress bar."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

PROG = "rulekit"
REFRESH_SECONDS = 0.1  # of the progress bar


class Commands:
    """The subcommands of ``rulekit``, each added with the function that runs it."""

    def __init__(self, parser: argparse.ArgumentParser) -> None:
        self.subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    def add(self, name: str, run: Callable[[argparse.Namespace], int], *, help: str,
            description: str, pack: bool = False) -> argparse.ArgumentParser:
        """Add the command ``name``, which ``run`` runs; ``pack``: its first argument is a PACK."""
        parser = self.subparsers.add_parser(name, help=help, description=description)
        parser.set_defaults(func=run)
        if pack:
            parser.add_argument("pack", metavar="PACK", help="a pack folder or a shipped pack id")
        return parser


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


@contextmanager
def progress_bar(total: int, what: str, quiet: bool = False
                 ) -> Iterator[Callable[[int], None] | None]:
    """Yield a function that tells of items done and draws the bar, or None if quiet."""
    if quiet or total <= 0 or not sys.stderr.isatty():
        yield None
        return
    from rich import progress as rp
    from rich.console import Console

    columns = (rp.TextColumn("{task.description}"), rp.BarColumn(), rp.MofNCompleteColumn(),
               rp.TimeElapsedColumn(), rp.TextColumn("eta"), rp.TimeRemainingColumn())
    with rp.Progress(*columns, console=Console(file=sys.stderr), transient=True,
                     auto_refresh=False) as bar:  # no thread draws while workers fork
        task = bar.add_task(what, total=total)
        shown = [0.0]

        def advance(done: int) -> None:
            bar.update(task, advance=done)
            now = time.monotonic()
            if now - shown[0] >= REFRESH_SECONDS:
                shown[0] = now
                bar.refresh()

        yield advance
