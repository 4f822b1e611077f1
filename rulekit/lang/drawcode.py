"""The code of a random seat's answer to a choice, drawn in place.

In a simulation (random seats, no choice recorded, nobody watching, within the round limit:
``rt.drawing``), the playout code of a choice of one item asked alone draws its answer itself
when the choice is not forced (or is asked even when forced) and no anytime action of the
player holds: the draw of ``QuickAnswers.choose_one``, written out. In such a game without
anytime actions (``rt.quick``), the playout code of a subset choice does likewise, with the
draws of :class:`~rulekit.engine.quickanswers.QuickAnswers` (``choose_subset``,
``choose_subsets``).
A subset is drawn as a bit mask of its candidates, ``getrandbits(n)``, again until it keeps
the bounds (and the choice's 'at most' rule), at most 64 times; after that the answer is one
of all the legal ones, drawn as ``RandomChooser.answer`` draws it (``rt.refused_answer``,
through the spec). A choice this code cannot answer in short (a forced one not always asked,
say) goes the way of ``QuickAnswers``, which makes its spec. The same draws in the same
order, so the same games (``tests/test_playout.py``, ``tests/test_playout_choices.py``).
"""

from __future__ import annotations

# When the runtime draws in short (see the module's text): a test of the current round.
QUICK_TEST = "rt.quick and S['round'] <= rt.last_round"
DRAWING_TEST = "rt.drawing and S['round'] <= rt.last_round"

# After the answers of ``count`` decisions: as QuickAnswers counts them (the loop turns before
# a decision are counted, and the budget starts again).
_ANSWERED = "rt.decisions += {count}; rt.spent += rt.budget - rt.ticks; rt.ticks = rt.budget"


def one_alone(slot: int, items: str, player: str, optional: bool, ask: bool, anytime: bool,
              call: str) -> list[str]:
    """The code of a choice of one of the candidates ``items`` (Python source) asked alone,
    by ``player`` (``optional``: none may be chosen), in a pack with ``anytime`` actions or
    not: drawn in place (:data:`DRAWING_TEST`, not forced, or asked even when forced:
    ``ask``; no anytime action of the player holds: ``QuickAnswers.choose_one`` would draw no
    action), else by ``call`` (the source of a call of ``rt.choose_one`` reading the
    candidates as ``_it``), as often as it gives an anytime action to run, the candidates
    worked out again after each."""
    # Not forced; or asked even when forced (``ask``), which choose_one then draws alike: one
    # item (a draw of one), or none of an optional choice (a draw of one, to decline).
    if optional:
        test = DRAWING_TEST if ask else f"{DRAWING_TEST} and _it"
    else:
        test = f"{DRAWING_TEST} and _it" if ask else f"{DRAWING_TEST} and len(_it) > 1"
    if anytime:  # (whens: the anytime actions that hold, by role, once worked out)
        test += f" and (_qw := rt.whens) is not None and _qw.get({player}) == []"
    count = "len(_it) + 1" if optional else "len(_it)"
    value = "(_it[_qd - 1] if _qd else None)" if optional else "_it[_qd]"
    return [f"_it = {items}",
            f"if {test}:",
            "    " + _ANSWERED.format(count=1),
            f"    _qg = rt.rngs[{player}].getrandbits; _qc = {count}; _qb = _qc.bit_length()",
            "    _qd = _qg(_qb)",
            "    while _qd >= _qc:",
            "        _qd = _qg(_qb)",
            f"    L[{slot}] = {value}",
            "else:",
            f"    while (_act := {call}) is not None:",
            "        rt.run_anytime(_act)",
            f"        _it = {items}"]


def drawn_subset(slot: int, items: str, player: str, least: str, most: str,
                 rule: tuple[str, str] | None, maker: str) -> list[str]:
    """The lines that draw the answer of a choice with candidates ``items`` (the Python name
    of a list that is not empty), of ``player``, from ``least`` to ``most`` of them (names or
    numbers), with an 'at most' rule ``(limit, mask)`` or none, into ``L[slot]`` (``maker``:
    the choice's spec maker, for an answer drawn among all the legal ones)."""
    test = f"{least} <= _qb.bit_count() <= {most}"
    if rule is not None:
        limit, mask = rule
        test += f" and (_qb & {mask}).bit_count() <= {limit}"
    return [f"_qg = rt.rngs[{player}].getrandbits; _qn = len({items})",
            "for _ in range(64):",
            "    _qb = _qg(_qn)",
            f"    if {test}:",
            f"        L[{slot}] = [{items}[_qi] for _qi in _BITS(_qb)]",
            "        break",
            "else:",
            f"    rt.refused_answer(L, {slot}, {player}, {maker})"]


def subset_alone(slot: int, items: str, player: str, least: str, most: str,
                 maker: str) -> list[str]:
    """The code, under :data:`QUICK_TEST`, of a choice of a subset asked alone with no 'at
    most' rule (``QuickAnswers.choose_subset``): ``items`` is the Python source of its
    candidates, ``least`` and ``most`` that of its bounds (``most`` may read ``_it``, the
    candidates)."""
    lines = [f"_it = {items}", f"_qlo = {least}; _qhi = {most}",
             "if _it and _qlo <= 0 < _qhi:"]
    lines += ["    " + line for line in drawn_subset(slot, "_it", player, "_qlo", "_qhi", None,
                                                    maker)]
    lines += ["    " + _ANSWERED.format(count=1),
              "else:",
              f"    rt.choose_subset(L, {slot}, _it, {player}, _qlo, _qhi, {maker})"]
    return lines


def subsets_together(choices: list[tuple[int, str, str, str, str, tuple[str, str] | None,
                                         bool]],
                     makers: list[str]) -> list[str]:
    """The code, under :data:`QUICK_TEST`, of choices of subsets that surely take the short
    way (``QuickAnswers.choose_subsets`` with ``sure``), each as ``(slot, candidates'
    name, player, least, most, rule, ask)`` (sources; ``rule`` as ``(limit, mask)`` or
    None): every bound and mask worked out first, as the call's arguments were, then each
    answer drawn in turn; a choice with no candidate is answered with none (a decision if it
    is asked)."""
    lines = []
    for index, (_, _, _, least, most, rule, _) in enumerate(choices):
        lines.append(f"_qlo{index} = {least}; _qhi{index} = {most}")
        if rule is not None:
            lines.append(f"_qlim{index} = {rule[0]}; _qm{index} = {rule[1]}")
    lines.append("_qd = 0")
    for index, ((slot, items, player, _, _, rule, ask), maker) in enumerate(
            zip(choices, makers, strict=True)):
        named = None if rule is None else (f"_qlim{index}", f"_qm{index}")
        lines.append(f"if {items}:")
        lines += ["    " + line for line in drawn_subset(
            slot, items, player, f"_qlo{index}", f"_qhi{index}", named, maker)]
        lines += ["    _qd += 1", "else:", f"    L[{slot}] = []"]
        if ask:
            lines.append("    _qd += 1")
    lines += ["if _qd:", "    " + _ANSWERED.format(count="_qd")]
    return lines


__all__ = ["DRAWING_TEST", "QUICK_TEST", "drawn_subset", "one_alone", "subset_alone",
           "subsets_together"]
