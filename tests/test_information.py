"""The search bots take an anytime action for what it tells, and only then.

On the Peek pack the guesser names a secret from 1 to 4. Once, it may peek and learn whether
the secret is odd or even; it may shout, which tells nothing, as often as it likes. A search
plays each drawn state as if it knew the secret, so on its own it sees no worth in the peek.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulekit.bots.agent import View
from rulekit.bots.belief import SeatBelief
from rulekit.bots.evaluation import outcome
from rulekit.bots.heuristic import HeuristicAgent
from rulekit.bots.information import telling
from rulekit.bots.ismcts import IsmctsAgent
from rulekit.engine.decisions import Option
from rulekit.engine.game import Game
from rulekit.engine.state import State
from rulekit.pack.loader import load_pack

PEEK = Path(__file__).parent / "packs" / "peek"
AGENTS = {"ismcts": lambda: IsmctsAgent(iterations=50), "heuristic": HeuristicAgent}


def guesses(agent_name: str, seed: int) -> list[str]:
    """The guesser's answers in one game, the keeper playing at random."""
    game = load_pack(PEEK).game
    agent, kept, rng = AGENTS[agent_name](), SeatBelief(), random.Random(seed)
    state = game.new_game(seed)
    answers = []
    while state["result"] is None:
        decision = game.pending(state)[0]
        if decision.player == "guesser":
            view = View.of(game, "guesser", rng, state, kept=kept)
            option = agent.choose(view, decision)
            assert isinstance(option, Option)
            answers.append(option.id)
        else:
            option = decision.sample(rng)
        game.apply(state, {decision.player: option.id}, in_place=True)
    return [*answers, str(state["vars"]["secret"])]


@pytest.mark.parametrize("agent_name", AGENTS)
@pytest.mark.parametrize("seed", range(8))
def test_a_bot_peeks_then_names_a_secret_of_the_parity_it_saw(agent_name: str,
                                                              seed: int) -> None:
    *answers, secret = guesses(agent_name, seed)
    assert answers[0] == "!peek"
    assert int(answers[-1]) % 2 == int(secret) % 2


@pytest.mark.parametrize("seed", range(4))
def test_an_action_is_taken_for_what_it_tells_only_while_it_tells_something(seed: int) -> None:
    game = load_pack(PEEK).game
    state = game.apply(game.new_game(seed), {"keeper": "3"})
    view = View.of(game, "guesser", random.Random(seed), state)
    decision = game.pending(state)[0]
    assert [o.id for o in decision.extras] == ["!peek", "!shout"]
    told = telling(view, decision, set(), outcome)
    assert told is not None and told.id == "!peek"
    assert telling(view, decision, {"!peek"}, outcome) is None  # a shout tells nothing
    state = game.apply(state, {"guesser": "!peek"})
    view = View.of(game, "guesser", random.Random(seed), state)
    decision = game.pending(state)[0]
    assert [o.id for o in decision.extras] == ["!shout"]
    assert telling(view, decision, set(), outcome) is None


def test_an_action_that_costs_more_than_it_tells_is_not_taken() -> None:
    game = load_pack(PEEK).game
    state = game.apply(game.new_game(1), {"keeper": "2"})
    view = View.of(game, "guesser", random.Random(1), state)
    decision = game.pending(state)[0]

    def peeks_left(game: Game, state: State, role: str) -> float:
        return 0.5 + 0.1 * int(state["vars"]["peeks"])  # the peek costs 0.1

    assert telling(view, decision, set(), peeks_left) is None
