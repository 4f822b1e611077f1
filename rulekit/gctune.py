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
"""

from __future__ import annotations

import gc

YOUNG = 50_000  # containers made (and not freed) between two young collections
OLDER = 20  # young collections between two of the middle generation, and so on


def tune() -> None:
    """Run the cyclic collector less often (see the module's text). A threshold already at
    least as high, or the automatic collector turned off (a threshold of 0), is kept."""
    young, middle, old = gc.get_threshold()
    if 0 < young < YOUNG:
        gc.set_threshold(YOUNG, max(middle, OLDER), max(old, OLDER))
