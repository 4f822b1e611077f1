"""The texts of a pending decision that only people read, worked out when someone reads them:
the candidates it refuses and why, and the labels of its candidates.

A choice that gives a reason for refusing a candidate (``where COND else "..."``) keeps in its
spec, in a game with a log, not the candidates refused but ``refusing``: the number of a
function of the program (``Program.refusers``) that lists them, run on the state the decision
waits in, with the locals of its frame; a choice with a ``label`` keeps ``labelling``, the
number of the function that labels its candidates (``Program.labellers``). A game that never
shows them (a bot's search, a belief's replays, a state drawn by ``Game.determinize``) never
builds them; a reader (a player, ``Game.observe``, a save shown again) gets them as they would
have been built when the choice was made, in the spec's ``refused`` (``[[candidate, [text id,
[arguments]]], ...]``) and ``labels`` (``[[text id, [arguments]], ...]``, one per candidate).

That holds because a pending decision's state does not change while it waits (answers are
committed aside), and whatever changes the cards of a state with pending decisions asks them
again (``bots/cards.ask_again``). A spec made before (with ``refused`` or ``labels`` itself)
is read as it is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.engine.vm import Runtime
from rulekit.errors import UsageError

if TYPE_CHECKING:
    from rulekit.model.program import Program

REFUSING = "refusing"
LABELLING = "labelling"
# What a spec keeps -> what a reader reads in its place.
READ_AS = {REFUSING: "refused", LABELLING: "labels"}


def later(spec: dict[str, Any]) -> bool:
    """Whether ``spec`` keeps texts to work out when read."""
    return REFUSING in spec or LABELLING in spec


def refused(program: Program, spec: dict[str, Any], state: dict[str, Any]
            ) -> list[list[Any]]:
    """The candidates ``spec`` (a pending decision of ``state``) refuses, each with the
    pack's reason (``[text id, [arguments]]``); empty if none."""
    return read(program, spec, state, "refused") or []


def read(program: Program, spec: dict[str, Any], state: dict[str, Any], key: str
         ) -> list[Any] | None:
    """What a reader finds under ``key`` (``refused`` or ``labels``) of ``spec``, a pending
    decision of ``state``: None if the choice has none."""
    if not any(waiting is spec for waiting in state["pending"]):
        raise UsageError("this state no longer waits on that decision (its texts are read "
                         "from a state that does)")
    if key == "refused":
        number = spec.get(REFUSING)
        if number is None:
            return spec.get(key)
        find, location = program.refusers[number]
        locals_ = state["stack"][-1][2]
        found: list[Any] = Runtime(program, state).evaluate(
            lambda rt, _: find(rt, locals_), location)
        return found
    number = spec.get(LABELLING)
    if number is None:
        return spec.get(key)
    label, location = program.labellers[number]
    locals_, items = state["stack"][-1][2], spec["items"]
    labels: list[Any] = Runtime(program, state).evaluate(
        lambda rt, _: label(rt, locals_, items), location)
    return labels


def shown(program: Program, spec: dict[str, Any], state: dict[str, Any]) -> dict[str, Any]:
    """``spec`` as a reader sees it: ``refusing`` gives way, in its place, to ``refused`` (if
    any candidate is refused with a reason), ``labelling`` to ``labels``."""
    if not later(spec):
        return spec
    result: dict[str, Any] = {}
    for key, value in spec.items():
        if key not in READ_AS:
            result[key] = value
            continue
        found = read(program, spec, state, READ_AS[key])
        if found or key == LABELLING:
            result[READ_AS[key]] = found
    return result
