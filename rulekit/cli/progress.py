"""A progress bar for long commands, on standard error when it is a terminal."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

REFRESH_SECONDS = 0.1


@contextmanager
def progress_bar(total: int, what: str, quiet: bool = False
                 ) -> Iterator[Callable[[int], None] | None]:
    """Yield a function to tell how many more of ``total`` items are done.

    It yields None with ``quiet``, or when standard error is not a terminal. The bar is drawn
    only when told, by this thread. So no drawing thread runs while workers are forked.
    """
    if quiet or total <= 0 or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("eta"), TimeRemainingColumn())
    with Progress(*columns, console=Console(file=sys.stderr), transient=True,
                  auto_refresh=False) as bar:
        task = bar.add_task(what, total=total)
        shown = [0.0]

        def advance(done: int) -> None:
            """Count ``done`` more items; draw at most ten times a second."""
            bar.update(task, advance=done)
            now = time.monotonic()
            if now - shown[0] >= REFRESH_SECONDS:
                shown[0] = now
                bar.refresh()

        yield advance
