"""One game between agents, told decision by decision: for reading how a bot plays.

    python benchmarks/watch_game.py PACK --agents ROLE=SPEC,... [--seed S] [--game I]
                                    [--show VAR,...]

The game is game I of ``rulekit simulate PACK --seed S`` (the same seeds, so a row of
``bench_bots.py`` can be watched again). Each answer to a decision of two options or more is
printed with the round, the deciding role, the variables named by ``--show`` as that role sees
them (``None`` where it cannot), the question and the answer. The log lines each role sees are
printed as they come, a private one marked with its reader. The result ends the text.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path

from rulekit.bots.agent import AgentFunction, View, choose_function
from rulekit.bots.registry import load_agent, parse_agents
from rulekit.engine.decisions import Decision, Option
from rulekit.engine.game import Game
from rulekit.engine.rng import derive
from rulekit.pack.loader import load_pack
from rulekit.sim.simulation import play_game

sys.path.insert(0, str(Path(__file__).resolve().parent))  # baselines.py, a plug-in agent


@dataclass
class Printed:
    """What the seats' printing has covered so far."""

    public: int = 0  # public log lines printed
    read: dict[str, int] = field(default_factory=dict)  # each role's log events read


class Told:
    """An agent whose answers, and the log lines before them, are printed."""

    def __init__(self, game: Game, role: str, spec: str, show: list[str],
                 printed: Printed) -> None:
        self.game, self.role, self.show, self.printed = game, role, show, printed
        self.inner: AgentFunction = choose_function(load_agent(spec))

    def choose(self, view: View, decision: Decision) -> Option:
        observation = view.observation
        printed = self.printed
        public = 0  # public lines come in the same order in every role's log: print them once
        for at, event in enumerate(observation["log"]):
            if event["e"] != "log":
                continue
            if event["to"] is None:
                public += 1
                if public <= printed.public:
                    continue
            elif at < printed.read.get(self.role, 0):
                continue
            reader = f"({event['to']} only) " if event["to"] else ""
            print(f"    {reader}{self.game.format_event(event)}")
        printed.public = max(public, printed.public)
        printed.read[self.role] = len(observation["log"])
        answer = self.inner(view, decision)
        option = answer if isinstance(answer, Option) else decision.find(answer)
        if len(decision.offered) > 1:
            seen = " ".join(f"{name}={observation['vars'].get(name)}" for name in self.show)
            print(f"r{observation['round']} {self.role}: {seen} | {decision.prompt} -> "
                  f"{option.label}", flush=True)
        return option


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pack")
    parser.add_argument("--agents", required=True, help="ROLE=SPEC,... (others play at random)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", type=int, default=0)
    parser.add_argument("--show", default="", help="variables to print at each decision")
    args = parser.parse_args()
    game = load_pack(args.pack).game
    show = [name for name in args.show.split(",") if name]
    printed = Printed()
    agents = {role: Told(game, role, spec, show, printed)
              for role, spec in parse_agents(args.agents, game.roles).items()}
    record = play_game(game, derive(args.seed, args.game), agents)
    print(f"winner: {record.winner}, after {record.rounds} rounds: {record.reason}")


if __name__ == "__main__":
    main()
