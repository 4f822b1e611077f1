"""The main procedure (setup, rounds of phases, what follows the last round) as one plain
function, its playout version.

On the normal path the main procedure is a list of blocks (``pack/code``), one for the start
of each round, one for each phase entered and one for each phase called, each run by the
interpreter's loop. A playout needs none of the stops between them: this runs the same steps
as a Python loop, calling each phase's playout version, and counts one step of the budget per
phase entered, so that a flow of rounds that never asks anything still runs out of steps.
A failure anywhere is the playout's, which is then played again on the normal path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.engine.helpers import BudgetExceeded, EndRound, StopGame

if TYPE_CHECKING:
    from rulekit.engine.vm import Runtime
    from rulekit.model.program import ExprFn, Program


def main_playout(program: Program, setup: str | None, rounds: ExprFn | None,
                 phases: list[tuple[str, str]], after: str | None) -> Any:
    """The playout version of the main procedure: ``f(rt, locals)``, which ends the game
    (``StopGame``). It calls the playout versions in ``program.playout`` as found at each
    call (a procedure may be played through its blocks instead: see engine/playout)."""
    procs = program.procs
    playout = program.playout
    steps = [(phase_id, name, procs[name].nslots) for phase_id, name in phases]

    def main(rt: Runtime, locals_: list[Any]) -> None:
        state = rt.state
        if setup is not None:
            playout[setup](rt, [None] * procs[setup].nslots)
        while rounds is None or state["round"] < rounds(rt, locals_):
            state["round"] += 1
            try:
                for phase_id, name, nslots in steps:
                    rt.ticks -= 1
                    if rt.ticks < 0:
                        raise BudgetExceeded
                    state["phase"] = phase_id
                    playout[name](rt, [None] * nslots)
            except EndRound:
                pass  # on to the next round, as end_round does
            rt.ticks -= 1
            if rt.ticks < 0:
                raise BudgetExceeded
        state["phase"] = None
        if after is not None:
            playout[after](rt, [None] * procs[after].nslots)
        if state["result"] is None:
            rt.finish(None, "the last round is over")
        raise StopGame

    return main
