"""A comprehension whose condition does not read its variable works the condition out once.

The compiler hoists such a condition (``engine.helpers.each_if``); it must still count the
steps of a condition worked out once per item, so that games stay byte for byte the same
(``steps`` is part of a state) and the step budget stops the same loops.
"""

from __future__ import annotations

from pathlib import Path

from helpers_lang import content, run

# The inner list is walked once per card of the deck when the condition is not hoisted.
HOISTED = 'total = count([c for c in deck if count([d for d in deck if d.kind == "{kind}"]) > 0])'
# The same work, but the condition reads ``c``: worked out once per card.
PLAIN = ('total = count([c for c in deck if count([d for d in deck '
         'if d.kind == "{kind}" or c == none]) > 0])')


def test_a_hoisted_condition_counts_the_steps_of_one_per_item(tmp_path: Path) -> None:
    for kind, total in (("x", 6), ("w", 0)):
        game, hoisted = run(tmp_path / f"h{kind}", content(setup=HOISTED.format(kind=kind)))
        _, plain = run(tmp_path / f"p{kind}", content(setup=PLAIN.format(kind=kind)))
        assert "_each_if" in "".join(_sources(game))
        assert hoisted["vars"]["total"] == plain["vars"]["total"] == total
        assert hoisted["steps"] == plain["steps"] > 36  # the deck's 6 cards walked 7 times


def _sources(game: object) -> list[str]:
    """The generated Python of a game's program (its code objects' names and constants)."""
    program = game.program  # type: ignore[attr-defined]
    found = []
    for fn in [*program.functions.values(), *program.direct.values()]:
        found += [str(c) for c in fn.__code__.co_names]
    found += [name for proc in program.procs.values() for block in proc.blocks
              if hasattr(block, "__code__") for name in block.__code__.co_names]
    return found
