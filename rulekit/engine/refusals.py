"""The candidates a pending decision refuses and why, worked out when someone reads them.

A choice that gives a reason for refusing a candidate (``where COND else "..."``) keeps in its
spec, in a game with a log, not the candidates refused but ``refusing``: the number of a
function of the program (``Program.refusers``) that lists them, run on the state the decision
waits in, with the locals of its frame. A game that never shows the reasons (a bot's search, a
belief's replays, a state drawn by ``Game.determinize``) never builds them; a reader (a player,
``Game.observe``, a save shown again) gets them as they would have been built when the choice
was made: ``[[candidate, [text id, [arguments]]], ...]`` in the spec's ``refused``.

That holds because a pending decision's state does not change while it waits (answers are
committed aside), and whatever changes the cards of a state with pending decisions asks them
again (``bots/cards.ask_again``). A spec made before (with ``refused`` itself) is read as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.engine.vm import Runtime

if TYPE_CHECKING:
    from rulekit.engine.program import Program

REFUSING = "refusing"


def refused(program: Program, spec: dict[str, Any], state: dict[str, Any]
            ) -> list[list[Any]]:
    """The candidates ``spec`` (a pending decision of ``state``) refuses, each with the
    pack's reason (``[text id, [arguments]]``); empty if none."""
    number = spec.get(REFUSING)
    if number is None:
        return spec.get("refused") or []
    refuser, location = program.refusers[number]
    locals_ = state["stack"][-1][2]
    runtime = Runtime(program, state)
    found: list[list[Any]] = runtime.evaluate(lambda rt, _: refuser(rt, locals_), location)
    return found


def shown(program: Program, spec: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """``spec`` as a reader sees it: ``refusing`` gives way, in its place, to ``refused``
    (if any candidate is refused with a reason)."""
    if REFUSING not in spec:
        return spec
    found = refused(program, spec, state)
    result: dict[str, Any] = {}
    for key, value in spec.items():
        if key != REFUSING:
            result[key] = value
        elif found:
            result["refused"] = found
    return result
