"""The cyclic garbage collector set for rulekit's work, as the ``rulekit`` command runs.

The engine makes and drops many small lists and dicts (a copy of a state is a list per pile
and per frame), almost none of them in reference cycles (the engine's own objects form none:
``tests/test_gc_cycles.py``). Python's default threshold (a young collection every 700 more
containers made than freed) then runs a collection at nearly every copy of a big state,
each one scanning the states alive at that moment and moving them on to the older
generations, which a full collection scans again: a search bot spent a quarter of its time
there. :func:`tune` makes the collector run after 50,000 more containers, as many programs
that make many objects do (mypy among them). A program that embeds rulekit may call it too;
the ``rulekit`` command calls it at its start, and the benchmarks as the command does.

Three more for short runs: :func:`pause` turns the collector off for the rest of a command
(``validate``: a pack's cycles are few, and a young collection of its 50,000 containers took
longer than the rest of a validation's garbage costs), :func:`restored` turns it back on as
it was after a command run in-process, and :func:`leave` hands the objects alive when the
``rulekit`` command ends to the operating system, so that the collections Python runs as it
exits scan none of them (a tenth of a validation's time on an empty cache). The command
leaves before the collector is turned back on, which would collect what the paused run made.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

YOUNG = 50_000  # containers made (and not freed) between two young collections
OLDER = 20  # young collections between two of the middle generation, and so on


def tune() -> None:
    """Run the cyclic collector less often (see the module's text). A threshold already at
    least as high, or the automatic collector turned off (a threshold of 0), is kept."""
    young, middle, old = gc.get_threshold()
    if 0 < young < YOUNG:
        gc.set_threshold(YOUNG, max(middle, OLDER), max(old, OLDER))


def pause() -> None:
    """No automatic collection until the end of :func:`restored` (or of the process)."""
    gc.disable()


@contextlib.contextmanager
def restored() -> Iterator[None]:
    """Within: a command; after: the automatic collector on or off as it was before."""
    enabled = gc.isenabled()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def leave() -> None:
    """At the end of the ``rulekit`` command: the objects alive then are never collected
    (``gc.freeze``); exit handlers still run and streams are still flushed."""
    gc.freeze()
