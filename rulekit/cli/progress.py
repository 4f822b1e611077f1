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
    """Yield a function to tell of items done, or None if quiet or not at a terminal.

    The bar is drawn when told. So no thread draws while workers are forked.
    """
    if quiet or total <= 0 or not sys.stderr.isatty():
        yield None
        return
    from rich import progress as rp
    from rich.console import Console

    columns = (rp.TextColumn("{task.description}"), rp.BarColumn(), rp.MofNCompleteColumn(),
               rp.TimeElapsedColumn(), rp.TextColumn("eta"), rp.TimeRemainingColumn())
    with rp.Progress(*columns, console=Console(file=sys.stderr), transient=True,
                     auto_refresh=False) as bar:
        task = bar.add_task(what, total=total)
        shown = [0.0]

        def advance(done: int) -> None:
            bar.update(task, advance=done)
            now = time.monotonic()
            if now - shown[0] >= REFRESH_SECONDS:
                shown[0] = now
                bar.refresh()

        yield advance
